// Throwaway TLS certificates for tests, made by scripts/tls-make-certs.sh (openssl) in a fresh
// temp dir that the destructor removes: a CA, a server certificate for 127.0.0.1 and localhost,
// a client certificate, and an unrelated second CA.
//
// Cost: one openssl run per key (P-256 EC), tens of milliseconds in all.
#pragma once

#include <string>

#include "support/redis_server.hpp"

namespace redisson::test {

class TlsFiles {
 public:
  /// Makes the files; throws std::runtime_error with openssl's output when that fails.
  TlsFiles();
  /// Removes the dir. Never throws.
  ~TlsFiles();
  TlsFiles(const TlsFiles&) = delete;
  TlsFiles& operator=(const TlsFiles&) = delete;

  const std::string& dir() const { return dir_; }
  std::string ca() const { return dir_ + "/ca.pem"; }
  std::string other_ca() const { return dir_ + "/other-ca.pem"; }
  std::string server_cert() const { return dir_ + "/server.pem"; }
  std::string server_key() const { return dir_ + "/server.key"; }
  std::string client_cert() const { return dir_ + "/client.pem"; }
  std::string client_key() const { return dir_ + "/client.key"; }
  /// client.pem and client.key in one file, as Redisson's sslKeystore is given.
  std::string client_bundle() const { return dir_ + "/client-bundle.pem"; }

  /// TLS settings of a RedisServer for these files, with --tls-auth-clients `auth_clients`.
  RedisServerTls server_tls(const std::string& auth_clients = "no") const;
  /// RedisServerOptions with only `tls` set (server_tls(auth_clients)).
  RedisServerOptions server_options(const std::string& auth_clients = "no") const;

 private:
  std::string dir_;
};

}  // namespace redisson::test
