// Kryo's Input over bytes: the primitive reads (bytes, varints, varlongs, strings) that the value
// decoder (kryo5_reader.cpp) and decoders of Java classes in FieldSerializer form (the remote
// service messages) share. Every read past the end or of malformed bytes is a codec_error
// naming the offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail::kryo5 {

class Input {
 public:
  explicit Input(std::string_view in, std::size_t pos = 0) noexcept : in_(in), pos_(pos) {}

  std::string_view bytes() const noexcept { return in_; }
  std::size_t pos() const noexcept { return pos_; }
  bool at_end() const noexcept { return pos_ >= in_.size(); }
  /// The byte at the position (not consumed); codec_error at the end.
  std::uint8_t peek(std::string_view what) const;

  std::uint8_t byte(std::string_view what);
  std::uint64_t little_endian(int bytes, std::string_view what);
  /// Input.readVarInt: at most 5 bytes; bits past 32 are dropped, as Java does.
  std::uint32_t varint(std::string_view what);
  /// Input.readVarIntFlag: 6 bits in the first byte, bit 6 says more follow.
  std::uint32_t varint_flag(std::string_view what);
  /// Input.readVarLong: 8 bytes of 7 bits, then a 9th of 8 bits.
  std::uint64_t varlong(std::string_view what);
  /// readVarLong(false): a zigzag varlong, as Kryo writes long fields and Long values.
  std::int64_t zigzag_varlong(std::string_view what) {
    const std::uint64_t n = varlong(what);
    return static_cast<std::int64_t>((n >> 1) ^ (0ULL - (n & 1)));
  }
  /// Input.readString into UTF-8; nullopt for null.
  std::optional<std::string> string();
  /// Moves the position to `pos` (at most the end), after bytes read by another reader.
  void seek(std::size_t pos) noexcept { pos_ = pos < in_.size() ? pos : in_.size(); }

  /// A size as Java's int: above 2^31 - 1 it is negative, which Java cannot read either.
  std::size_t size_at_most_int(std::uint32_t v, std::size_t at) const;

  [[noreturn]] void fail(const std::string& what, std::size_t at) const;
  [[noreturn]] void truncated(std::string_view what) const;

 protected:
  std::string_view in_;
  std::size_t pos_ = 0;
};

}  // namespace redisson::detail::kryo5
