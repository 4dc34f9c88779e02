// A value typed on the command line (`redisson bucket set NAME VALUE --type T`) as a Java value.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "redisson/codec.hpp"
#include "redisson/value.hpp"

namespace redisson::cli {

/// The types --type accepts, for help texts.
inline constexpr std::string_view kValueTypes = "string, long, integer, double, boolean, json";

/// `text` read as `type`: string (as it is), long, integer, double, boolean (true/false), json
/// (numbers without a fraction become Long, with one Double; arrays ArrayList; objects HashMap
/// with string keys). Throws ToolError(kExitUsage) naming what is wrong.
Value parse_value(std::string_view text, std::string_view type);

/// The codec --codec names (nullptr when absent: the config's); an unknown name is
/// ToolError(kExitUsage).
CodecPtr codec_option(const std::optional<std::string>& name);

/// How `get` prints a value: a String as it is (no quotes), anything else as JSON.
std::string print_value(const Value& value);

}  // namespace redisson::cli
