// kryo5::encode: a Value as Kryo5Codec's writeClassAndObject writes it.
#include <array>
#include <bit>
#include <string>
#include <vector>

#include "codec/java_classes.hpp"
#include "codec/java_hash_order.hpp"
#include "codec/kryo5.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::kryo5 {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw error(errc::codec_error, "kryo5: " + what);
}

/// The Java class of a non-null value as Kryo sees it: a registered id, or a name.
struct KryoClass {
  std::uint8_t id = kNamed;
  std::string_view name;                            // for kNamed
  const JavaCollectionClass* collection = nullptr;  // for collections and maps

  bool operator==(const KryoClass& other) const noexcept {
    return id == other.id && name == other.name;
  }
  /// Its serializer writes null itself (String, byte[], collections and maps), so an element
  /// needs no 00/01 marker in a collection that has nulls.
  bool accepts_null() const noexcept {
    if (id == kString) return true;
    if (id != kNamed) return false;
    return collection == nullptr ||
           (collection->layout != KryoLayout::empty && collection->layout != KryoLayout::singleton);
  }
};

bool rejects_null(const JavaCollectionClass& c) noexcept {
  return c.name.starts_with("java.util.ImmutableCollections$");
}

KryoClass scalar(std::uint8_t id) {
  KryoClass k;
  k.id = id;
  return k;
}

KryoClass class_of(const Value& v) {
  switch (v.kind()) {
    case ValueKind::boolean:
      return scalar(kBoolean);
    case ValueKind::byte:
      return scalar(kByte);
    case ValueKind::short_int:
      return scalar(kShort);
    case ValueKind::character:
      return scalar(kChar);
    case ValueKind::integer:
      return scalar(kInt);
    case ValueKind::long_int:
      return scalar(kLong);
    case ValueKind::float_num:
      return scalar(kFloat);
    case ValueKind::double_num:
      return scalar(kDouble);
    case ValueKind::string:
      return scalar(kString);
    case ValueKind::bytes:
      return {kNamed, kByteArrayClass};
    case ValueKind::object:
      fail("cannot write " + v.java_class() + ": use the json codec (Kryo writes a Java class's " +
           "fields in its own layout, which needs the class)");
    case ValueKind::list:
    case ValueKind::set:
    case ValueKind::map:
      break;
    case ValueKind::null:
      fail("null has no class");
  }
  const auto& c = writable_collection(v, "kryo5");
  return {kNamed, c.name, &c};
}

// DefaultClassResolver.writeName: 01, the name id and, the first time (`name` not empty), the
// name by Output.writeAscii (class names are ASCII and longer than one character).
void named_header(std::uint32_t name_id, std::string_view name, std::string& out) {
  out += static_cast<char>(kNamed);
  put_varint(out, name_id);
  if (name.empty()) return;
  out += name;
  out.back() = static_cast<char>(out.back() | 0x80);
}

