// json::decode: JSON read the way Jackson reads it into Object (tokens: json_lexer.cpp).
//
// Typed (JsonJacksonCodec), where Jackson reads Object with default typing: an array is a type
// wrapper ["<class>", value], an object needs "@class" (anywhere in it), a number is an Integer,
// a Long when it needs 64 bits, or a Double. Inside the fields of an object of another class
// Jackson reads by the fields' declared classes, which the JSON does not carry: there a bare
// array is a list with no class and an object without "@class" an object with no class, and a
// wrapper is recognised when its class is one we know and its value starts as that class's.
// Plain (TypedJsonJacksonCodec): arrays are lists, objects are maps with String keys.
#include <string>
#include <utility>

#include "codec/java_classes.hpp"
#include "codec/json.hpp"
#include "codec/json_lexer.hpp"
#include "codec/json_types.hpp"
#include "redisson/detail/java_json.hpp"

namespace redisson::detail::json {
namespace {

enum class Mode : std::uint8_t {
  strict,   // typed, where Jackson reads Object
  lenient,  // typed, inside an object's fields
  plain,    // TypedJsonJacksonCodec
};

// Elements or members reserved up front: fewer moves of Values while a container grows.
constexpr std::size_t kInitialCapacity = 4;

std::string shown_class(const std::string& java_class) { return java_class.substr(0, 200); }

class Reader {
 public:
  Reader(std::string_view in, Dialect dialect)
      : lex_(in), top_mode_(dialect == Dialect::typed ? Mode::strict : Mode::plain) {}

  Value top() {
    lex_.skip_space();
    if (lex_.at_end()) lex_.fail("no JSON value (empty input)");
    Value v = value(top_mode_, 0);
    lex_.skip_space();
    if (!lex_.at_end()) lex_.fail("bytes after the JSON value");
    return v;
  }

 private:
  Value value(Mode mode, int depth) {
    lex_.skip_space();
    const char c = lex_.peek();
    if (c != '[' && c != '{') return lex_.scalar();
    lex_.check_depth(depth);
    return c == '[' ? array(mode, depth) : object(mode, depth);
  }

  // '[' at the position.
  Value array(Mode mode, int depth) {
    const std::size_t start = lex_.pos();
    lex_.advance();
    if (mode == Mode::plain) return Value::list(elements(mode, depth), "java.util.ArrayList");
    lex_.skip_space();
    if (lex_.peek() != '"') {
      if (mode == Mode::strict) untyped_array(start);
      return Value::list(elements(mode, depth), "");
    }
    const std::size_t class_at = lex_.pos();
    std::string java_class = lex_.string();
    lex_.skip_space();
    if (lex_.peek() == ',' && is_wrapper(mode, java_class)) {
      lex_.advance();
      Value v = wrapped(java_class, class_at, mode, depth);
      lex_.expect(']', "']' closing the type wrapper [\"<class>\", value]");
      return v;
    }
    if (mode == Mode::strict) {
      if (json_scalar_class(java_class) == JsonScalarClass::none &&
          find_java_collection(java_class) == nullptr) {
        lex_.fail_at("cannot read Java class " + shown_class(java_class), class_at);
      }
      untyped_array(start);
    }
    // A bare array whose first element is a string.
    Value::List items;
    items.reserve(kInitialCapacity);
    items.push_back(Value::string(std::move(java_class)));
    more_elements(items, mode, depth);
    return Value::list(std::move(items), "");
  }

  [[noreturn]] void untyped_array(std::size_t at) const {
    lex_.fail_at(
        "an array without a type (JsonJacksonCodec reads an array as [\"<class>\", value])", at);
  }

  // In strict mode every array is a wrapper. In lenient mode, one whose class we know and whose
  // value (after the ',' at the position) starts as that class's does.
  bool is_wrapper(Mode mode, const std::string& java_class) const {
    if (mode == Mode::strict) return true;
    const char next = lex_.peek_next();
    const bool numeric = next == '-' || (next >= '0' && next <= '9');
    switch (json_scalar_class(java_class)) {
      case JsonScalarClass::long_int:
      case JsonScalarClass::integer:
      case JsonScalarClass::short_int:
      case JsonScalarClass::byte:
      case JsonScalarClass::double_num:
      case JsonScalarClass::float_num:
        return numeric;
      case JsonScalarClass::boolean:
        return next == 't' || next == 'f';
      case JsonScalarClass::string:
      case JsonScalarClass::character:
      case JsonScalarClass::bytes:
        return next == '"';
      case JsonScalarClass::none:
        break;
    }
    const auto* c = find_java_collection(java_class);
    return c != nullptr && c->kind != ValueKind::map && next == '[';
  }

