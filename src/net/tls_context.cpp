#include "net/tls_context.hpp"

#include <openssl/x509v3.h>

#include <asio/ip/address.hpp>

#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

[[noreturn]] void bad_file(const char* what, const std::string& path, const std::error_code& ec) {
  throw error(errc::invalid_argument,
              std::string("TLS: cannot use the ") + what + " '" + path + "': " + ec.message());
}

}  // namespace

asio::ssl::context make_tls_context(const TlsConfig& tls) {
  asio::ssl::context context(asio::ssl::context::tls_client);
  // TLS 1.2 is the oldest version Redis and current OpenSSL both still accept.
  SSL_CTX_set_min_proto_version(context.native_handle(), TLS1_2_VERSION);
  std::error_code ec;
  if (tls.ca_file.empty()) {
    context.set_default_verify_paths(ec);
    if (ec) bad_file("system CA paths", "default", ec);
  } else {
    context.load_verify_file(tls.ca_file, ec);
    if (ec) bad_file("CA file (ca_file)", tls.ca_file, ec);
  }
  if (!tls.cert_file.empty() || !tls.key_file.empty()) {
    if (tls.cert_file.empty() || tls.key_file.empty()) {
      throw error(errc::invalid_argument,
                  "TLS: a client certificate needs both cert_file and key_file");
    }
    context.use_certificate_chain_file(tls.cert_file, ec);
    if (ec) bad_file("client certificate (cert_file)", tls.cert_file, ec);
    context.use_private_key_file(tls.key_file, asio::ssl::context::pem, ec);
    if (ec) bad_file("client key (key_file)", tls.key_file, ec);
  }
  context.set_verify_mode(tls.verify_peer ? asio::ssl::verify_peer : asio::ssl::verify_none);
  return context;
}

bool prepare_tls_session(SSL* ssl, const TlsConfig& tls, const std::string& host,
                         std::string& why) {
  const std::string& name = tls.server_name.empty() ? host : tls.server_name;
  std::error_code not_ip;
  asio::ip::make_address(name, not_ip);
  const bool is_ip = !not_ip;
  // RFC 6066: SNI carries host names only, never IP literals.
  if (!is_ip && SSL_set_tlsext_host_name(ssl, name.c_str()) != 1) {
    why = "TLS: cannot set the server name '" + name + "'";
    return false;
  }
  if (tls.verify_peer && tls.verify_hostname) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    const int ok = is_ip ? X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str())
                         : X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
    if (ok != 1) {
      why = "TLS: cannot verify against the name '" + name + "'";
      return false;
    }
  }
  return true;
}

std::string describe_tls_failure(SSL* ssl, const std::error_code& ec) {
  std::string text = "TLS: " + ec.message();
  if (ssl != nullptr) {
    const long result = SSL_get_verify_result(ssl);
    if (result != X509_V_OK) {
      text += " (";
      text += X509_verify_cert_error_string(result);
      text += ")";
    }
  }
  return text;
}

}  // namespace redisson::detail