// Output.writeString.
void string_body(std::string_view s, std::string& out) {
  const std::size_t n = s.size();
  if (n == 0) {
    out += static_cast<char>(0x81);
    return;
  }
  std::size_t ascii = 0;
  while (ascii < n && static_cast<unsigned char>(s[ascii]) < 0x80) ++ascii;
  if (ascii == n && n >= 2 && n <= 32) {
    out += s;
    out.back() = static_cast<char>(out.back() | 0x80);
    return;
  }
  // The UTF-16 length, then the units as Java's modified UTF-8 without its special NUL:
  // the bytes of UTF-8 except that a supplementary character becomes two 3-byte surrogates.
  std::size_t units = ascii;
  bool supplementary = false;
  for (std::size_t at = ascii; at < n;) {
    const std::size_t start = at;
    const char32_t c = utf::next_code_point(s, at);
    if (c == utf::kInvalid) fail("the String is not UTF-8 (byte " + std::to_string(start) + ")");
    units += c < 0x10000 ? 1 : 2;
    supplementary |= c >= 0x10000;
  }
  put_varint_flag(out, true, static_cast<std::uint32_t>(units + 1));
  if (!supplementary) {
    out += s;
    return;
  }
  for (std::size_t at = 0; at < n;) {
    const std::size_t start = at;
    const char32_t c = utf::next_code_point(s, at);
    if (c < 0x10000) {
      out.append(s.substr(start, at - start));
      continue;
    }
    const char32_t v = c - 0x10000;
    for (const char32_t unit : {0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF)}) {
      out += static_cast<char>(0xE0 | (unit >> 12));
      out += static_cast<char>(0x80 | ((unit >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (unit & 0x3F));
    }
  }
}

// The body of a value of a registered class (or byte[]); false for collections and maps.
bool scalar_body(const Value& v, std::string& out) {
  switch (v.kind()) {
    case ValueKind::boolean:
      out += static_cast<char>(v.bool_value() ? 1 : 0);
      return true;
    case ValueKind::byte:
      out += static_cast<char>(v.int_value());
      return true;
    case ValueKind::short_int:
    case ValueKind::character:
      put_little_endian(out, static_cast<std::uint64_t>(v.int_value()), 2);
      return true;
    case ValueKind::integer:
      put_varint(out, zigzag(static_cast<std::int32_t>(v.int_value())));
      return true;
    case ValueKind::long_int:
      put_varlong(out, zigzag(v.int_value()));
      return true;
    case ValueKind::float_num: {
      // Float.floatToIntBits / Double.doubleToLongBits: one NaN.
      const auto x = static_cast<float>(v.double_value());
      put_little_endian(out, x != x ? 0x7fc00000U : std::bit_cast<std::uint32_t>(x), 4);
      return true;
    }
    case ValueKind::double_num: {
      const double x = v.double_value();
      put_little_endian(out, x != x ? 0x7ff8000000000000ULL : std::bit_cast<std::uint64_t>(x), 8);
      return true;
    }
    case ValueKind::string:
      string_body(v.text(), out);
      return true;
    case ValueKind::bytes:
      put_varint(out, static_cast<std::uint32_t>(v.text().size() + 1));
      out += v.text();
      return true;
    default:
      return false;
  }
}

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  // Kryo.writeClassAndObject.
  void value(const Value& v, int depth) {
    if (v.is_null()) {
      out_ += static_cast<char>(kNull);
      return;
    }
    const KryoClass k = class_of(v);
    class_header(k);
    body(v, k, depth);
  }

 private:
  void class_header(const KryoClass& k) {
    if (k.id != kNamed) {
      out_ += static_cast<char>(k.id);
      return;
    }
    // A name id per class, numbered from 0 within one value; the name itself only the first
    // time.
    const std::size_t count = name_count_ + more_names_.size();
    for (std::size_t i = 0; i < count; ++i) {
      if ((i < kInlineNames ? names_[i] : more_names_[i - kInlineNames]) == k.name) {
        named_header(static_cast<std::uint32_t>(i), {}, out_);
        return;
      }
    }
    named_header(static_cast<std::uint32_t>(count), k.name, out_);
    if (name_count_ < kInlineNames) {
      names_[name_count_++] = k.name;
    } else {
      more_names_.push_back(k.name);
    }
  }

  void body(const Value& v, const KryoClass& k, int depth) {
    if (scalar_body(v, out_)) return;
    if (depth >= kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth));
    const JavaCollectionClass& c = *k.collection;
    switch (c.layout) {
      case KryoLayout::map:
      case KryoLayout::map_comparator:
        map(v, c, depth);
        return;
      case KryoLayout::empty:
      case KryoLayout::singleton:
        fixed_size(v, c, depth);
        return;
      default:
        collection(v, c, depth);
        return;
    }
  }

  // The body of an element whose class the collection header named: what Kryo's writeObject
  // or writeObjectOrNull writes.
  void element(const Value& e, const KryoClass& k, bool nulls_marked, int depth) {
    if (nulls_marked && !k.accepts_null()) {
      out_ += static_cast<char>(e.is_null() ? 0 : 1);
      if (e.is_null()) return;
    }
    if (!e.is_null()) {
      body(e, k, depth + 1);
    } else if (k.id == kString) {
      out_ += static_cast<char>(0x80);
    } else {
      out_ += static_cast<char>(0);  // byte[], collections and maps: size 0 is null
    }
  }

  static void check_nulls(const JavaCollectionClass& c, bool has_null) {
    if (has_null && rejects_null(c)) fail(std::string(c.name) + " cannot hold null");
  }

  // CollectionSerializer.write.
  void collection(const Value& v, const JavaCollectionClass& c, int depth) {
    const auto& elements = v.elements();
    const std::size_t n = elements.size();
    const bool comparator = c.layout == KryoLayout::collection_comparator;
    if (n == 0) {
      out_ += static_cast<char>(1);
      if (comparator) out_ += static_cast<char>(kNull);
      return;
    }
    // One class for all non-null elements lets Kryo write it once.
    KryoClass first;
    bool found = false;
    bool same = true;
    bool has_null = false;
    for (const auto& e : elements) {
      if (e.is_null()) {
        has_null = true;
        continue;
      }
      const KryoClass k = class_of(e);
      if (!found) {
        first = k;
        found = true;
      } else if (!(k == first)) {
        same = false;
      }
    }
    check_nulls(c, has_null);
    put_varint_flag(out_, same, static_cast<std::uint32_t>(n + 1));
    if (comparator) out_ += static_cast<char>(kNull);
    const JavaIterationOrder order(v);
    if (!same) {
      for (std::size_t i = 0; i < n; ++i) value(elements[order[i]], depth + 1);
      return;
    }
    if (!found) {  // all null
      out_ += static_cast<char>(kNull);
      return;
    }
    class_header(first);
    bool nulls_marked = false;
    if (c.layout != KryoLayout::collection_no_nulls) {
      out_ += static_cast<char>(has_null ? 1 : 0);
      nulls_marked = has_null;
    }
    for (std::size_t i = 0; i < n; ++i) element(elements[order[i]], first, nulls_marked, depth);
  }

  // MapSerializer.write.
  void map(const Value& v, const JavaCollectionClass& c, int depth) {
    const auto& entries = v.entries();
    const std::size_t n = entries.size();
    put_varint(out_, static_cast<std::uint32_t>(n + 1));
    if (c.layout == KryoLayout::map_comparator) out_ += static_cast<char>(kNull);
    const JavaIterationOrder order(v);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& [key, entry] = entries[order[i]];
      check_nulls(c, key.is_null() || entry.is_null());
      value(key, depth + 1);
      value(entry, depth + 1);
    }
  }

  // Collections.emptyXxx() (no body) and singletonXxx() (the element, or key and value).
  void fixed_size(const Value& v, const JavaCollectionClass& c, int depth) {
    const bool is_map = c.kind == ValueKind::map;
    const std::size_t n = is_map ? v.entries().size() : v.elements().size();
    const std::size_t expected = c.layout == KryoLayout::empty ? 0 : 1;
    if (n != expected) {
      fail(std::string(c.name) + " holds " + std::to_string(expected) +
           (is_map ? " entries" : " elements") + ", not " + std::to_string(n));
    }
    if (n == 0) return;
    if (is_map) {
      value(v.entries()[0].first, depth + 1);
      value(v.entries()[0].second, depth + 1);
    } else {
      value(v.elements()[0], depth + 1);
    }
  }

  std::string& out_;
  // Class names written so far in this value (their index is their name id): a few per value,
  // kept without allocating.
  static constexpr std::size_t kInlineNames = 8;
  std::array<std::string_view, kInlineNames> names_{};
  std::size_t name_count_ = 0;
  std::vector<std::string_view> more_names_;
};

}  // namespace

