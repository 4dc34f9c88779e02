#include "codec/utf.hpp"

namespace redisson::detail::utf {
namespace {

bool is_continuation(unsigned char c) noexcept { return (c & 0xC0) == 0x80; }

bool is_surrogate(char32_t c) noexcept { return c >= 0xD800 && c <= 0xDFFF; }

// The UTF-16 units of a code point: one, or a surrogate pair.
template <class Visit>
void for_each_unit(char32_t code_point, Visit&& visit) {
  if (code_point < 0x10000) {
    visit(static_cast<char16_t>(code_point));
    return;
  }
  const char32_t v = code_point - 0x10000;
  visit(static_cast<char16_t>(0xD800 + (v >> 10)));
  visit(static_cast<char16_t>(0xDC00 + (v & 0x3FF)));
}

}  // namespace

char32_t next_code_point(std::string_view text, std::size_t& at) noexcept {
  const std::size_t n = text.size();
  const auto c0 = static_cast<unsigned char>(text[at]);
  if (c0 < 0x80) {
    ++at;
    return c0;
  }
  std::size_t length = 0;
  char32_t code = 0;
  char32_t minimum = 0;
  if (c0 >= 0xC2 && c0 <= 0xDF) {
    length = 2;
    code = c0 & 0x1F;
    minimum = 0x80;
  } else if (c0 >= 0xE0 && c0 <= 0xEF) {
    length = 3;
    code = c0 & 0x0F;
    minimum = 0x800;
  } else if (c0 >= 0xF0 && c0 <= 0xF4) {
    length = 4;
    code = c0 & 0x07;
    minimum = 0x10000;
  } else {
    return kInvalid;
  }
  if (n - at < length) return kInvalid;
  for (std::size_t k = 1; k < length; ++k) {
    const auto c = static_cast<unsigned char>(text[at + k]);
    if (!is_continuation(c)) return kInvalid;
    code = (code << 6) | (c & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || is_surrogate(code)) return kInvalid;
  at += length;
  return code;
}

std::size_t invalid_at(std::string_view text) noexcept {
  std::size_t at = 0;
  while (at < text.size()) {
    if (static_cast<unsigned char>(text[at]) < 0x80) {
      ++at;
      continue;
    }
    if (next_code_point(text, at) == kInvalid) return at;
  }
  return std::string_view::npos;
}

void append_utf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::optional<std::int32_t> java_string_hash(std::string_view text) noexcept {
  // Unsigned arithmetic: Java's int overflow wraps.
  std::uint32_t h = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    const char32_t c = next_code_point(text, at);
    if (c == kInvalid) return std::nullopt;
    for_each_unit(c, [&h](char16_t unit) { h = 31 * h + unit; });
  }
  return static_cast<std::int32_t>(h);
}

int compare_utf16(std::string_view a, std::string_view b) noexcept {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const char32_t ca = next_code_point(a, i);
    const char32_t cb = next_code_point(b, j);
    if (ca == kInvalid || cb == kInvalid) return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
    if (ca == cb) continue;
    // Code point order is UTF-16 order except between a BMP character and a supplementary one,
    // where Java compares the BMP unit with the high surrogate.
    const char32_t ua = ca < 0x10000 ? ca : 0xD800 + ((ca - 0x10000) >> 10);
    const char32_t ub = cb < 0x10000 ? cb : 0xD800 + ((cb - 0x10000) >> 10);
    if (ua != ub) return ua < ub ? -1 : 1;
    return ca < cb ? -1 : 1;
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

bool Utf16ToUtf8::add(char16_t unit) {
  if (pending_high_ != 0) {
    if (unit < 0xDC00 || unit > 0xDFFF) return false;
    const char32_t code =
        0x10000 + ((static_cast<char32_t>(pending_high_) - 0xD800) << 10) + (unit - 0xDC00);
    pending_high_ = 0;
    append_utf8(code, out_);
    return true;
  }
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    pending_high_ = unit;
    return true;
  }
  if (unit >= 0xDC00 && unit <= 0xDFFF) return false;
  append_utf8(unit, out_);
  return true;
}

}  // namespace redisson::detail::utf
