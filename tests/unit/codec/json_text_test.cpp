// json_text: Java's Double.toString/Float.toString and Jackson's string escaping.
#include "codec/json_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace unit_codec_json_text_test {

namespace {

using redisson::detail::append_json_string;
using redisson::detail::java_double_text;
using redisson::detail::java_float_text;

TEST(JavaDoubleText, MatchesJavasDoubleToString) {
  EXPECT_EQ(java_double_text(1.0), "1.0");
  EXPECT_EQ(java_double_text(1.5), "1.5");
  EXPECT_EQ(java_double_text(1.0E10), "1.0E10");
  EXPECT_EQ(java_double_text(1.0E-4), "1.0E-4");
  EXPECT_EQ(java_double_text(100.0), "100.0");
  EXPECT_EQ(java_double_text(1234567.0), "1234567.0");
  EXPECT_EQ(java_double_text(1.2345678E7), "1.2345678E7");
  EXPECT_EQ(java_double_text(0.001), "0.001");
  EXPECT_EQ(java_double_text(-0.0), "-0.0");
  EXPECT_EQ(java_double_text(0.0), "0.0");
  EXPECT_EQ(java_double_text(std::nan("")), "NaN");
  EXPECT_EQ(java_double_text(HUGE_VAL), "Infinity");
  EXPECT_EQ(java_double_text(-HUGE_VAL), "-Infinity");
  EXPECT_EQ(java_double_text(0.03), "0.03");
  EXPECT_EQ(java_double_text(9999999.0), "9999999.0");
  EXPECT_EQ(java_double_text(1.0E7), "1.0E7");
  EXPECT_EQ(java_double_text(9.99E-4), "9.99E-4");
  EXPECT_EQ(java_double_text(-2.5E-5), "-2.5E-5");
  EXPECT_EQ(java_double_text(std::numeric_limits<double>::max()), "1.7976931348623157E308");
  // Java prints at least two digits: the closest two-digit decimal, not d.0.
  EXPECT_EQ(java_double_text(std::numeric_limits<double>::denorm_min()), "4.9E-324");
  EXPECT_EQ(java_double_text(2.0E-3), "0.002");
}

TEST(JavaFloatText, MatchesJavasFloatToString) {
  EXPECT_EQ(java_float_text(1.5F), "1.5");
  EXPECT_EQ(java_float_text(0.1F), "0.1");
  EXPECT_EQ(java_float_text(1.0E10F), "1.0E10");
  EXPECT_EQ(java_float_text(3.4028235E38F), "3.4028235E38");
  EXPECT_EQ(java_float_text(std::numeric_limits<float>::denorm_min()), "1.4E-45");
}

TEST(JsonString, EscapesAsJacksonDoes) {
  std::string out;
  append_json_string("a\"\\\n\x7f\xC3\xA9\xF0\x9F\x98\x80/", out);
  EXPECT_EQ(out, "\"a\\\"\\\\\\n\x7f\xC3\xA9\\uD83D\\uDE00/\"");
}

}  // namespace

}  // namespace unit_codec_json_text_test
