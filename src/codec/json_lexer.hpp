// The tokens of JSON text as Jackson's parser accepts them by default (RFC 8259): whitespace,
// strings (checked UTF-8, escapes, surrogate pairs joined into UTF-8), numbers as Jackson reads
// them into Object (Integer, Long past 32 bits, Double with a fraction or an exponent) and the
// literals. Every error is a codec_error with its offset.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson::detail::json {

class JsonLexer {
 public:
  explicit JsonLexer(std::string_view in) noexcept : in_(in) {}

  std::size_t pos() const noexcept { return pos_; }
  void set_pos(std::size_t pos) noexcept { pos_ = pos; }
  bool at_end() const noexcept { return pos_ >= in_.size(); }
  /// The byte at the position, '\0' at the end.
  char peek() const noexcept { return at_end() ? '\0' : in_[pos_]; }
  /// The first byte after the position's byte and any whitespace, '\0' at the end.
  char peek_next() const noexcept;
  void advance() noexcept { ++pos_; }

  void skip_space() noexcept;
  /// Skips whitespace and `c`, or fails with "expected <what>".
  void expect(char c, const char* what);
  /// A string, number or literal at the position (after whitespace) as a Value.
  Value scalar();
  /// The string whose opening quote is at the position, as UTF-8.
  std::string string();
  /// Steps over one value, checking its syntax only.
  void skip_value(int depth);
  /// Fails when a container at `depth` would nest too deep.
  void check_depth(int depth) const;

  [[noreturn]] void fail(const std::string& what) const { fail_at(what, pos_); }
  [[noreturn]] void fail_at(const std::string& what, std::size_t at) const;

 private:
  void literal(std::string_view word);
  char16_t hex4();
  Value number();

  std::string_view in_;
  std::size_t pos_ = 0;
};

}  // namespace redisson::detail::json
