// json::decode: JSON read the way Jackson reads it into Object.
//
// Typed (JsonJacksonCodec), where Jackson reads Object with default typing: an array is a type
// wrapper ["<class>", value], an object needs "@class" (anywhere in it), a number is an Integer,
// a Long when it needs 64 bits, or a Double. Inside the fields of an object of another class
// Jackson reads by the fields' declared classes, which the JSON does not carry: there a bare
// array is a list with no class and an object without "@class" an object with no class, and a
// wrapper is recognised when its class is one we know and its value fits.
// Plain (TypedJsonJacksonCodec): arrays are lists, objects are maps with String keys.
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include "codec/java_classes.hpp"
#include "codec/json.hpp"
#include "codec/json_types.hpp"
#include "codec/utf.hpp"
#include "redisson/detail/java_json.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::json {
namespace {

enum class Mode : std::uint8_t {
  strict,   // typed, where Jackson reads Object
  lenient,  // typed, inside an object's fields
  plain,    // TypedJsonJacksonCodec
};

// Elements or members reserved up front: fewer moves of Values while a container grows.
constexpr std::size_t kInitialCapacity = 4;

class Reader {
 public:
  Reader(std::string_view in, Dialect dialect)
      : in_(in), top_mode_(dialect == Dialect::typed ? Mode::strict : Mode::plain) {}

  Value top() {
    skip_space();
    if (pos_ == in_.size()) fail("no JSON value (empty input)");
    Value v = value(top_mode_, 0);
    skip_space();
    if (pos_ != in_.size()) fail("bytes after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { fail_at(what, pos_); }
  [[noreturn]] void fail_at(const std::string& what, std::size_t at) const {
    throw error(errc::codec_error, "json: " + what + " at offset " + std::to_string(at));
  }

  bool at_end() const noexcept { return pos_ >= in_.size(); }
  char peek() const noexcept { return at_end() ? '\0' : in_[pos_]; }

  void skip_space() noexcept {
    while (pos_ < in_.size()) {
      const char c = in_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }

  void expect(char c, const char* what) {
    skip_space();
    if (peek() != c) fail(std::string("expected ") + what);
    ++pos_;
  }

  void literal(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) fail("not a JSON value");
    pos_ += word.size();
  }

  Value value(Mode mode, int depth) {
    skip_space();
    switch (peek()) {
      case '"':
        return Value::string(string());
      case 't':
        literal("true");
        return Value::boolean(true);
      case 'f':
        literal("false");
        return Value::boolean(false);
      case 'n':
        literal("null");
        return {};
      case '[':
        check_depth(depth);
        return array(mode, depth);
      case '{':
        check_depth(depth);
        return object(mode, depth);
      default:
        return number();
    }
  }

  void check_depth(int depth) const {
    if (depth >= kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth));
  }

  // A JSON string as UTF-8; pos_ on the opening quote.
  std::string string() {
    ++pos_;
    std::string out;
    utf::Utf16ToUtf8 escaped(out);
    for (;;) {
      // A run of plain characters, checked as UTF-8 and copied at once.
      const std::size_t run = pos_;
      while (pos_ < in_.size()) {
        const auto c = static_cast<unsigned char>(in_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        if (c < 0x80) {
          ++pos_;
        } else if (utf::next_code_point(in_, pos_) == utf::kInvalid) {
          fail("a string that is not UTF-8");
        }
      }
      if (pos_ > run) {
        if (!escaped.finish()) fail("an unpaired UTF-16 surrogate escape");
        out.append(in_.data() + run, pos_ - run);
      }
      if (at_end()) fail("an unterminated string");
      const char c = in_[pos_];
      if (c == '"') {
        if (!escaped.finish()) fail("an unpaired UTF-16 surrogate escape");
        ++pos_;
        return out;
      }
      if (c != '\\') fail("a control character in a string (it must be escaped)");
      ++pos_;
      const char e = peek();
      ++pos_;
      char16_t unit = 0;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          unit = static_cast<char16_t>(e);
          break;
        case 'b':
          unit = '\b';
          break;
        case 'f':
          unit = '\f';
          break;
        case 'n':
          unit = '\n';
          break;
        case 'r':
          unit = '\r';
          break;
        case 't':
          unit = '\t';
          break;
        case 'u':
          unit = hex4();
          break;
        default:
          fail_at("an unknown escape in a string", pos_ - 1);
      }
      if (!escaped.add(unit)) fail("an unpaired UTF-16 surrogate escape");
    }
  }

  char16_t hex4() {
    if (in_.size() - pos_ < 4) fail("a truncated \\u escape");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = in_[pos_++];
      unsigned digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<unsigned>(c - 'A' + 10);
      } else {
        fail_at("a bad \\u escape", pos_ - 1);
      }
      value = value * 16 + digit;
    }
    return static_cast<char16_t>(value);
  }

