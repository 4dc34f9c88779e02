#include "duration.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace redisson::cli {
namespace {

constexpr std::int64_t kNanosPerMilli = 1'000'000;
// A bound far above any sensible wait or lease (~100 years), far below int64 overflow.
constexpr std::int64_t kMaxNanos = std::int64_t{100} * 365 * 24 * 3600 * 1'000'000'000;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw std::invalid_argument("invalid duration '" + std::string(text) + "': " + why +
                              " (examples: 500ms, 10s, 2m, 1h, 1m30s)");
}

std::int64_t unit_nanos(std::string_view unit) {
  if (unit == "ms") return kNanosPerMilli;
  if (unit == "s") return 1000 * kNanosPerMilli;
  if (unit == "m") return 60 * 1000 * kNanosPerMilli;
  if (unit == "h") return 3600 * 1000 * kNanosPerMilli;
  return 0;
}

}  // namespace

std::chrono::milliseconds parse_duration(std::string_view text) {
  if (text.empty()) bad(text, "empty");
  if (text.front() == '-') bad(text, "must not be negative");
  if (text == "0") return std::chrono::milliseconds{0};

  std::int64_t total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::int64_t whole = 0;
    const std::size_t whole_start = i;
    while (i < text.size() && is_digit(text[i])) {
      whole = whole * 10 + (text[i] - '0');
      if (whole > kMaxNanos) bad(text, "too large");
      ++i;
    }
    std::int64_t fraction = 0;
    std::int64_t fraction_scale = 1;
    if (i < text.size() && text[i] == '.') {
      ++i;
      const std::size_t fraction_start = i;
      while (i < text.size() && is_digit(text[i])) {
        if (fraction_scale < 1'000'000'000) {  // digits beyond a nanosecond do not matter
          fraction = fraction * 10 + (text[i] - '0');
          fraction_scale *= 10;
        }
        ++i;
      }
      if (i == fraction_start) bad(text, "expected digits after '.'");
    }
    if (i == whole_start) bad(text, "expected a number");
    const std::size_t unit_start = i;
    while (i < text.size() && !is_digit(text[i]) && text[i] != '.') ++i;
    const auto unit = text.substr(unit_start, i - unit_start);
    if (unit.empty()) bad(text, "missing unit (ms, s, m or h)");
    const std::int64_t scale = unit_nanos(unit);
    if (scale == 0) bad(text, "unknown unit '" + std::string(unit) + "' (use ms, s, m or h)");
    if (whole > (kMaxNanos - total) / scale) bad(text, "too large");
    total += whole * scale + fraction * (scale / fraction_scale);
    if (total > kMaxNanos) bad(text, "too large");
  }
  return std::chrono::milliseconds((total + kNanosPerMilli - 1) / kNanosPerMilli);
}

std::string format_duration(std::chrono::milliseconds duration) {
  std::int64_t ms = duration.count();
  std::string out;
  if (ms < 0) {
    out = "-";
    ms = ms == std::numeric_limits<std::int64_t>::min() ? std::numeric_limits<std::int64_t>::max()
                                                        : -ms;
  }
  if (ms < 1000) return out + std::to_string(ms) + "ms";
  const std::int64_t hours = ms / 3'600'000;
  const std::int64_t minutes = ms / 60'000 % 60;
  const std::int64_t seconds = ms / 1000 % 60;
  const std::int64_t millis = ms % 1000;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (minutes > 0) out += std::to_string(minutes) + "m";
  if (seconds > 0 || millis > 0) {
    out += std::to_string(seconds);
    if (millis > 0) {
      std::string digits = std::to_string(millis + 1000).substr(1);  // zero-padded to 3
      while (digits.back() == '0') digits.pop_back();
      out += "." + digits;
    }
    out += "s";
  }
  return out;
}

}  // namespace redisson::cli
