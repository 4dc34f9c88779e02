// redisson::Value: a value as Java Redisson's codecs see it. Codecs turn a Value into bytes and
// back (codec.hpp); typed objects (Bucket<T>, Map<K, V>) turn their C++ values into a Value and
// back through ValueTraits (value_traits.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace redisson {

/// Java's byte[]: raw bytes.
using Bytes = std::vector<std::byte>;

/// The Java type a Value stands for. Java's boxed primitives keep their own kinds because their
/// bytes differ (Kryo writes Integer 1 as `02 02` and Long 1 as `09 02`; JSON wraps only Long).
enum class ValueKind : std::uint8_t {
  null,
  boolean,     ///< java.lang.Boolean
  byte,        ///< java.lang.Byte
  short_int,   ///< java.lang.Short
  character,   ///< java.lang.Character (one UTF-16 code unit)
  integer,     ///< java.lang.Integer
  long_int,    ///< java.lang.Long
  float_num,   ///< java.lang.Float
  double_num,  ///< java.lang.Double
  string,      ///< java.lang.String (held as UTF-8)
  bytes,       ///< byte[]
  list,        ///< java.util.List (ArrayList unless java_class() says otherwise)
  set,         ///< java.util.Set (HashSet unless java_class() says otherwise)
  map,         ///< java.util.Map (HashMap unless java_class() says otherwise)
  object,      ///< any other Java class: its class name and its fields (JSON codecs only)
};

/// The name of a kind for error messages: "Integer", "List", ...
std::string_view kind_name(ValueKind kind) noexcept;

/// One Java value, possibly nested. A plain value type: copy, move, compare with ==.
///
/// Lists and sets keep their elements in order; maps and objects keep their entries in order
/// (for an object: its fields, by name). The order is what a codec writes, so Java's HashMap and
/// HashSet iteration order matters for byte-exact output: the kryo5 and json codecs put a map's
/// or set's entries in the order a default Java HashMap/HashSet would iterate them.
class Value {
 public:
  using List = std::vector<Value>;
  using Entry = std::pair<Value, Value>;
  using Entries = std::vector<Entry>;

  /// Null.
  Value() = default;

  static Value boolean(bool b) { return Value(ValueKind::boolean, b ? 1 : 0); }
  static Value byte(std::int8_t n) { return Value(ValueKind::byte, n); }
  static Value short_int(std::int16_t n) { return Value(ValueKind::short_int, n); }
  static Value character(char16_t unit) { return Value(ValueKind::character, unit); }
  static Value integer(std::int32_t n) { return Value(ValueKind::integer, n); }
  static Value long_int(std::int64_t n) { return Value(ValueKind::long_int, n); }
  static Value float_num(float x);
  static Value double_num(double x);
  static Value string(std::string utf8);
  static Value bytes(Bytes raw);
  /// byte[] from raw bytes held in a string.
  static Value bytes_from(std::string_view raw);
  static Value list(List elements, std::string java_class = "java.util.ArrayList");
  static Value set(List elements, std::string java_class = "java.util.HashSet");
  static Value map(Entries entries, std::string java_class = "java.util.HashMap");
  /// An instance of `java_class` with `fields` (name -> value; names are strings).
  static Value object(std::string java_class, Entries fields);

  ValueKind kind() const noexcept { return kind_; }
  bool is_null() const noexcept { return kind_ == ValueKind::null; }
  /// True for byte, short_int, integer and long_int.
  bool is_integral() const noexcept;
  /// True for float_num and double_num.
  bool is_floating() const noexcept {
    return kind_ == ValueKind::float_num || kind_ == ValueKind::double_num;
  }

  /// The number of a boolean (0/1), byte, short_int, character, integer or long_int.
  std::int64_t int_value() const noexcept { return int_; }
  /// The number of a float_num or double_num.
  double double_value() const noexcept { return double_; }
  bool bool_value() const noexcept { return int_ != 0; }
  /// The UTF-8 text of a string, or the raw bytes of a byte[].
  const std::string& text() const noexcept { return text_; }
  /// The elements of a list or set.
  const List& elements() const noexcept { return elements_; }
  List& elements() noexcept { return elements_; }
  /// The entries of a map, or the fields of an object.
  const Entries& entries() const noexcept { return entries_; }
  Entries& entries() noexcept { return entries_; }
  /// The Java class of a list, set, map or object ("java.util.ArrayList"); empty otherwise.
  const std::string& java_class() const noexcept { return java_class_; }

  /// The value as JSON for people and shell scripts (`redisson bucket get`): strings, numbers,
  /// booleans and null as themselves, byte[] as base64, lists and sets as arrays, maps and
  /// objects as objects (keys that are not strings are written as their JSON text).
  std::string to_display_json() const;

  friend bool operator==(const Value& a, const Value& b) noexcept;

 private:
  Value(ValueKind kind, std::int64_t n) noexcept : kind_(kind), int_(n) {}
  static Value elements_of(ValueKind kind, List elements, std::string java_class);

  ValueKind kind_ = ValueKind::null;
  std::int64_t int_ = 0;
  double double_ = 0.0;
  std::string text_;
  std::string java_class_;
  List elements_;
  Entries entries_;
};

}  // namespace redisson