  // The value of a type wrapper, after its ','.
  Value wrapped(const std::string& java_class, std::size_t class_at, Mode mode, int depth) {
    lex_.skip_space();
    const std::size_t at = lex_.pos();
    if (const auto scalar = json_scalar_class(java_class); scalar != JsonScalarClass::none) {
      if (lex_.peek() == '[' || lex_.peek() == '{') {
        lex_.fail("a " + java_class + " that is not a scalar");
      }
      if (auto v = typed_scalar(scalar, lex_.scalar())) return std::move(*v);
      lex_.fail_at("a value that does not fit " + java_class, at);
    }
    const auto* c = find_java_collection(java_class);
    if (c == nullptr) lex_.fail_at("cannot read Java class " + shown_class(java_class), class_at);
    if (c->kind == ValueKind::map) lex_.fail_at(java_class + " written as an array", class_at);
    if (lex_.peek() != '[') lex_.fail("a " + java_class + " whose value is not an array");
    lex_.advance();
    Value::List items = elements(mode, depth);
    if (c->kind == ValueKind::set) return Value::set(std::move(items), std::string(c->name));
    return Value::list(std::move(items), std::string(c->name));
  }

  // Array elements up to and including ']', after '['.
  Value::List elements(Mode mode, int depth) {
    Value::List items;
    lex_.skip_space();
    if (lex_.peek() == ']') {
      lex_.advance();
      return items;
    }
    items.reserve(kInitialCapacity);
    items.push_back(value(mode, depth + 1));
    more_elements(items, mode, depth);
    return items;
  }

  // After an element: (',' element)* ']', appended to `items`.
  void more_elements(Value::List& items, Mode mode, int depth) {
    for (;;) {
      lex_.skip_space();
      if (lex_.peek() == ']') {
        lex_.advance();
        return;
      }
      if (lex_.peek() != ',') lex_.fail("expected ',' or ']' in an array");
      lex_.advance();
      items.push_back(value(mode, depth + 1));
    }
  }

  // '{' at the position.
  Value object(Mode mode, int depth) {
    const std::size_t start = lex_.pos();
    lex_.advance();
    if (mode == Mode::plain) {
      return Value::map(members(mode, depth, {}), "java.util.LinkedHashMap");
    }
    std::string java_class;
    const bool has_class = find_class(java_class, depth);
    lex_.set_pos(start + 1);
    if (!has_class) {
      if (mode == Mode::strict) {
        lex_.fail_at("an object without \"@class\" (JsonJacksonCodec needs the class to read it)",
                     start);
      }
      return Value::object("", members(Mode::lenient, depth, {}));
    }
    if (java_class.empty()) lex_.fail_at("an empty \"@class\"", start);
    const auto* c = find_java_collection(java_class);
    if ((c != nullptr && c->kind != ValueKind::map) ||
        json_scalar_class(java_class) != JsonScalarClass::none) {
      lex_.fail_at(java_class + " written as an object", start);
    }
    // A map's values are read as Object; an object's fields by their declared classes.
    const Mode inner = c != nullptr ? mode : Mode::lenient;
    return java_object_value(std::move(java_class), members(inner, depth, "@class"));
  }

  // Members up to and including '}', after '{', leaving out the first one named `skip`.
  Value::Entries members(Mode mode, int depth, std::string_view skip) {
    Value::Entries entries;
    bool skipped = skip.empty();
    lex_.skip_space();
    if (lex_.peek() == '}') {
      lex_.advance();
      return entries;
    }
    entries.reserve(kInitialCapacity);
    for (;;) {
      lex_.skip_space();
      if (lex_.peek() != '"') lex_.fail("expected a member name in an object");
      std::string name = lex_.string();
      lex_.expect(':', "':' after a member name");
      if (!skipped && name == skip) {
        skipped = true;
        lex_.skip_value(depth + 1);
      } else {
        Value member = value(mode, depth + 1);
        entries.emplace_back(Value::string(std::move(name)), std::move(member));
      }
      lex_.skip_space();
      if (lex_.peek() == '}') {
        lex_.advance();
        return entries;
      }
      if (lex_.peek() != ',') lex_.fail("expected ',' or '}' in an object");
      lex_.advance();
    }
  }

  // Looks for the "@class" member of the object whose '{' is just before the position (Jackson
  // takes it from anywhere in the object). Leaves the position anywhere.
  bool find_class(std::string& java_class, int depth) {
    lex_.skip_space();
    if (lex_.peek() == '}') return false;
    for (;;) {
      lex_.skip_space();
      if (lex_.peek() != '"') lex_.fail("expected a member name in an object");
      const bool is_class = lex_.string() == "@class";
      lex_.expect(':', "':' after a member name");
      lex_.skip_space();
      if (is_class) {
        if (lex_.peek() != '"') lex_.fail("an \"@class\" that is not a string");
        java_class = lex_.string();
        return true;
      }
      lex_.skip_value(depth + 1);
      lex_.skip_space();
      if (lex_.peek() == '}') return false;
      if (lex_.peek() != ',') lex_.fail("expected ',' or '}' in an object");
      lex_.advance();
    }
  }

  JsonLexer lex_;
  Mode top_mode_;
};

}  // namespace

Value decode(std::string_view text, Dialect dialect) {
  Reader reader(text, dialect);
  return reader.top();
}

}  // namespace redisson::detail::json
