#include "codec/json_lexer.hpp"

#include <charconv>
#include <cstdint>
#include <string>

#include "codec/json.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::json {
namespace {

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Whether an out-of-range decimal is too large (rather than too small): the power of ten of
// its first non-zero digit is positive. Offsets are within `token`; exponent_at npos = none.
bool overflows(std::string_view token, std::size_t int_start, std::size_t int_digits,
               std::size_t exponent_at) {
  long long magnitude = 0;
  std::size_t i = int_start;
  while (i < int_start + int_digits && token[i] == '0') ++i;
  if (i < int_start + int_digits) {
    magnitude = static_cast<long long>(int_start + int_digits - i) - 1;
  } else {
    std::size_t j = int_start + int_digits + 1;  // after '.'
    long long zeros = 0;
    while (j < token.size() && token[j] == '0') {
      ++zeros;
      ++j;
    }
    magnitude = -zeros - 1;
  }
  if (exponent_at != std::string_view::npos) {
    long long exponent = 0;
    std::size_t k = exponent_at;
    const bool negative = token[k] == '-';
    if (token[k] == '+' || token[k] == '-') ++k;
    for (; k < token.size() && exponent < 100'000'000; ++k)
      exponent = exponent * 10 + (token[k] - '0');
    magnitude += negative ? -exponent : exponent;
  }
  return magnitude > 0;
}

}  // namespace

void JsonLexer::fail_at(const std::string& what, std::size_t at) const {
  throw error(errc::codec_error, "json: " + what + " at offset " + std::to_string(at));
}

char JsonLexer::peek_next() const noexcept {
  std::size_t at = pos_ + 1;
  while (at < in_.size() && is_space(in_[at])) ++at;
  return at < in_.size() ? in_[at] : '\0';
}

void JsonLexer::skip_space() noexcept {
  while (pos_ < in_.size() && is_space(in_[pos_])) ++pos_;
}

void JsonLexer::expect(char c, const char* what) {
  skip_space();
  if (peek() != c) fail(std::string("expected ") + what);
  ++pos_;
}

void JsonLexer::check_depth(int depth) const {
  if (depth >= kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth));
}

void JsonLexer::literal(std::string_view word) {
  if (in_.substr(pos_, word.size()) != word) fail("not a JSON value");
  pos_ += word.size();
}

Value JsonLexer::scalar() {
  skip_space();
  switch (peek()) {
    case '"':
      return Value::string(string());
    case 't':
      literal("true");
      return Value::boolean(true);
    case 'f':
      literal("false");
      return Value::boolean(false);
    case 'n':
      literal("null");
      return {};
    default:
      return number();
  }
}

std::string JsonLexer::string() {
  ++pos_;
  std::string out;
  utf::Utf16ToUtf8 escaped(out);
  for (;;) {
    // A run of plain characters, checked as UTF-8 and copied at once.
    const std::size_t run = pos_;
    while (pos_ < in_.size()) {
      const auto c = static_cast<unsigned char>(in_[pos_]);
      if (c == '"' || c == '\\' || c < 0x20) break;
      if (c < 0x80) {
        ++pos_;
      } else if (utf::next_code_point(in_, pos_) == utf::kInvalid) {
        fail("a string that is not UTF-8");
      }
    }
    if (pos_ > run) {
      if (!escaped.finish()) fail("an unpaired UTF-16 surrogate escape");
      out.append(in_.data() + run, pos_ - run);
    }
    if (at_end()) fail("an unterminated string");
    const char c = in_[pos_];
    if (c == '"') {
      if (!escaped.finish()) fail("an unpaired UTF-16 surrogate escape");
      ++pos_;
      return out;
    }
    if (c != '\\') fail("a control character in a string (it must be escaped)");
    ++pos_;
    const char e = peek();
    ++pos_;
    char16_t unit = 0;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        unit = static_cast<char16_t>(e);
        break;
      case 'b':
        unit = '\b';
        break;
      case 'f':
        unit = '\f';
        break;
      case 'n':
        unit = '\n';
        break;
      case 'r':
        unit = '\r';
        break;
      case 't':
        unit = '\t';
        break;
      case 'u':
        unit = hex4();
        break;
      default:
        fail_at("an unknown escape in a string", pos_ - 1);
    }
    if (!escaped.add(unit)) fail("an unpaired UTF-16 surrogate escape");
  }
}

char16_t JsonLexer::hex4() {
  if (in_.size() - pos_ < 4) fail("a truncated \\u escape");
  unsigned value = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = in_[pos_++];
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      fail_at("a bad \\u escape", pos_ - 1);
    }
    value = value * 16 + digit;
  }
  return static_cast<char16_t>(value);
}

// A JSON number: Integer, Long when it needs 64 bits, Double when it has a fraction or an
// exponent. Jackson reads a wider integer as a BigInteger, which has no Value.
Value JsonLexer::number() {
  const std::size_t start = pos_;
  if (peek() == '-') ++pos_;
  const std::size_t int_start = pos_;
  if (peek() == '0') {
    ++pos_;
  } else if (peek() >= '1' && peek() <= '9') {
    while (peek() >= '0' && peek() <= '9') ++pos_;
  } else {
    fail_at("not a JSON value", start);
  }
  const std::size_t int_digits = pos_ - int_start;
  bool floating = false;
  if (peek() == '.') {
    ++pos_;
    if (!(peek() >= '0' && peek() <= '9')) fail("a number without digits after '.'");
    while (peek() >= '0' && peek() <= '9') ++pos_;
    floating = true;
  }
  std::size_t exponent_at = 0;
  if (peek() == 'e' || peek() == 'E') {
    ++pos_;
    exponent_at = pos_;
    if (peek() == '+' || peek() == '-') ++pos_;
    if (!(peek() >= '0' && peek() <= '9')) fail("a number without exponent digits");
    while (peek() >= '0' && peek() <= '9') ++pos_;
    floating = true;
  }
  const std::string_view token = in_.substr(start, pos_ - start);
  if (!floating) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
    if (ec != std::errc{} || end != token.data() + token.size()) {
      fail_at("an integer out of the range of Long (Jackson reads it as a BigInteger)", start);
    }
    if (n >= INT32_MIN && n <= INT32_MAX) return Value::integer(static_cast<std::int32_t>(n));
    return Value::long_int(n);
  }
  double x = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), x);
  if (ec == std::errc::result_out_of_range) {
    if (overflows(token, int_start - start, int_digits,
                  exponent_at == 0 ? std::string_view::npos : exponent_at - start)) {
      fail_at("a number out of the range of Double", start);
    }
    x = token.front() == '-' ? -0.0 : 0.0;  // underflow: Java reads 0.0
  } else if (ec != std::errc{} || end != token.data() + token.size()) {
    fail_at("a malformed number", start);
  }
  return Value::double_num(x);
}

void JsonLexer::skip_value(int depth) {
  skip_space();
  const char c = peek();
  if (c == '[' || c == '{') check_depth(depth);
  if (c == '[') {
    ++pos_;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_value(depth + 1);
      skip_space();
      if (peek() == ']') break;
      if (peek() != ',') fail("expected ',' or ']' in an array");
      ++pos_;
    }
    ++pos_;
  } else if (c == '{') {
    ++pos_;
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      if (peek() != '"') fail("expected a member name in an object");
      string();
      expect(':', "':' after a member name");
      skip_value(depth + 1);
      skip_space();
      if (peek() == '}') break;
      if (peek() != ',') fail("expected ',' or '}' in an object");
      ++pos_;
    }
    ++pos_;
  } else {
    scalar();
  }
}

}  // namespace redisson::detail::json
