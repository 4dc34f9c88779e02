// Helpers of the codec unit tests: hex text <-> bytes, and checking a codec_error.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>

#include "redisson/error.hpp"

namespace codec_test {

inline std::string unhex(std::string_view hex) {
  std::string out;
  std::string digits;
  for (const char c : hex) {
    if (c != ' ') digits += c;
  }
  for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
    out += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
  }
  return out;
}

inline std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out += kDigits[(static_cast<unsigned char>(c) >> 4) & 0xF];
    out += kDigits[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

/// Runs `fn`, which must throw redisson::error(codec_error) whose message contains `expected`.
inline void expect_codec_error(const std::function<void()>& fn, std::string_view expected) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected codec_error containing '" << expected << "'";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::make_error_code(redisson::errc::codec_error)) << e.what();
    EXPECT_NE(std::string_view(e.what()).find(expected), std::string_view::npos)
        << "message: " << e.what() << "\nexpected to contain: " << expected;
  }
}

}  // namespace codec_test
