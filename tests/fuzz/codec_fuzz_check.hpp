// Shared by the codec fuzz targets: decoding arbitrary bytes gives a value or a codec_error,
// and a decoded value written and read again is a fixed point (the second write gives the same
// bytes as the first).
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include "redisson/error.hpp"
#include "redisson/value.hpp"

namespace codec_fuzz {

inline void check(bool condition) {
  if (!condition) std::abort();
}

/// Runs `decode` on `input`; a codec_error is fine, any other exception aborts. Then
/// encode(decode(x)) must not throw and must be stable: encode(decode(encode(decode(x)))) is
/// the same bytes. Returns the first and second decoded values for further checks (or false
/// when `input` did not decode).
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
  check(once == twice);
  return true;
}

}  // namespace codec_fuzz
