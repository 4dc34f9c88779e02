// Opt-in: your own structs in typed objects through the json and typed_json codecs, shared with
// Java classes that Jackson maps (a POJO on the Java side). Needs nlohmann/json (this header
// includes <nlohmann/json.hpp>; the library itself does not).
//
//   struct Person { std::string name; int age = 0; std::vector<std::string> tags; };
//   void to_json(nlohmann::json& j, const Person& p) { j = {{"name", p.name}, {"age", p.age},
//                                                           {"tags", p.tags}}; }
//   void from_json(const nlohmann::json& j, Person& p) { ... }
//   template <> struct redisson::JavaClass<Person> {
//     static constexpr std::string_view name = "com.example.Person";
//   };
//   redisson::Bucket<Person> bucket(client, "person", redisson::codecs::json());
//
// With JsonJacksonCodec the object is written as {"@class":"com.example.Person","age":42,...}:
// fields sorted by name, null fields left out (NON_NULL), and what to_json gives mapped like this:
//   a number       -> Integer (a Long when it needs 64 bits); java_long(n) for a Java Long field
//   an array       -> java.util.ArrayList, written ["java.util.ArrayList",[...]] (a Java List)
//   ["<class>", v] -> that class when the codecs know it: ["java.lang.Long",5],
//   ["java.util.HashSet",[...]] an object      -> its fields with no class (a final class on the
//   Java side); with "@class"
//                     (with_java_class()) a class of its own, or a Map ("java.util.HashMap")
// Reading gives from_json plain JSON: numbers, arrays, objects (a null field is absent: use
// j.value(...) for fields that may be null). The kryo5 codec cannot store these values.
#pragma once

#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "redisson/detail/java_json.hpp"
#include "redisson/error.hpp"
#include "redisson/value.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

/// Specialise for a struct with nlohmann to_json/from_json to give it its Java class name:
/// `static constexpr std::string_view name = "com.example.Person";`.
template <class T>
struct JavaClass;

/// A Java Long inside a to_json(): a Java field of type Long or Object holds a Long only when the
/// JSON says so (["java.lang.Long", n]); a bare number is read back as an Integer.
inline nlohmann::json java_long(std::int64_t n) {
  return nlohmann::json::array({"java.lang.Long", n});
}

/// `value`'s JSON with "@class": JavaClass<T>::name, for a field whose Java type is not final
/// (Jackson needs the class there).
template <class T>
nlohmann::json with_java_class(const T& value) {
  nlohmann::json j = value;
  j["@class"] = std::string(JavaClass<T>::name);
  return j;
}

namespace detail {

inline constexpr int kMaxJsonObjectDepth = 512;

[[noreturn]] inline void json_object_error(const std::string& what) {
  throw error(errc::codec_error, what);
}

/// nlohmann JSON -> Value, mapped as the header comment says.
inline Value value_from_json(const nlohmann::json& j, int depth = 0) {
  if (depth > kMaxJsonObjectDepth) json_object_error("JSON object: nested too deep");
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      return {};
    case nlohmann::json::value_t::boolean:
      return Value::boolean(j.get<bool>());
    case nlohmann::json::value_t::number_integer: {
      const auto n = j.get<std::int64_t>();
      if (n >= INT32_MIN && n <= INT32_MAX) return Value::integer(static_cast<std::int32_t>(n));
      return Value::long_int(n);
    }
    case nlohmann::json::value_t::number_unsigned: {
      const auto n = j.get<std::uint64_t>();
      if (n <= INT32_MAX) return Value::integer(static_cast<std::int32_t>(n));
      if (n <= INT64_MAX) return Value::long_int(static_cast<std::int64_t>(n));
      json_object_error("JSON object: " + std::to_string(n) + " does not fit a Java long");
    }
    case nlohmann::json::value_t::number_float:
      return Value::double_num(j.get<double>());
    case nlohmann::json::value_t::string:
      return Value::string(j.get<std::string>());
    case nlohmann::json::value_t::binary: {
      const auto& raw = j.get_binary();
      return Value::bytes_from(
          std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()));
    }
    case nlohmann::json::value_t::array: {
      if (j.size() == 2 && j[0].is_string()) {
        auto typed =
            java_typed_value(j[0].get_ref<const std::string&>(), value_from_json(j[1], depth + 1));
        if (typed) return std::move(*typed);
      }
      Value::List elements;
      elements.reserve(j.size());
      for (const auto& element : j) elements.push_back(value_from_json(element, depth + 1));
      return Value::list(std::move(elements));
    }
    case nlohmann::json::value_t::object:
      break;
  }
  Value::Entries fields;
  std::string java_class;
  for (const auto& [name, field] : j.items()) {
    if (name == "@class" && field.is_string()) {
      java_class = field.get<std::string>();
      continue;
    }
    fields.emplace_back(Value::string(name), value_from_json(field, depth + 1));
  }
  if (java_class.empty()) return Value::object("", std::move(fields));
  return java_object_value(std::move(java_class), std::move(fields));
}

