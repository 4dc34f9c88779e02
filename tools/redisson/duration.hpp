// Durations on the command line: "500ms", "10s", "2m", "1h", "1m30s", "1.5s", or "0".
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace redisson::cli {

/// Parses a duration: one or more <number><unit> parts (units ms, s, m, h; the number may have
/// a fraction), or a bare "0". Rounds up to whole milliseconds. Throws std::invalid_argument
/// with a message fit for the user (negative, missing unit, unknown unit, garbage, too large).
std::chrono::milliseconds parse_duration(std::string_view text);

/// A duration for people: "850ms", "29.512s", "2m30s", "1h5m".
std::string format_duration(std::chrono::milliseconds duration);

}  // namespace redisson::cli
