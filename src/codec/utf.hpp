// UTF-8 and UTF-16 for the codecs: Java strings are UTF-16 code units, a Value holds UTF-8. Kryo
// writes the units as CESU-8 (a supplementary character is two 3-byte surrogates), Jackson
// escapes them as \uD83D\uDE00, and Java's String.hashCode() and compareTo() work on the units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail::utf {

/// Returned by next_code_point() for bytes that are not UTF-8.
inline constexpr char32_t kInvalid = 0xFFFFFFFF;

/// The code point at `at` in `text` (advancing `at` past it), or kInvalid (leaving `at`) when the
/// bytes there are not UTF-8: truncated, overlong, a surrogate, or above U+10FFFF.
char32_t next_code_point(std::string_view text, std::size_t& at) noexcept;

/// The offset of the first byte of `text` that is not UTF-8, or npos when all of it is.
std::size_t invalid_at(std::string_view text) noexcept;

/// Appends `code_point` (at most U+10FFFF, not a surrogate) as UTF-8.
void append_utf8(char32_t code_point, std::string& out);

/// Java's String.hashCode() of the UTF-16 form of `text`; nullopt when it is not UTF-8.
std::optional<std::int32_t> java_string_hash(std::string_view text) noexcept;

/// Java's String.compareTo() of the UTF-16 forms of two UTF-8 strings: below, at or above 0.
/// (Byte order differs from it only between U+E000..U+FFFF and supplementary characters.)
int compare_utf16(std::string_view a, std::string_view b) noexcept;

/// Turns UTF-16 code units into UTF-8, pairing surrogates. Feed units with add(); finish() says
/// whether the last unit was an unpaired high surrogate.
class Utf16ToUtf8 {
 public:
  explicit Utf16ToUtf8(std::string& out) : out_(out) {}
  /// False for an unpaired surrogate (a low one alone, or a high one not followed by a low one).
  bool add(char16_t unit);
  /// False when a high surrogate is still waiting for its low half.
  bool finish() const noexcept { return pending_high_ == 0; }

 private:
  std::string& out_;
  char16_t pending_high_ = 0;
};

}  // namespace redisson::detail::utf
