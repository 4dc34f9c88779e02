// Kryo 5 bytes as Redisson's Kryo5Codec writes them (Kryo 5.6, references off, unregistered classes
// by name): the class ids, varints and the encoder and decoder of a Value. OBJECTS.md §1.3.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/value.hpp"

namespace redisson::detail::kryo5 {

// Class headers on the wire: registration id + 2; 0 is null, 1 a class by name.
inline constexpr std::uint8_t kNull = 0;
inline constexpr std::uint8_t kNamed = 1;
inline constexpr std::uint8_t kInt = 2;
inline constexpr std::uint8_t kString = 3;
inline constexpr std::uint8_t kFloat = 4;
inline constexpr std::uint8_t kBoolean = 5;
inline constexpr std::uint8_t kByte = 6;
inline constexpr std::uint8_t kChar = 7;
inline constexpr std::uint8_t kShort = 8;
inline constexpr std::uint8_t kLong = 9;
inline constexpr std::uint8_t kDouble = 10;

/// Java's name of byte[].
inline constexpr std::string_view kByteArrayClass = "[B";

/// Values nested deeper than this are a codec_error both ways (a stack guard).
inline constexpr int kMaxDepth = 512;

/// Appends `value` as Kryo5Codec writes it (writeClassAndObject). Throws codec_error for what
/// Kryo5Codec cannot hold here: objects, unknown collection classes, strings that are not UTF-8.
void encode(const Value& value, std::string& out);
/// Zero-byte elements (an all-null collection, Collections.emptyList() elements) would let a few
/// bytes claim billions of values: a value holding more than max(this, its size in bytes)
/// values is taken as damaged.
inline constexpr std::size_t kMinValueBudget = std::size_t{1} << 16;

/// The value `bytes` hold (readClassAndObject); codec_error naming the offset for damaged bytes
/// and naming the class for classes this decoder does not know.
Value decode(std::string_view bytes, std::size_t min_value_budget = kMinValueBudget);

// Values inside a larger message (a Java class in FieldSerializer form holding Object fields, such
// as the remote service's messages): Kryo numbers class names per message, 0, 1, 2, ... in the
// order it first writes them, so a value cut out of a message, or spliced into one, has its
// class-by-name headers renumbered.

/// The class names a message has written so far; the index is the name id.
using ClassNames = std::vector<std::string>;

/// A class-by-name header in a value's bytes: [begin, end) holds 01, the name id and, the first
/// time, the name.
struct NamedClass {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string name;
};

/// One value read from inside a message.
struct ValuePrefix {
  Value value;
  std::size_t size = 0;             ///< its bytes
  std::vector<NamedClass> classes;  ///< its class-by-name headers, offsets from its start
};

/// Reads one value (readClassAndObject) at `offset` of `bytes`, in a message that has named
/// `names` before it; adds the names the value introduces. codec_error as decode().
ValuePrefix read_value_at(std::string_view bytes, std::size_t offset, ClassNames& names,
                          std::size_t min_value_budget = kMinValueBudget);

/// Appends a class-by-name header for `name` in a message that has named `names` so far (its
/// id, and the name the first time); adds the name.
void put_class_header(ClassNames& names, std::string_view name, std::string& out);

/// Appends `value_bytes`, one value whose class-by-name headers are `classes`, with each header
/// renumbered for a message that has named `names` so far.
void append_renamed(std::string_view value_bytes, const std::vector<NamedClass>& classes,
                    ClassNames& names, std::string& out);

/// Output.writeString: ASCII of 2 to 32 characters with the last byte flagged, else the UTF-16
/// length + 1 and the characters; codec_error when `utf8` is not UTF-8.
void put_string(std::string_view utf8, std::string& out);

// Varints (Kryo's Output): unsigned LEB128; with a flag, the first byte carries the flag in
// bit 7, "more bytes" in bit 6 and 6 value bits. Each is built on the stack and appended once.
inline void put_varint(std::string& out, std::uint32_t v) {
  char bytes[5];
  int n = 0;
  for (; v >= 0x80; v >>= 7) bytes[n++] = static_cast<char>((v & 0x7F) | 0x80);
  bytes[n++] = static_cast<char>(v);
  out.append(bytes, static_cast<std::size_t>(n));
}

inline void put_varint_flag(std::string& out, bool flag, std::uint32_t v) {
  const std::uint32_t first = (v & 0x3F) | (flag ? 0x80U : 0U);
  if ((v >> 6) == 0) {
    out += static_cast<char>(first);
    return;
  }
  out += static_cast<char>(first | 0x40);
  put_varint(out, v >> 6);
}

/// A zigzag varlong: up to 8 bytes of 7 bits, then a 9th byte of 8 bits.
inline void put_varlong(std::string& out, std::uint64_t v) {
  char bytes[9];
  int n = 0;
  for (; n < 8 && v >= 0x80; v >>= 7) bytes[n++] = static_cast<char>((v & 0x7F) | 0x80);
  bytes[n++] = static_cast<char>(v);
  out.append(bytes, static_cast<std::size_t>(n));
}

inline void put_little_endian(std::string& out, std::uint64_t v, int size) {
  char bytes[8];
  for (int i = 0; i < size; ++i, v >>= 8) bytes[i] = static_cast<char>(v & 0xFF);
  out.append(bytes, static_cast<std::size_t>(size));
}

inline std::uint32_t zigzag(std::int32_t n) {
  return (static_cast<std::uint32_t>(n) << 1) ^ static_cast<std::uint32_t>(n >> 31);
}
inline std::uint64_t zigzag(std::int64_t n) {
  return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}

}  // namespace redisson::detail::kryo5
