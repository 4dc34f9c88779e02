// Text the way Java writes it: Double.toString / Float.toString (the text of LongCodec's and
// DoubleCodec's values, and of JSON numbers), and JSON strings as Jackson escapes them.
#pragma once

#include <string>
#include <string_view>

namespace redisson {
class Value;
}  // namespace redisson

namespace redisson::detail {

/// Java's Double.toString(x): "1.5", "1.0", "1.0E10", "1.0E-4", "NaN", "-Infinity". The digits
/// are the shortest that read back as `x` (what Java 19 and later print; Java 17 prints more
/// digits for a few values, which read back the same).
std::string java_double_text(double x);
/// Java's Float.toString(x), the same way.
std::string java_float_text(float x);
/// Appends Java's toString() of a Boolean or an integral value (Byte, Short, Integer, Long):
/// "true", "false", "-17". Returns false, appending nothing, for a value of any other kind.
bool append_java_boolean_or_integer(const Value& value, std::string& out);

/// Appends `utf8` as a JSON string the way Jackson writes it: `"` and `\` and control characters
/// escaped, characters outside the Basic Multilingual Plane as a \uXXXX surrogate pair, every
/// other character as its UTF-8.
void append_json_string(std::string_view utf8, std::string& out);
/// Appends a double as a JSON number the way Jackson writes it (java_double_text; NaN and the
/// infinities, which JSON has no number for, as strings).
void append_json_number(double x, std::string& out);

}  // namespace redisson::detail
