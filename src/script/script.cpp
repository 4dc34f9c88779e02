#include "redisson/script.hpp"

#include <openssl/evp.h>

namespace redisson {
namespace {

std::string sha1_hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha1(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xF]);
  }
  return hex;
}

}  // namespace

Script::Script(std::string source) {
  auto sha = sha1_hex(source);
  data_ = std::make_shared<const Data>(Data{std::move(source), std::move(sha)});
}

}  // namespace redisson
