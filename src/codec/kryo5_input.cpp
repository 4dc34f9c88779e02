#include "codec/kryo5_input.hpp"

#include <algorithm>

#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::kryo5 {

void Input::fail(const std::string& what, std::size_t at) const {
  throw error(errc::codec_error, "kryo5: " + what + " at offset " + std::to_string(at));
}

void Input::truncated(std::string_view what) const {
  fail("truncated " + std::string(what), in_.size());
}

std::uint8_t Input::peek(std::string_view what) const {
  if (pos_ >= in_.size()) truncated(what);
  return static_cast<std::uint8_t>(in_[pos_]);
}

std::uint8_t Input::byte(std::string_view what) {
  if (pos_ >= in_.size()) truncated(what);
  return static_cast<std::uint8_t>(in_[pos_++]);
}

std::uint64_t Input::little_endian(int bytes, std::string_view what) {
  if (in_.size() - pos_ < static_cast<std::size_t>(bytes)) truncated(what);
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) {
    v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in_[pos_ + i])) << (8 * i);
  }
  pos_ += static_cast<std::size_t>(bytes);
  return v;
}

std::uint32_t Input::varint(std::string_view what) {
  std::uint32_t result = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    const std::uint8_t b = byte(what);
    result |= static_cast<std::uint32_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) break;
  }
  return result;
}

std::uint32_t Input::varint_flag(std::string_view what) {
  const std::uint8_t b = byte(what);
  const std::uint32_t low = b & 0x3F;
  if ((b & 0x40) == 0) return low;
  std::uint32_t result = low;
  int shift = 6;
  for (int i = 0; i < 4; ++i) {
    const std::uint8_t next = byte(what);
    result |= static_cast<std::uint32_t>(next & 0x7F) << shift;
    if ((next & 0x80) == 0) break;
    shift += 7;
  }
  return result;
}

std::uint64_t Input::varlong(std::string_view what) {
  std::uint64_t result = 0;
  for (int i = 0; i < 8; ++i) {
    const std::uint8_t b = byte(what);
    result |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
    if ((b & 0x80) == 0) return result;
  }
  return result | static_cast<std::uint64_t>(byte(what)) << 56;
}

std::size_t Input::size_at_most_int(std::uint32_t v, std::size_t at) const {
  if (v > 0x7FFFFFFF) fail("negative size " + std::to_string(static_cast<std::int32_t>(v)), at);
  return v;
}

std::optional<std::string> Input::string() {
  const std::size_t start = pos_;
  if (pos_ >= in_.size()) truncated("String");
  std::string out;
  if ((static_cast<std::uint8_t>(in_[pos_]) & 0x80) == 0) {
    // ASCII, the last byte flagged with 0x80.
    std::size_t end = pos_;
    while (end < in_.size() && (static_cast<std::uint8_t>(in_[end]) & 0x80) == 0) ++end;
    if (end == in_.size()) truncated("String");
    out.assign(in_.data() + pos_, end - pos_ + 1);
    out.back() = static_cast<char>(out.back() & 0x7F);
    pos_ = end + 1;
    return out;
  }
  const std::size_t length = size_at_most_int(varint_flag("String length"), start);
  if (length == 0) return std::nullopt;
  const std::size_t units = length - 1;
  out.reserve(std::min(units, in_.size() - pos_));
  utf::Utf16ToUtf8 utf8(out);
  for (std::size_t i = 0; i < units; ++i) {
    const std::size_t at = pos_;
    const std::uint8_t b = byte("String");
    char16_t unit = 0;
    switch (b >> 4) {
      case 12:
      case 13:
        unit = static_cast<char16_t>((b & 0x1F) << 6 | (byte("String") & 0x3F));
        break;
      case 14: {
        const std::uint8_t b2 = byte("String");
        unit = static_cast<char16_t>((b & 0x0F) << 12 | (b2 & 0x3F) << 6 | (byte("String") & 0x3F));
        break;
      }
      default:
        if (b >= 0x80) fail("byte " + std::to_string(b) + " cannot start a String character", at);
        unit = b;
    }
    if (!utf8.add(unit)) fail("a String with an unpaired UTF-16 surrogate", at);
  }
  if (!utf8.finish()) fail("a String ending in an unpaired UTF-16 surrogate", pos_);
  return out;
}

}  // namespace redisson::detail::kryo5