/// Value -> plain nlohmann JSON, for from_json: scalars as JSON scalars, byte[] as binary, lists
/// and sets as arrays, maps and objects as objects (keys as text, no "@class").
inline nlohmann::json json_from_value(const Value& v, int depth = 0) {
  if (depth > kMaxJsonObjectDepth) json_object_error("JSON object: nested too deep");
  switch (v.kind()) {
    case ValueKind::null:
      return nullptr;
    case ValueKind::boolean:
      return v.bool_value();
    case ValueKind::byte:
    case ValueKind::short_int:
    case ValueKind::integer:
    case ValueKind::long_int:
      return v.int_value();
    case ValueKind::float_num:
    case ValueKind::double_num:
      return v.double_value();
    case ValueKind::character: {
      const auto unit = static_cast<std::uint32_t>(v.int_value());
      std::string text;
      if (unit < 0x80) {
        text += static_cast<char>(unit);
      } else if (unit < 0x800) {
        text += static_cast<char>(0xC0 | (unit >> 6));
        text += static_cast<char>(0x80 | (unit & 0x3F));
      } else {
        text += static_cast<char>(0xE0 | (unit >> 12));
        text += static_cast<char>(0x80 | ((unit >> 6) & 0x3F));
        text += static_cast<char>(0x80 | (unit & 0x3F));
      }
      return text;
    }
    case ValueKind::string:
      return v.text();
    case ValueKind::bytes:
      return nlohmann::json::binary(std::vector<std::uint8_t>(v.text().begin(), v.text().end()));
    case ValueKind::list:
    case ValueKind::set: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& element : v.elements()) array.push_back(json_from_value(element, depth + 1));
      return array;
    }
    case ValueKind::map:
    case ValueKind::object:
      break;
  }
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [key, field] : v.entries()) {
    const std::string name = key.kind() == ValueKind::string ? key.text() : key.to_display_json();
    object[name] = json_from_value(field, depth + 1);
  }
  return object;
}

template <class T>
concept JsonMapped = requires(nlohmann::json& j, const T& t) {
  { JavaClass<T>::name } -> std::convertible_to<std::string_view>;
  nlohmann::adl_serializer<T>::to_json(j, t);
};

}  // namespace detail

/// A struct with JavaClass<T> and nlohmann to_json/from_json is a Java object of that class.
template <class T>
struct ValueTraits<T, std::enable_if_t<detail::JsonMapped<T>>> {
  static Value to_value(const T& value) {
    const nlohmann::json j = value;
    const std::string_view name = JavaClass<T>::name;
    if (!j.is_object()) {
      detail::json_object_error(std::string(name) + ": to_json must give a JSON object");
    }
    Value v = detail::value_from_json(j);
    if (v.kind() != ValueKind::object) {  // "@class" named a map class
      detail::json_object_error(std::string(name) + ": to_json gave a Map");
    }
    return Value::object(std::string(name), std::move(v.entries()));
  }

  static T from_value(const Value& v) {
    const std::string_view name = JavaClass<T>::name;
    // A map: what typed_json reads an object as.
    if (v.kind() != ValueKind::object && v.kind() != ValueKind::map) {
      detail::throw_unexpected(name, v);
    }
    if (v.kind() == ValueKind::object && !v.java_class().empty() && v.java_class() != name) {
      detail::json_object_error("expected " + std::string(name) + ", found " + v.java_class());
    }
    try {
      return detail::json_from_value(v).template get<T>();
    } catch (const nlohmann::json::exception& e) {
      detail::json_object_error(std::string(name) + ": from_json failed: " + e.what());
    }
  }
};

}  // namespace redisson
