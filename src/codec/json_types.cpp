#include "codec/json_types.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "codec/base64.hpp"
#include "codec/java_classes.hpp"
#include "codec/utf.hpp"
#include "redisson/detail/java_json.hpp"

namespace redisson::detail {
namespace {

constexpr std::array<std::pair<std::string_view, JsonScalarClass>, 10> kScalars{{
    {"java.lang.Long", JsonScalarClass::long_int},
    {"java.lang.Integer", JsonScalarClass::integer},
    {"java.lang.Double", JsonScalarClass::double_num},
    {"java.lang.String", JsonScalarClass::string},
    {"java.lang.Boolean", JsonScalarClass::boolean},
    {"java.lang.Short", JsonScalarClass::short_int},
    {"java.lang.Byte", JsonScalarClass::byte},
    {"java.lang.Float", JsonScalarClass::float_num},
    {"java.lang.Character", JsonScalarClass::character},
    {"[B", JsonScalarClass::bytes},
}};

std::optional<std::int64_t> integral(const Value& v, std::int64_t min, std::int64_t max) {
  if (v.kind() != ValueKind::integer && v.kind() != ValueKind::long_int) return std::nullopt;
  if (v.int_value() < min || v.int_value() > max) return std::nullopt;
  return v.int_value();
}

std::optional<double> number(const Value& v) {
  if (v.kind() == ValueKind::double_num) return v.double_value();
  if (v.kind() == ValueKind::integer || v.kind() == ValueKind::long_int) {
    return static_cast<double>(v.int_value());
  }
  return std::nullopt;
}

}  // namespace

JsonScalarClass json_scalar_class(std::string_view java_class) noexcept {
  for (const auto& [name, c] : kScalars) {
    if (name == java_class) return c;
  }
  return JsonScalarClass::none;
}

std::optional<Value> typed_scalar(JsonScalarClass java_class, const Value& payload) {
  switch (java_class) {
    case JsonScalarClass::none:
      return std::nullopt;
    case JsonScalarClass::long_int:
      if (auto n = integral(payload, INT64_MIN, INT64_MAX)) return Value::long_int(*n);
      return std::nullopt;
    case JsonScalarClass::integer:
      if (auto n = integral(payload, INT32_MIN, INT32_MAX)) {
        return Value::integer(static_cast<std::int32_t>(*n));
      }
      return std::nullopt;
    case JsonScalarClass::short_int:
      if (auto n = integral(payload, INT16_MIN, INT16_MAX)) {
        return Value::short_int(static_cast<std::int16_t>(*n));
      }
      return std::nullopt;
    case JsonScalarClass::byte:
      if (auto n = integral(payload, INT8_MIN, INT8_MAX)) {
        return Value::byte(static_cast<std::int8_t>(*n));
      }
      return std::nullopt;
    case JsonScalarClass::double_num:
      if (auto x = number(payload)) return Value::double_num(*x);
      return std::nullopt;
    case JsonScalarClass::float_num:
      // Beyond Float's range Java reads Infinity, which Jackson then writes as a string.
      if (auto x = number(payload); x && std::fabs(*x) <= std::numeric_limits<float>::max()) {
        return Value::float_num(static_cast<float>(*x));
      }
      return std::nullopt;
    case JsonScalarClass::boolean:
      if (payload.kind() == ValueKind::boolean) return payload;
      return std::nullopt;
    case JsonScalarClass::string:
      if (payload.kind() == ValueKind::string) return payload;
      return std::nullopt;
    case JsonScalarClass::character: {
      if (payload.kind() != ValueKind::string) return std::nullopt;
      std::size_t at = 0;
      const std::string& s = payload.text();
      if (s.empty()) return std::nullopt;
      const char32_t c = utf::next_code_point(s, at);
      // One BMP character (kInvalid is above the BMP too).
      if (c >= 0x10000 || at != s.size()) return std::nullopt;
      return Value::character(static_cast<char16_t>(c));
    }
    case JsonScalarClass::bytes: {
      if (payload.kind() != ValueKind::string) return std::nullopt;
      auto raw = base64_decode(payload.text());
      if (!raw) return std::nullopt;
      return Value::bytes_from(*raw);
    }
  }
  return std::nullopt;
}

std::optional<Value> java_typed_value(std::string_view java_class, const Value& payload) {
  if (const auto scalar = json_scalar_class(java_class); scalar != JsonScalarClass::none) {
    return typed_scalar(scalar, payload);
  }
  const auto* c = find_java_collection(java_class);
  if (c == nullptr || c->kind == ValueKind::map || payload.kind() != ValueKind::list) {
    return std::nullopt;
  }
  Value::List elements = payload.elements();
  if (c->kind == ValueKind::set) return Value::set(std::move(elements), std::string(c->name));
  return Value::list(std::move(elements), std::string(c->name));
}

Value java_object_value(std::string java_class, Value::Entries fields) {
  const auto* c = find_java_collection(java_class);
  if (c != nullptr && c->kind == ValueKind::map)
    return Value::map(std::move(fields), std::move(java_class));
  return Value::object(std::move(java_class), std::move(fields));
}

}  // namespace redisson::detail