void encode(const Value& value, std::string& out) {
  // A scalar needs none of the class-name bookkeeping.
  if (value.is_null()) {
    out += static_cast<char>(kNull);
    return;
  }
  // (The kinds before `bytes` in ValueKind are the classes Kryo registers: String and the boxed
  // primitives.)
  if (value.kind() < ValueKind::bytes) {
    out += static_cast<char>(class_of(value).id);
    scalar_body(value, out);
    return;
  }
  Writer writer(out);
  writer.value(value, 0);
}

void put_string(std::string_view utf8, std::string& out) { string_body(utf8, out); }

void put_class_header(ClassNames& names, std::string_view name, std::string& out) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      named_header(static_cast<std::uint32_t>(i), {}, out);
      return;
    }
  }
  named_header(static_cast<std::uint32_t>(names.size()), name, out);
  names.emplace_back(name);
}

void append_renamed(std::string_view value_bytes, const std::vector<NamedClass>& classes,
                    ClassNames& names, std::string& out) {
  std::size_t copied = 0;
  for (const auto& c : classes) {
    out.append(value_bytes.substr(copied, c.begin - copied));
    put_class_header(names, c.name, out);
    copied = c.end;
  }
  out.append(value_bytes.substr(copied));
}

}  // namespace redisson::detail::kryo5
