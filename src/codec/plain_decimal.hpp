// A double as Java's BigDecimal.valueOf(x).toPlainString() writes it: the text Java Redisson
// sends for a double it stores as a number (RAtomicDouble, INCRBYFLOAT deltas, sorted-set
// scores).
#pragma once

#include <string>

namespace redisson::detail {

/// BigDecimal.valueOf(x).toPlainString(): Double.toString's digits without an exponent: 2.5 ->
/// "2.5", 1.0 -> "1.0", 1e10 -> "10000000000", 1e-5 -> "0.000010", -0.0 -> "0.0". NaN and the
/// infinities have no BigDecimal: errc::invalid_argument.
std::string java_plain_decimal(double x);

}  // namespace redisson::detail
