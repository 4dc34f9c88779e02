// Shared by the codec fuzz targets: decoding arbitrary bytes gives a value or a codec_error,
// and a decoded value written and read again is a fixed point (the second write gives the same
// bytes as the first) wherever Java's own would be.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>

#include "codec/java_hash_order.hpp"
#include "redisson/error.hpp"
#include "redisson/value.hpp"

namespace codec_fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

/// True when every HashMap and HashSet in `v` is already in the order Java would iterate it
/// after inserting its keys in that order. Not always so for a value written in Java's order:
/// a HashMap's final size depends on the order of its inserts (a 9th key in one bucket resizes
/// a table of fewer than 64 buckets, and the 13th key a table of 16), so a set written in
/// Java's order and read back can iterate differently again, in Java as here.
inline bool hash_order_settled(const redisson::Value& v) {
  using redisson::ValueKind;
  const bool is_map = v.kind() == ValueKind::map || v.kind() == ValueKind::object;
  if (!is_map && v.kind() != ValueKind::list && v.kind() != ValueKind::set) return true;
  const redisson::detail::JavaIterationOrder order(v);
  const std::size_t n = is_map ? v.entries().size() : v.elements().size();
  for (std::size_t i = 0; i < n; ++i) {
    if (order[i] != i) return false;
  }
  if (is_map) {
    for (const auto& [key, entry] : v.entries()) {
      if (!hash_order_settled(key) || !hash_order_settled(entry)) return false;
    }
    return true;
  }
  for (const auto& element : v.elements()) {
    if (!hash_order_settled(element)) return false;
  }
  return true;
}

/// Runs `decode` on `input`; a codec_error is fine, any other exception aborts. Then
/// encode(decode(x)) must not throw and must be stable: encode(decode(encode(decode(x)))) is
/// the same bytes unless a HashMap's or HashSet's order is not settled (see above). Returns the
/// first and second decoded values for further checks (or false when `input` did not decode).
template <class Decode, class Encode>
bool round_trip(std::string_view input, Decode decode, Encode encode, redisson::Value& first,
                redisson::Value& second) {
  try {
    first = decode(input);
  } catch (const redisson::error& e) {
    check(e.code() == redisson::make_error_code(redisson::errc::codec_error));
    return false;
  }
  std::string once;
  encode(first, once);  // what a decoder accepted, the encoder writes
  second = decode(once);
  std::string twice;
  encode(second, twice);
  check(once == twice || !hash_order_settled(second));
  return true;
}

}  // namespace codec_fuzz
