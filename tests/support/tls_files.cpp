#include "support/tls_files.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

namespace redisson::test {

TlsFiles::TlsFiles() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/redisson-tls-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  }
  dir_ = pattern;
  const std::string log = dir_ + "/openssl.log";
  // The dir is ours and made by mkdtemp (no quoting surprises); the script takes no other input.
  const std::string command = std::string(REDISSON_SOURCE_DIR) + "/scripts/tls-make-certs.sh '" +
                              dir_ + "' >'" + log + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    std::ifstream in(log);
    const std::string output((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw std::runtime_error("scripts/tls-make-certs.sh failed:\n" + output);
  }
}

TlsFiles::~TlsFiles() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

RedisServerTls TlsFiles::server_tls(const std::string& auth_clients) const {
  return RedisServerTls{server_cert(), server_key(), ca(), auth_clients};
}

RedisServerOptions TlsFiles::server_options(const std::string& auth_clients) const {
  RedisServerOptions options;
  options.tls = server_tls(auth_clients);
  return options;
}

}  // namespace redisson::test
