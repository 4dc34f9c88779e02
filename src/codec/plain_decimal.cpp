#include "codec/plain_decimal.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "codec/json_text.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

std::string java_plain_decimal(double x) {
  if (!std::isfinite(x)) {
    throw error(errc::invalid_argument,
                "a double must be finite (BigDecimal has no NaN or "
                "Infinity), got " +
                    java_double_text(x));
  }
  // BigDecimal.valueOf(x) is new BigDecimal(Double.toString(x)): its unscaled value is the
  // digits of that text, its scale the digits after the point minus the exponent.
  const std::string text = java_double_text(x);
  const auto e_at = text.find('E');
  if (e_at == std::string::npos) return text == "-0.0" ? "0.0" : text;  // no negative zero
  const std::string_view mantissa(text.data(), e_at);
  int exponent = 0;
  std::from_chars(text.data() + e_at + 1, text.data() + text.size(), exponent);
  std::string out;
  std::string digits;
  for (const char c : mantissa) {
    if (c == '-') {
      out += c;
    } else if (c != '.') {
      digits += c;
    }
  }
  const auto point = mantissa.find('.');
  const int fraction =
      point == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - point - 1);
  const int scale = fraction - exponent;
  if (scale <= 0) {
    out += digits;
    out.append(static_cast<std::size_t>(-scale), '0');
  } else if (static_cast<std::size_t>(scale) < digits.size()) {
    const auto integer_digits = digits.size() - static_cast<std::size_t>(scale);
    out.append(digits, 0, integer_digits).append(".").append(digits, integer_digits);
  } else {
    out += "0.";
    out.append(static_cast<std::size_t>(scale) - digits.size(), '0');
    out += digits;
  }
  return out;
}

}  // namespace redisson::detail