  // A JSON number: Integer, Long when it needs 64 bits, Double when it has a fraction or an
  // exponent. Jackson reads a wider integer as a BigInteger, which has no Value.
  Value number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    const std::size_t int_start = pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      fail_at("not a JSON value", start);
    }
    const std::size_t int_digits = pos_ - int_start;
    bool floating = false;
    if (peek() == '.') {
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("a number without digits after '.'");
      while (peek() >= '0' && peek() <= '9') ++pos_;
      floating = true;
    }
    std::size_t exponent_at = 0;
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      exponent_at = pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("a number without exponent digits");
      while (peek() >= '0' && peek() <= '9') ++pos_;
      floating = true;
    }
    const std::string_view token = in_.substr(start, pos_ - start);
    if (!floating) {
      std::int64_t n = 0;
      const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
      if (ec != std::errc{} || end != token.data() + token.size()) {
        fail_at("an integer out of the range of Long (Jackson reads it as a BigInteger)", start);
      }
      if (n >= INT32_MIN && n <= INT32_MAX) return Value::integer(static_cast<std::int32_t>(n));
      return Value::long_int(n);
    }
    double x = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), x);
    if (ec == std::errc::result_out_of_range) {
      if (overflows(token, int_start - start, int_digits, exponent_at - start)) {
        fail_at("a number out of the range of Double", start);
      }
      x = token.front() == '-' ? -0.0 : 0.0;  // underflow: Java reads 0.0
    } else if (ec != std::errc{} || end != token.data() + token.size()) {
      fail_at("a malformed number", start);
    }
    return Value::double_num(x);
  }

  // Whether an out-of-range decimal is too large (rather than too small): the power of ten of
  // its first non-zero digit is positive. Offsets are within `token`; exponent_at 0 = none.
  static bool overflows(std::string_view token, std::size_t int_start, std::size_t int_digits,
                        std::size_t exponent_at) {
    long long magnitude = 0;
    std::size_t i = int_start;
    while (i < int_start + int_digits && token[i] == '0') ++i;
    if (i < int_start + int_digits) {
      magnitude = static_cast<long long>(int_start + int_digits - i) - 1;
    } else {
      std::size_t j = int_start + int_digits + 1;  // after '.'
      long long zeros = 0;
      while (j < token.size() && token[j] == '0') {
        ++zeros;
        ++j;
      }
      magnitude = -zeros - 1;
    }
    if (exponent_at != 0) {
      long long exponent = 0;
      std::size_t k = exponent_at;
      const bool negative = token[k] == '-';
      if (token[k] == '+' || token[k] == '-') ++k;
      for (; k < token.size() && exponent < 100'000'000; ++k)
        exponent = exponent * 10 + (token[k] - '0');
      magnitude += negative ? -exponent : exponent;
    }
    return magnitude > 0;
  }

  // '[' at pos_.
  Value array(Mode mode, int depth) {
    const std::size_t start = pos_;
    ++pos_;
    if (mode == Mode::plain)
      return Value::list(elements(Mode::plain, depth), "java.util.ArrayList");
    skip_space();
    if (peek() != '"') {
      if (mode == Mode::strict) untyped_array(start);
      return Value::list(elements(mode, depth), "");
    }
    const std::size_t class_at = pos_;
    std::string java_class = string();
    skip_space();
    if (peek() == ',' && is_wrapper(mode, java_class)) {
      ++pos_;
      Value v = wrapped(java_class, class_at, mode, depth);
      expect(']', "']' closing the type wrapper [\"<class>\", value]");
      return v;
    }
    if (mode == Mode::strict) {
      if (json_scalar_class(java_class) == JsonScalarClass::none &&
          find_java_collection(java_class) == nullptr) {
        fail_at("cannot read Java class " + java_class.substr(0, 200), class_at);
      }
      untyped_array(start);
    }
    // A bare array whose first element is a string.
    Value::List items;
    items.push_back(Value::string(std::move(java_class)));
    more_elements(items, mode, depth);
    return Value::list(std::move(items), "");
  }

  [[noreturn]] void untyped_array(std::size_t at) const {
    fail_at("an array without a type (JsonJacksonCodec reads an array as [\"<class>\", value])",
            at);
  }

  // In strict mode every array is a wrapper. In lenient mode, one whose class we know and whose
  // value starts as that class's does.
  bool is_wrapper(Mode mode, const std::string& java_class) const {
    if (mode == Mode::strict) return true;
    std::size_t at = pos_ + 1;
    while (at < in_.size() &&
           (in_[at] == ' ' || in_[at] == '\t' || in_[at] == '\n' || in_[at] == '\r')) {
      ++at;
    }
    const char next = at < in_.size() ? in_[at] : '\0';
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
    skip_space();
    const std::size_t at = pos_;
    if (const auto scalar = json_scalar_class(java_class); scalar != JsonScalarClass::none) {
      if (peek() == '[' || peek() == '{') fail("a " + java_class + " that is not a scalar");
      if (auto v = typed_scalar(scalar, value(mode, depth + 1))) return std::move(*v);
      fail_at("a value that does not fit " + java_class, at);
    }
    const auto* c = find_java_collection(java_class);
    if (c == nullptr) fail_at("cannot read Java class " + java_class.substr(0, 200), class_at);
    if (c->kind == ValueKind::map) fail_at(java_class + " written as an array", class_at);
    if (peek() != '[') fail("a " + java_class + " whose value is not an array");
    ++pos_;
    Value::List items = elements(mode, depth);
    if (c->kind == ValueKind::set) return Value::set(std::move(items), std::string(c->name));
    return Value::list(std::move(items), std::string(c->name));
  }

  // Array elements up to and including ']'; pos_ after '['.
  Value::List elements(Mode mode, int depth) {
    Value::List items;
    skip_space();
    if (peek() != ']') items.reserve(kInitialCapacity);
    if (peek() == ']') {
      ++pos_;
      return items;
    }
    items.push_back(value(mode, depth + 1));
    more_elements(items, mode, depth);
    return items;
  }

  // After an element: (',' element)* ']', appended to `items`.
  void more_elements(Value::List& items, Mode mode, int depth) {
    for (;;) {
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return;
      }
      if (peek() != ',') fail("expected ',' or ']' in an array");
      ++pos_;
      items.push_back(value(mode, depth + 1));
    }
  }

  // '{' at pos_.
  Value object(Mode mode, int depth) {
    const std::size_t start = pos_;
    ++pos_;
    if (mode == Mode::plain) {
      return Value::map(members(Mode::plain, depth, {}), "java.util.LinkedHashMap");
    }
    std::string java_class;
    const bool has_class = find_class(java_class);
    pos_ = start + 1;
    if (!has_class) {
      if (mode == Mode::strict) {
        fail_at("an object without \"@class\" (JsonJacksonCodec needs the class to read it)",
                start);
      }
      return Value::object("", members(Mode::lenient, depth, {}));
    }
    if (java_class.empty()) fail_at("an empty \"@class\"", start);
    const auto* c = find_java_collection(java_class);
    if (c != nullptr && c->kind != ValueKind::map) {
      fail_at(java_class + " written as an object", start);
    }
    if (json_scalar_class(java_class) != JsonScalarClass::none) {
      fail_at(java_class + " written as an object", start);
    }
    // A map's values are read as Object; an object's fields by their declared classes.
    const Mode inner = c != nullptr ? mode : Mode::lenient;
    return java_object_value(std::move(java_class), members(inner, depth, "@class"));
  }

  // Members up to and including '}', leaving out the first one named `skip`; pos_ after '{'.
  Value::Entries members(Mode mode, int depth, std::string_view skip) {
    Value::Entries entries;
    bool skipped = skip.empty();
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return entries;
    }
    entries.reserve(kInitialCapacity);
    for (;;) {
      skip_space();
      if (peek() != '"') fail("expected a member name in an object");
      std::string name = string();
      expect(':', "':' after a member name");
      if (!skipped && name == skip) {
        skipped = true;
        skip_value(depth + 1);
      } else {
        Value member = value(mode, depth + 1);
        entries.emplace_back(Value::string(std::move(name)), std::move(member));
      }
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return entries;
      }
      if (peek() != ',') fail("expected ',' or '}' in an object");
      ++pos_;
    }
  }

  // Looks for the "@class" member of the object whose '{' is just before pos_ (Jackson takes it
  // from anywhere in the object). Leaves pos_ anywhere.
  bool find_class(std::string& java_class) {
    skip_space();
    if (peek() == '}') return false;
    for (;;) {
      skip_space();
      if (peek() != '"') fail("expected a member name in an object");
      const bool is_class = string() == "@class";
      expect(':', "':' after a member name");
      skip_space();
      if (is_class) {
        if (peek() != '"') fail("an \"@class\" that is not a string");
        java_class = string();
        return true;
      }
      skip_value(1);
      skip_space();
      if (peek() == '}') return false;
      if (peek() != ',') fail("expected ',' or '}' in an object");
      ++pos_;
    }
  }

  // Steps over one value, checking its syntax only.
  void skip_value(int depth) {
    skip_space();
    check_depth(depth);
    const char c = peek();
    if (c == '"') {
      string();
    } else if (c == '[') {
      ++pos_;
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return;
      }
      for (;;) {
        skip_value(depth + 1);
        skip_space();
        if (peek() == ']') break;
        if (peek() != ',') fail("expected ',' or ']' in an array");
        ++pos_;
      }
      ++pos_;
    } else if (c == '{') {
      ++pos_;
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return;
      }
      for (;;) {
        skip_space();
        if (peek() != '"') fail("expected a member name in an object");
        string();
        expect(':', "':' after a member name");
        skip_value(depth + 1);
        skip_space();
        if (peek() == '}') break;
        if (peek() != ',') fail("expected ',' or '}' in an object");
        ++pos_;
      }
      ++pos_;
    } else {
      value(Mode::plain, depth);
    }
  }

  std::string_view in_;
  std::size_t pos_ = 0;
  Mode top_mode_;
};

}  // namespace

Value decode(std::string_view text, Dialect dialect) {
  Reader reader(text, dialect);
  return reader.top();
}

}  // namespace redisson::detail::json
