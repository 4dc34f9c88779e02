// Bytes as lowercase hexadecimal text (Netty's ByteBufUtil.hexDump, which Redisson uses in key
// names: a live object's id, a local cache's clear semaphore).
#pragma once

#include <string>
#include <string_view>

namespace redisson::detail {

inline std::string hex_lower(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 0xF]);
  }
  return out;
}

}  // namespace redisson::detail
