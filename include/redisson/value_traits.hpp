// ValueTraits<T>: how a C++ type maps onto a Java value (value.hpp), which is what lets
// Bucket<T>, Map<K, V> and the other typed objects store T with any codec.
//
//   std::string             <-> String          bool          <-> Boolean
//   std::int32_t (int)      <-> Integer         std::int64_t  <-> Long
//   std::int16_t            <-> Short           std::int8_t   <-> Byte
//   double                  <-> Double          float         <-> Float
//   redisson::Bytes         <-> byte[]          redisson::Value: any value, as it is
//   std::vector<T>          <-> ArrayList       std::set<T>, std::unordered_set<T> <-> HashSet
//   std::map<K, V>, std::unordered_map<K, V>    <-> HashMap
//   std::optional<T>        <-> T, or null
//
// A type with no ValueTraits does not compile. Reading is lenient where no information is lost:
// an Integer reads into std::int64_t, a Long into std::int32_t when it fits, any number into
// double, any list or set into a vector or set. Anything else throws redisson::error
// (errc::codec_error: "expected Long, found String"). Reading null into a type that has no null
// (anything but std::optional and Value) is also a codec_error.
//
// Your own type: specialise ValueTraits<T> with `static Value to_value(const T&)` and
// `static T from_value(const Value&)`; for a JSON-mapped struct see codec_json_object.hpp.
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "redisson/value.hpp"

