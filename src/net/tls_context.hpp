// TLS for rediss:// connections: the OpenSSL client context built from a TlsConfig, the
// per-connection settings (SNI, the name the certificate must carry) and words for failures.
#pragma once

#include <openssl/ssl.h>

#include <asio/ssl/context.hpp>
#include <string>
#include <system_error>

#include "redisson/config.hpp"

namespace redisson::detail {

/// A client context for `tls`: trusted CAs (ca_file, else the system's default paths), the
/// optional client certificate chain and key, and peer verification unless verify_peer is
/// false. Throws redisson::error(invalid_argument) naming the file that could not be used.
asio::ssl::context make_tls_context(const TlsConfig& tls);

/// Prepares one connection's TLS session for `host`: SNI (for DNS names; IP addresses have none)
/// and, when tls.verify_hostname, the DNS name or IP address the certificate must match.
/// Returns false (with `why`) when OpenSSL refused the settings.
bool prepare_tls_session(SSL* ssl, const TlsConfig& tls, const std::string& host, std::string& why);

/// Words for a failed handshake or TLS read: asio's error text, plus OpenSSL's verification
/// result when the peer's certificate was refused ("certificate verify failed: hostname
/// mismatch").
std::string describe_tls_failure(SSL* ssl, const std::error_code& ec);

}  // namespace redisson::detail
