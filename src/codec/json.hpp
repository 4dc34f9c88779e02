// JSON as Java Redisson's JsonJacksonCodec (Jackson 2 with default typing) and
// TypedJsonJacksonCodec (plain JSON) write and read it. OBJECTS.md §1.2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson::detail::json {

enum class Dialect : std::uint8_t {
  /// JsonJacksonCodec: Long as ["java.lang.Long",n], collections as ["<class>",[...]], maps and
  /// objects with "@class".
  typed,
  /// TypedJsonJacksonCodec: plain JSON; the Java type comes from the reader's declared class.
  plain,
};

/// Values nested deeper than this are a codec_error both ways (a stack guard).
inline constexpr int kMaxDepth = 512;

/// Appends `value` as Jackson writes it in `dialect`. Throws codec_error for what Jackson could
/// not write or what could not be read back (strings that are not UTF-8, a null map key, a
/// collection class the codec does not know).
void encode(const Value& value, std::string& out, Dialect dialect);
/// The value the JSON `text` holds, read as Jackson reads it into Object (docs/codecs.md).
Value decode(std::string_view text, Dialect dialect);

}  // namespace redisson::detail::json
