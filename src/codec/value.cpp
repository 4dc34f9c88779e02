#include "redisson/value.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "codec/base64.hpp"
#include "codec/json_text.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

std::string_view kind_name(ValueKind kind) noexcept {
  switch (kind) {
    case ValueKind::null:
      return "null";
    case ValueKind::boolean:
      return "Boolean";
    case ValueKind::byte:
      return "Byte";
    case ValueKind::short_int:
      return "Short";
    case ValueKind::character:
      return "Character";
    case ValueKind::integer:
      return "Integer";
    case ValueKind::long_int:
      return "Long";
    case ValueKind::float_num:
      return "Float";
    case ValueKind::double_num:
      return "Double";
    case ValueKind::string:
      return "String";
    case ValueKind::bytes:
      return "byte[]";
    case ValueKind::list:
      return "List";
    case ValueKind::set:
      return "Set";
    case ValueKind::map:
      return "Map";
    case ValueKind::object:
      return "object";
  }
  return "?";
}

Value Value::float_num(float x) {
  Value v(ValueKind::float_num, 0);
  v.double_ = x;
  return v;
}

Value Value::double_num(double x) {
  Value v(ValueKind::double_num, 0);
  v.double_ = x;
  return v;
}

Value Value::string(std::string utf8) {
  Value v(ValueKind::string, 0);
  v.text_ = std::move(utf8);
  return v;
}

Value Value::bytes(Bytes raw) {
  return bytes_from(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
}

Value Value::bytes_from(std::string_view raw) {
  Value v(ValueKind::bytes, 0);
  v.text_ = std::string(raw);
  return v;
}

Value Value::elements_of(ValueKind kind, List elements, std::string java_class) {
  Value v(kind, 0);
  v.elements_ = std::move(elements);
  v.java_class_ = std::move(java_class);
  return v;
}

Value Value::list(List elements, std::string java_class) {
  return elements_of(ValueKind::list, std::move(elements), std::move(java_class));
}

Value Value::set(List elements, std::string java_class) {
  return elements_of(ValueKind::set, std::move(elements), std::move(java_class));
}

Value Value::map(Entries entries, std::string java_class) {
  Value v(ValueKind::map, 0);
  v.entries_ = std::move(entries);
  v.java_class_ = std::move(java_class);
  return v;
}

Value Value::object(std::string java_class, Entries fields) {
  Value v(ValueKind::object, 0);
  v.entries_ = std::move(fields);
  v.java_class_ = std::move(java_class);
  return v;
}

bool Value::is_integral() const noexcept {
  return kind_ == ValueKind::byte || kind_ == ValueKind::short_int || kind_ == ValueKind::integer ||
         kind_ == ValueKind::long_int;
}

bool operator==(const Value& a, const Value& b) noexcept {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case ValueKind::null:
      return true;
    case ValueKind::float_num:
    case ValueKind::double_num:
      // Bitwise, so that NaN equals itself (a value read back equals the value written).
      return a.double_ == b.double_ || (std::isnan(a.double_) && std::isnan(b.double_));
    case ValueKind::string:
    case ValueKind::bytes:
      return a.text_ == b.text_;
    case ValueKind::list:
    case ValueKind::set:
      return a.java_class_ == b.java_class_ && a.elements_ == b.elements_;
    case ValueKind::map:
    case ValueKind::object:
      return a.java_class_ == b.java_class_ && a.entries_ == b.entries_;
    default:
      return a.int_ == b.int_;
  }
}

namespace {

void append_display(const Value& value, std::string& out) {
  if (detail::append_java_boolean_or_integer(value, out)) return;
  switch (value.kind()) {
    case ValueKind::null:
      out += "null";
      return;
    case ValueKind::character: {
      // One UTF-16 code unit shown as a one-character string.
      std::string utf8;
      detail::utf::append_utf8(static_cast<char16_t>(value.int_value()), utf8);
      detail::append_json_string(utf8, out);
      return;
    }
    case ValueKind::float_num:
    case ValueKind::double_num:
      detail::append_json_number(value.double_value(), out);
      return;
    case ValueKind::string:
      detail::append_json_string(value.text(), out);
      return;
    case ValueKind::bytes:
      detail::append_json_string(detail::base64_encode(value.text()), out);
      return;
    case ValueKind::list:
    case ValueKind::set: {
      out += '[';
      bool first = true;
      for (const auto& element : value.elements()) {
        if (!first) out += ',';
        first = false;
        append_display(element, out);
      }
      out += ']';
      return;
    }
    case ValueKind::map:
    case ValueKind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, entry] : value.entries()) {
        if (!first) out += ',';
        first = false;
        if (key.kind() == ValueKind::string) {
          detail::append_json_string(key.text(), out);
        } else {
          std::string key_text;
          append_display(key, key_text);
          detail::append_json_string(key_text, out);
        }
        out += ':';
        append_display(entry, out);
      }
      out += '}';
      return;
    }
    default:
      return;  // booleans and integers: written above
  }
}

}  // namespace

std::string Value::to_display_json() const {
  std::string out;
  append_display(*this, out);
  return out;
}

namespace detail {

void throw_unexpected(std::string_view expected, const Value& value) {
  std::string what = "expected ";
  what += expected;
  what += ", found ";
  what += kind_name(value.kind());
  if (!value.java_class().empty()) what += " (" + value.java_class() + ")";
  throw error(errc::codec_error, what);
}

std::int64_t integral_in_range(const Value& value, std::string_view expected, std::int64_t min,
                               std::int64_t max) {
  if (!value.is_integral()) throw_unexpected(expected, value);
  const auto n = value.int_value();
  if (n < min || n > max) {
    throw error(errc::codec_error, "expected " + std::string(expected) + ", found " +
                                       std::string(kind_name(value.kind())) + " " +
                                       std::to_string(n) + " (out of range)");
  }
  return n;
}

double any_number(const Value& value, std::string_view expected) {
  if (value.is_floating()) return value.double_value();
  if (value.is_integral()) return static_cast<double>(value.int_value());
  throw_unexpected(expected, value);
}

const Value::List& collection_elements(const Value& value, std::string_view expected) {
  if (value.kind() != ValueKind::list && value.kind() != ValueKind::set) {
    throw_unexpected(expected, value);
  }
  return value.elements();
}

const Value::Entries& map_entries(const Value& value) {
  if (value.kind() != ValueKind::map) throw_unexpected("Map", value);
  return value.entries();
}

}  // namespace detail

}  // namespace redisson