namespace redisson {

/// Specialise for a type to store it in typed objects. Not defined for types no codec carries.
template <class T, class Enable = void>
struct ValueTraits;

namespace detail {
/// Throws redisson::error(codec_error, "expected <expected>, found <kind of value>").
[[noreturn]] void throw_unexpected(std::string_view expected, const Value& value);
/// The integer in `value` (any integral kind) checked against [min, max]; throws otherwise.
std::int64_t integral_in_range(const Value& value, std::string_view expected, std::int64_t min,
                               std::int64_t max);
/// Any number in `value` as a double; throws for anything else.
double any_number(const Value& value, std::string_view expected);

/// The ValueTraits of the integer type N, Java's `kind` (Byte, Short, Integer, Long): written by
/// `make`, read from any integral kind whose value fits in N.
template <class N, Value (*make)(N), ValueKind kind>
struct IntegerTraits {
  static Value to_value(N n) { return make(n); }
  static N from_value(const Value& v) {
    return static_cast<N>(integral_in_range(v, kind_name(kind), std::numeric_limits<N>::min(),
                                            std::numeric_limits<N>::max()));
  }
};
}  // namespace detail

/// True when T has ValueTraits (so a typed object can hold it).
template <class T>
concept JavaValue = requires(const T& t, const Value& v) {
  { ValueTraits<T>::to_value(t) } -> std::same_as<Value>;
  { ValueTraits<T>::from_value(v) } -> std::same_as<T>;
};

/// `value` as a Value.
template <JavaValue T>
Value to_value(const T& value) {
  return ValueTraits<T>::to_value(value);
}
/// `value` read as a T (throws errc::codec_error when it cannot be).
template <JavaValue T>
T from_value(const Value& value) {
  return ValueTraits<T>::from_value(value);
}

template <>
struct ValueTraits<Value> {
  static Value to_value(const Value& v) { return v; }
  static Value from_value(const Value& v) { return v; }
};

template <>
struct ValueTraits<std::string> {
  static Value to_value(const std::string& s) { return Value::string(s); }
  static std::string from_value(const Value& v) {
    if (v.kind() != ValueKind::string) detail::throw_unexpected("String", v);
    return v.text();
  }
};

template <>
struct ValueTraits<bool> {
  static Value to_value(bool b) { return Value::boolean(b); }
  static bool from_value(const Value& v) {
    if (v.kind() != ValueKind::boolean) detail::throw_unexpected("Boolean", v);
    return v.bool_value();
  }
};

// Integers: each C++ width has its Java type; reading accepts any integral kind in range.
template <>
struct ValueTraits<std::int8_t>
    : detail::IntegerTraits<std::int8_t, &Value::byte, ValueKind::byte> {};
template <>
struct ValueTraits<std::int16_t>
    : detail::IntegerTraits<std::int16_t, &Value::short_int, ValueKind::short_int> {};
template <>
struct ValueTraits<std::int32_t>
    : detail::IntegerTraits<std::int32_t, &Value::integer, ValueKind::integer> {};
template <>
struct ValueTraits<std::int64_t>
    : detail::IntegerTraits<std::int64_t, &Value::long_int, ValueKind::long_int> {};
/// `long long` is a Long too (std::int64_t is `long` on LP64 systems).
template <class T>
struct ValueTraits<
    T, std::enable_if_t<std::is_same_v<T, long long> && !std::is_same_v<long long, std::int64_t>>> {
  static Value to_value(long long n) { return Value::long_int(static_cast<std::int64_t>(n)); }
  static long long from_value(const Value& v) {
    return detail::integral_in_range(v, "Long", INT64_MIN, INT64_MAX);
  }
};

template <>
struct ValueTraits<double> {
  static Value to_value(double x) { return Value::double_num(x); }
  static double from_value(const Value& v) { return detail::any_number(v, "Double"); }
};
template <>
struct ValueTraits<float> {
  static Value to_value(float x) { return Value::float_num(x); }
  static float from_value(const Value& v) {
    return static_cast<float>(detail::any_number(v, "Float"));
  }
};

template <>
struct ValueTraits<Bytes> {
  static Value to_value(const Bytes& b) { return Value::bytes(b); }
  static Bytes from_value(const Value& v) {
    if (v.kind() != ValueKind::bytes) detail::throw_unexpected("byte[]", v);
    const auto* data = reinterpret_cast<const std::byte*>(v.text().data());
    return Bytes(data, data + v.text().size());
  }
};

template <class T>
struct ValueTraits<std::optional<T>, std::enable_if_t<JavaValue<T>>> {
  static Value to_value(const std::optional<T>& o) {
    return o ? ValueTraits<T>::to_value(*o) : Value{};
  }
  static std::optional<T> from_value(const Value& v) {
    if (v.is_null()) return std::nullopt;
    return ValueTraits<T>::from_value(v);
  }
};

namespace detail {
/// The elements of a list or set (throws for anything else).
const Value::List& collection_elements(const Value& value, std::string_view expected);
/// The entries of a map (throws for anything else).
const Value::Entries& map_entries(const Value& value);

template <class Container>
Value::List to_elements(const Container& c) {
  Value::List out;
  out.reserve(c.size());
  for (const auto& e : c) out.push_back(ValueTraits<typename Container::value_type>::to_value(e));
  return out;
}
template <class Map>
Value::Entries to_entries(const Map& m) {
  Value::Entries out;
  out.reserve(m.size());
  for (const auto& [k, v] : m) {
    out.emplace_back(ValueTraits<typename Map::key_type>::to_value(k),
                     ValueTraits<typename Map::mapped_type>::to_value(v));
  }
  return out;
}
template <class Set>
Set to_set(const Value& v) {
  Set out;
  for (const auto& e : collection_elements(v, "Set")) {
    out.insert(ValueTraits<typename Set::value_type>::from_value(e));
  }
  return out;
}
template <class Map>
Map to_map(const Value& v) {
  Map out;
  for (const auto& [k, val] : map_entries(v)) {
    out.emplace(ValueTraits<typename Map::key_type>::from_value(k),
                ValueTraits<typename Map::mapped_type>::from_value(val));
  }
  return out;
}
}  // namespace detail

template <class T>
struct ValueTraits<std::vector<T>,
                   std::enable_if_t<JavaValue<T> && !std::is_same_v<T, std::byte>>> {
  static Value to_value(const std::vector<T>& v) { return Value::list(detail::to_elements(v)); }
  static std::vector<T> from_value(const Value& v) {
    std::vector<T> out;
    const auto& elements = detail::collection_elements(v, "List");
    out.reserve(elements.size());
    for (const auto& e : elements) out.push_back(ValueTraits<T>::from_value(e));
    return out;
  }
};

template <class T, class Compare, class Alloc>
struct ValueTraits<std::set<T, Compare, Alloc>, std::enable_if_t<JavaValue<T>>> {
  using Set = std::set<T, Compare, Alloc>;
  static Value to_value(const Set& s) { return Value::set(detail::to_elements(s)); }
  static Set from_value(const Value& v) { return detail::to_set<Set>(v); }
};
template <class T, class Hash, class Eq, class Alloc>
struct ValueTraits<std::unordered_set<T, Hash, Eq, Alloc>, std::enable_if_t<JavaValue<T>>> {
  using Set = std::unordered_set<T, Hash, Eq, Alloc>;
  static Value to_value(const Set& s) { return Value::set(detail::to_elements(s)); }
  static Set from_value(const Value& v) { return detail::to_set<Set>(v); }
};
template <class K, class V, class Compare, class Alloc>
struct ValueTraits<std::map<K, V, Compare, Alloc>, std::enable_if_t<JavaValue<K> && JavaValue<V>>> {
  using Map = std::map<K, V, Compare, Alloc>;
  static Value to_value(const Map& m) { return Value::map(detail::to_entries(m)); }
  static Map from_value(const Value& v) { return detail::to_map<Map>(v); }
};
template <class K, class V, class Hash, class Eq, class Alloc>
struct ValueTraits<std::unordered_map<K, V, Hash, Eq, Alloc>,
                   std::enable_if_t<JavaValue<K> && JavaValue<V>>> {
  using Map = std::unordered_map<K, V, Hash, Eq, Alloc>;
  static Value to_value(const Map& m) { return Value::map(detail::to_entries(m)); }
  static Map from_value(const Value& v) { return detail::to_map<Map>(v); }
};

}  // namespace redisson
