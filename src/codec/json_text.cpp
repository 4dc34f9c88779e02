#include "codec/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <system_error>

#include "redisson/value.hpp"

namespace redisson::detail {
namespace {

// Java's layout of the shortest round-trip digits of a finite, non-zero number: plain decimal
// for 1e-3 <= |x| < 1e7, otherwise d.dddE<exponent>; always a digit after the point.
template <class Float>
std::string java_text(Float x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x == 0) return std::signbit(x) ? "-0.0" : "0.0";

  // Scientific form from to_chars gives the digits and the exponent: "d.ddde+XX".
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::scientific);
  if (std::memchr(buffer, '.', static_cast<std::size_t>(result.ptr - buffer)) == nullptr) {
    // One digit: Java prints two, the two-digit decimal closest to x (Double.MIN_VALUE is
    // 4.9E-324, not 5.0E-324).
    result = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::scientific, 1);
  }
  std::string_view sci(buffer, static_cast<std::size_t>(result.ptr - buffer));
  std::string out;
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  const auto e_at = sci.find('e');
  std::string digits;
  for (const char c : sci.substr(0, e_at)) {
    if (c != '.') digits += c;
  }
  // The two-digit form above may end in 0 ("1.0e+00").
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int exponent = 0;
  std::from_chars(sci.data() + e_at + 1 + (sci[e_at + 1] == '+' ? 1 : 0), sci.data() + sci.size(),
                  exponent);

  const Float magnitude = std::fabs(x);
  if (magnitude >= Float(1e-3) && magnitude < Float(1e7)) {
    if (exponent >= 0) {
      const auto int_len = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= int_len) {
        out += digits;
        out.append(int_len - digits.size(), '0');
        out += ".0";
      } else {
        out += digits.substr(0, int_len);
        out += '.';
        out += digits.substr(int_len);
      }
    } else {
      out += "0.";
      out.append(static_cast<std::size_t>(-exponent - 1), '0');
      out += digits;
    }
    return out;
  }
  out += digits[0];
  out += '.';
  out += digits.size() > 1 ? digits.substr(1) : "0";
  out += 'E';
  out += std::to_string(exponent);
  return out;
}

void append_unicode_escape(std::uint32_t unit, std::string& out) {
  constexpr std::string_view kHex = "0123456789ABCDEF";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

}  // namespace

std::string java_double_text(double x) { return java_text(x); }
std::string java_float_text(float x) { return java_text(x); }

void append_json_string(std::string_view utf8, std::string& out) {
  out += '"';
  std::size_t run = 0;  // start of the characters not yet appended
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0xF0) continue;
    out.append(utf8.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      append_unicode_escape(c, out);
    } else if (i + 3 < utf8.size()) {
      // A four-byte sequence: a character outside the BMP, which Jackson writes as the \u
      // escapes of its UTF-16 surrogate pair.
      const std::uint32_t code = ((c & 0x07U) << 18) |
                                 ((static_cast<unsigned char>(utf8[i + 1]) & 0x3FU) << 12) |
                                 ((static_cast<unsigned char>(utf8[i + 2]) & 0x3FU) << 6) |
                                 (static_cast<unsigned char>(utf8[i + 3]) & 0x3FU);
      const std::uint32_t v = code - 0x10000;
      append_unicode_escape(0xD800 + (v >> 10), out);
      append_unicode_escape(0xDC00 + (v & 0x3FF), out);
      i += 3;
      run = i + 1;
    } else {
      out += static_cast<char>(c);  // not UTF-8: the codecs check before, display shows it as is
    }
  }
  out.append(utf8.data() + run, utf8.size() - run);
  out += '"';
}

void append_json_number(double x, std::string& out) {
  if (!std::isfinite(x)) {
    out += '"';
    out += java_double_text(x);
    out += '"';
    return;
  }
  out += java_double_text(x);
}

bool append_java_boolean_or_integer(const Value& value, std::string& out) {
  switch (value.kind()) {
    case ValueKind::boolean:
      out += value.bool_value() ? "true" : "false";
      return true;
    case ValueKind::byte:
    case ValueKind::short_int:
    case ValueKind::integer:
    case ValueKind::long_int: {
      char buffer[24];
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, value.int_value()).ptr;
      out.append(buffer, end);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace redisson::detail
