// json::encode: a Value as Jackson writes it for JsonJacksonCodec (typed) and
// TypedJsonJacksonCodec (plain): no spaces, NON_NULL (null map values and object fields left
// out), object fields sorted by name, Java's HashMap/HashSet iteration order.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "codec/base64.hpp"
#include "codec/java_classes.hpp"
#include "codec/java_hash_order.hpp"
#include "codec/json.hpp"
#include "codec/json_text.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::json {
namespace {

[[noreturn]] void fail(const std::string& what) { throw error(errc::codec_error, "json: " + what); }

void append_string(std::string_view s, std::string& out) {
  if (const auto bad = utf::invalid_at(s); bad != std::string_view::npos) {
    fail("the String is not UTF-8 (byte " + std::to_string(bad) + ")");
  }
  append_json_string(s, out);
}

std::string character_text(const Value& v) {
  const auto unit = static_cast<char32_t>(v.int_value());
  if (unit >= 0xD800 && unit <= 0xDFFF) fail("a Character that is half of a surrogate pair");
  std::string text;
  utf::append_utf8(unit, text);
  return text;
}

class Writer {
 public:
  Writer(std::string& out, Dialect dialect) : out_(out), typed_(dialect == Dialect::typed) {}

  // `in_object`: a field of an object (or below one), where Jackson writes by the field's
  // declared type, so a bare array or an object without "@class" can be right.
  void value(const Value& v, bool in_object, int depth) {
    if (typed_ && v.kind() == ValueKind::long_int) {
      // Redisson's typing writes every Long with its class, even though Long is final.
      out_ += "[\"java.lang.Long\",";
      append_java_boolean_or_integer(v, out_);
      out_ += ']';
      return;
    }
    if (append_java_boolean_or_integer(v, out_)) return;
    switch (v.kind()) {
      case ValueKind::null:
        out_ += "null";
        return;
      case ValueKind::float_num: {
        const auto x = static_cast<float>(v.double_value());
        const bool finite = x == x && x - x == 0;
        if (!finite) out_ += '"';
        out_ += java_float_text(x);
        if (!finite) out_ += '"';
        return;
      }
      case ValueKind::double_num:
        append_json_number(v.double_value(), out_);
        return;
      case ValueKind::character:
        append_json_string(character_text(v), out_);
        return;
      case ValueKind::string:
        append_string(v.text(), out_);
        return;
      case ValueKind::bytes:
        out_ += '"';
        out_ += base64_encode(v.text());
        out_ += '"';
        return;
      default:
        break;
    }
    if (depth >= kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth));
    if (v.kind() == ValueKind::object) {
      object(v, in_object, depth);
    } else if (v.kind() == ValueKind::map) {
      map(v, in_object, depth);
    } else {
      collection(v, in_object, depth);
    }
  }

 private:
  // The class a typed collection or map is written with; checked so that what is written can
  // be read back.
  static void check_class(const Value& v) { writable_collection(v, "json"); }

  void collection(const Value& v, bool in_object, int depth) {
    // A list without a class is an array Jackson wrote without type (a String[] field).
    const bool bare = !typed_ || (v.java_class().empty() && in_object);
    if (!bare) {
      check_class(v);
      out_ += "[\"";
      out_ += v.java_class();
      out_ += "\",";
    }
    out_ += '[';
    const JavaIterationOrder order(v);
    const auto& elements = v.elements();
    for (std::size_t i = 0; i < elements.size(); ++i) {
      if (i > 0) out_ += ',';
      value(elements[order[i]], in_object, depth + 1);
    }
    out_ += ']';
    if (!bare) out_ += ']';
  }

  void map(const Value& v, bool in_object, int depth) {
    out_ += '{';
    bool first = true;
    if (typed_) {
      check_class(v);
      out_ += "\"@class\":";
      append_json_string(v.java_class(), out_);
      first = false;
    }
    const JavaIterationOrder order(v);
    const auto& entries = v.entries();
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const auto& [key, entry] = entries[order[i]];
      if (entry.is_null()) continue;  // NON_NULL covers map contents too
      if (!first) out_ += ',';
      first = false;
      key_text(key);
      out_ += ':';
      value(entry, in_object, depth + 1);
    }
    out_ += '}';
  }

  // Jackson's key serializers: the key's text.
  void key_text(const Value& key) {
    if (std::string text; append_java_boolean_or_integer(key, text)) {
      append_json_string(text, out_);
      return;
    }
    switch (key.kind()) {
      case ValueKind::string:
        append_string(key.text(), out_);
        return;
      case ValueKind::float_num:
        append_json_string(java_float_text(static_cast<float>(key.double_value())), out_);
        return;
      case ValueKind::double_num:
        append_json_string(java_double_text(key.double_value()), out_);
        return;
      case ValueKind::character:
        append_json_string(character_text(key), out_);
        return;
      case ValueKind::null:
        fail("a null map key (JSON has no null key; Jackson refuses it too)");
      default:
        fail("a " + std::string(kind_name(key.kind())) +
             " as a map key (JSON keys are text: strings, numbers, booleans)");
    }
  }

  void object(const Value& v, bool in_object, int depth) {
    const auto& fields = v.entries();
    for (const auto& [name, field] : fields) {
      if (name.kind() != ValueKind::string) fail("an object field named by a non-String");
    }
    out_ += '{';
    bool first = true;
    if (typed_) {
      if (!v.java_class().empty()) {
        out_ += "\"@class\":";
        append_string(v.java_class(), out_);
        first = false;
      } else if (!in_object) {
        fail(
            "an object without a Java class (only a field of another object may be one: "
            "Jackson reads an object without \"@class\" by the field's declared class)");
      }
    }
    // SORT_PROPERTIES_ALPHABETICALLY: Java's String order of the names.
    std::array<std::uint32_t, 16> inline_order{};
    std::vector<std::uint32_t> heap_order;
    std::uint32_t* order = inline_order.data();
    if (fields.size() > inline_order.size()) {
      heap_order.resize(fields.size());
      order = heap_order.data();
    }
    for (std::size_t i = 0; i < fields.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
    const auto before = [&](std::uint32_t a, std::uint32_t b) {
      return utf::compare_utf16(fields[a].first.text(), fields[b].first.text()) < 0;
    };
    if (fields.size() <= inline_order.size()) {
      // Insertion sort: stable, and no buffer to allocate (std::stable_sort takes one).
      for (std::size_t i = 1; i < fields.size(); ++i) {
        const std::uint32_t moving = order[i];
        std::size_t j = i;
        for (; j > 0 && before(moving, order[j - 1]); --j) order[j] = order[j - 1];
        order[j] = moving;
      }
    } else {
      std::stable_sort(order, order + fields.size(), before);
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto& [name, field] = fields[order[i]];
      if (field.is_null()) continue;  // NON_NULL
      if (!first) out_ += ',';
      first = false;
      append_string(name.text(), out_);
      out_ += ':';
      value(field, true, depth + 1);
    }
    out_ += '}';
  }

  std::string& out_;
  bool typed_;
};

}  // namespace

void encode(const Value& value, std::string& out, Dialect dialect) {
  Writer writer(out, dialect);
  writer.value(value, false, 0);
}

}  // namespace redisson::detail::json
