#include "redisson/script.hpp"

#include <openssl/evp.h>

#include <string>
#include <string_view>

#include "codec/hex.hpp"

namespace redisson {
namespace {

std::string sha1_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha1(), nullptr);
  return detail::hex_lower(std::string(digest, digest + length));
}

}  // namespace

Script::Script(std::string source) {
  auto sha = sha1_hex(source);
  data_ = std::make_shared<const Data>(Data{std::move(source), std::move(sha)});
}

}  // namespace redisson
