// java_plain_decimal against what Java's BigDecimal.valueOf(x).toPlainString() prints.
#include "codec/plain_decimal.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "redisson/error.hpp"

namespace unit_codec_plain_decimal_test {

namespace {

using redisson::detail::java_plain_decimal;

TEST(PlainDecimal, PlainRangeIsDoubleToString) {
  EXPECT_EQ(java_plain_decimal(2.5), "2.5");  // fixture atomicdouble
  EXPECT_EQ(java_plain_decimal(1.0), "1.0");
  EXPECT_EQ(java_plain_decimal(0.0), "0.0");
  EXPECT_EQ(java_plain_decimal(-0.0), "0.0");
  EXPECT_EQ(java_plain_decimal(-3.25), "-3.25");
  EXPECT_EQ(java_plain_decimal(0.1), "0.1");
  EXPECT_EQ(java_plain_decimal(0.001), "0.001");
  EXPECT_EQ(java_plain_decimal(1234567.0), "1234567.0");
}

TEST(PlainDecimal, LargeValuesLoseTheExponent) {
  EXPECT_EQ(java_plain_decimal(1e10), "10000000000");  // 1.0E10: unscaled 10, scale -9
  EXPECT_EQ(java_plain_decimal(1e7), "10000000");
  EXPECT_EQ(java_plain_decimal(12345678.0), "12345678");  // 1.2345678E7: scale 0
  EXPECT_EQ(java_plain_decimal(123456789.5), "123456789.5");
  EXPECT_EQ(java_plain_decimal(-1.5e20), "-150000000000000000000");
}

TEST(PlainDecimal, SmallValuesKeepTheTrailingZeroOfTheMantissa) {
  EXPECT_EQ(java_plain_decimal(1e-5), "0.000010");  // 1.0E-5: unscaled 10, scale 6
  EXPECT_EQ(java_plain_decimal(1.25e-4), "0.000125");
  EXPECT_EQ(java_plain_decimal(-9.99e-4), "-0.000999");
}

TEST(PlainDecimal, NotANumberIsAnInvalidArgument) {
  for (const double x : {std::nan(""), std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
    try {
      java_plain_decimal(x);
      ADD_FAILURE() << "no error for " << x;
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), redisson::errc::invalid_argument);
    }
  }
}

}  // namespace

}  // namespace unit_codec_plain_decimal_test
