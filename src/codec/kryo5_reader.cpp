// kryo5::decode: what Kryo5Codec's readClassAndObject reads, as a Value.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codec/java_classes.hpp"
#include "codec/kryo5.hpp"
#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::kryo5 {
namespace {

// A class read from a header: a registered id, byte[] or a collection class.
constexpr std::uint8_t kBytesClass = 0xFE;
constexpr std::uint8_t kCollectionClass = 0xFF;

struct ClassRef {
  std::uint8_t id = kNull;
  const JavaCollectionClass* collection = nullptr;

  // The serializer reads null itself (String, byte[], collections and maps).
  bool accepts_null() const noexcept {
    return id == kString || id == kBytesClass ||
           (id == kCollectionClass && collection->layout != KryoLayout::empty &&
            collection->layout != KryoLayout::singleton);
  }
};

class Reader {
 public:
  Reader(std::string_view in, std::size_t min_value_budget)
      : in_(in), budget_(std::max(min_value_budget, in.size())) {}

  Value top() {
    Value v = value(0);
    if (pos_ != in_.size()) {
      fail(std::to_string(in_.size() - pos_) + " bytes after the value", pos_);
    }
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::size_t at) const {
    throw error(errc::codec_error, "kryo5: " + what + " at offset " + std::to_string(at));
  }
  [[noreturn]] void truncated(std::string_view what) const {
    fail("truncated " + std::string(what), in_.size());
  }

  std::uint8_t byte(std::string_view what) {
    if (pos_ >= in_.size()) truncated(what);
    return static_cast<std::uint8_t>(in_[pos_++]);
  }

  std::uint64_t little_endian(int bytes, std::string_view what) {
    if (in_.size() - pos_ < static_cast<std::size_t>(bytes)) truncated(what);
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
      v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in_[pos_ + i])) << (8 * i);
    }
    pos_ += static_cast<std::size_t>(bytes);
    return v;
  }

  // Input.readVarInt: at most 5 bytes; bits past 32 are dropped, as Java does.
  std::uint32_t varint(std::string_view what) {
    std::uint32_t result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      const std::uint8_t b = byte(what);
      result |= static_cast<std::uint32_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) break;
    }
    return result;
  }

  // Input.readVarIntFlag: 6 bits in the first byte, bit 6 says more follow.
  std::uint32_t varint_flag(std::string_view what) {
    const std::uint8_t b = byte(what);
    const std::uint32_t low = b & 0x3F;
    if ((b & 0x40) == 0) return low;
    std::uint32_t result = low;
    int shift = 6;
    for (int i = 0; i < 4; ++i) {
      const std::uint8_t next = byte(what);
      result |= static_cast<std::uint32_t>(next & 0x7F) << shift;
      if ((next & 0x80) == 0) break;
      shift += 7;
    }
    return result;
  }

  // Input.readVarLong: 8 bytes of 7 bits, then a 9th of 8 bits.
  std::uint64_t varlong(std::string_view what) {
    std::uint64_t result = 0;
    for (int i = 0; i < 8; ++i) {
      const std::uint8_t b = byte(what);
      result |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) return result;
    }
    return result | static_cast<std::uint64_t>(byte(what)) << 56;
  }

  // A size as Java's int: above 2^31 - 1 it is negative, which Java cannot read either.
  std::size_t size_at_most_int(std::uint32_t v, std::size_t at) const {
    if (v > 0x7FFFFFFF) fail("negative size " + std::to_string(static_cast<std::int32_t>(v)), at);
    return v;
  }

  void count_value(std::size_t at) {
    if (++values_ > budget_) {
      fail("more than " + std::to_string(budget_) + " values (a damaged size?)", at);
    }
  }

  // Input.readString into UTF-8; nullopt for null.
  std::optional<std::string> string_body() {
    const std::size_t start = pos_;
    if (pos_ >= in_.size()) truncated("String");
    std::string out;
    if ((static_cast<std::uint8_t>(in_[pos_]) & 0x80) == 0) {
      // ASCII, the last byte flagged with 0x80.
      std::size_t end = pos_;
      while (end < in_.size() && (static_cast<std::uint8_t>(in_[end]) & 0x80) == 0) ++end;
      if (end == in_.size()) truncated("String");
      out.assign(in_.data() + pos_, end - pos_ + 1);
      out.back() = static_cast<char>(out.back() & 0x7F);
      pos_ = end + 1;
      return out;
    }
    const std::size_t length = size_at_most_int(varint_flag("String length"), start);
    if (length == 0) return std::nullopt;
    const std::size_t units = length - 1;
    out.reserve(std::min(units, in_.size() - pos_));
    utf::Utf16ToUtf8 utf8(out);
    for (std::size_t i = 0; i < units; ++i) {
      const std::size_t at = pos_;
      const std::uint8_t b = byte("String");
      char16_t unit = 0;
      switch (b >> 4) {
        case 12:
        case 13:
          unit = static_cast<char16_t>((b & 0x1F) << 6 | (byte("String") & 0x3F));
          break;
        case 14: {
          const std::uint8_t b2 = byte("String");
          unit =
              static_cast<char16_t>((b & 0x0F) << 12 | (b2 & 0x3F) << 6 | (byte("String") & 0x3F));
          break;
        }
        default:
          if (b >= 0x80) fail("byte " + std::to_string(b) + " cannot start a String character", at);
          unit = b;
      }
      if (!utf8.add(unit)) fail("a String with an unpaired UTF-16 surrogate", at);
    }
    if (!utf8.finish()) fail("a String ending in an unpaired UTF-16 surrogate", pos_);
    return out;
  }

  // DefaultClassResolver.readClass; id kNull for null.
  ClassRef read_class() {
    const std::size_t at = pos_;
    const std::uint32_t id = varint("class");
    if (id == kNull) return {};
    if (id >= kInt && id <= kDouble) return {static_cast<std::uint8_t>(id)};
    if (id != kNamed) {
      fail("class id " + std::to_string(id - 2) +
               " is not registered (Redisson's Kryo5Codec registers only Java's primitives and "
               "String unless given allowed classes)",
           at);
    }
    const std::uint32_t name_id = varint("class name id");
    for (const auto& [known_id, known] : names_) {
      if (known_id == name_id) return known;
    }
    // A name id seen for the first time: the class name follows.
    const std::size_t name_at = pos_;
    const auto name = string_body();
    if (!name) fail("a null class name", name_at);
    ClassRef ref;
    if (*name == kByteArrayClass) {
      ref.id = kBytesClass;
    } else if (const auto* c = find_java_collection(*name)) {
      ref = {kCollectionClass, c};
    } else {
      const std::size_t shown = std::min<std::size_t>(name->size(), 200);
      fail("cannot read Java class " + name->substr(0, shown), name_at);
    }
    names_.emplace_back(name_id, ref);
    return ref;
  }

  // Kryo.readClassAndObject.
  Value value(int depth) {
    count_value(pos_);
    const ClassRef c = read_class();
    if (c.id == kNull) return {};
    return body(c, depth);
  }

  // The serializer's read for class `c`.
  Value body(const ClassRef& c, int depth) {
    switch (c.id) {
      case kInt: {
        const std::uint32_t n = varint("Integer");
        return Value::integer(static_cast<std::int32_t>((n >> 1) ^ (0U - (n & 1))));
      }
      case kLong: {
        const std::uint64_t n = varlong("Long");
        return Value::long_int(static_cast<std::int64_t>((n >> 1) ^ (0ULL - (n & 1))));
      }
      case kString: {
        auto s = string_body();
        return s ? Value::string(std::move(*s)) : Value{};
      }
      case kBoolean:
        return Value::boolean(byte("Boolean") == 1);  // Input.readBoolean: only 1 is true
      case kByte:
        return Value::byte(static_cast<std::int8_t>(byte("Byte")));
      case kShort:
        return Value::short_int(static_cast<std::int16_t>(little_endian(2, "Short")));
      case kChar:
        return Value::character(static_cast<char16_t>(little_endian(2, "Character")));
      case kFloat:
        return Value::float_num(
            std::bit_cast<float>(static_cast<std::uint32_t>(little_endian(4, "Float"))));
      case kDouble:
        return Value::double_num(std::bit_cast<double>(little_endian(8, "Double")));
      case kBytesClass: {
        const std::size_t at = pos_;
        const std::size_t length = size_at_most_int(varint("byte[] length"), at);
        if (length == 0) return {};
        if (in_.size() - pos_ < length - 1) truncated("byte[]");
        Value bytes = Value::bytes_from(in_.substr(pos_, length - 1));
        pos_ += length - 1;
        return bytes;
      }
      default:
        break;
    }
    if (depth >= kMaxDepth) fail("values nested deeper than " + std::to_string(kMaxDepth), pos_);
    const JavaCollectionClass& jc = *c.collection;
    switch (jc.layout) {
      case KryoLayout::map:
      case KryoLayout::map_comparator:
        return map(jc, depth);
      case KryoLayout::empty:
        return make(jc, {}, {});
      case KryoLayout::singleton:
        return singleton(jc, depth);
      default:
        return collection(jc, depth);
    }
  }

  static Value make(const JavaCollectionClass& c, Value::List elements, Value::Entries entries) {
    std::string name(c.name);
    if (c.kind == ValueKind::map) return Value::map(std::move(entries), std::move(name));
    if (c.kind == ValueKind::set) return Value::set(std::move(elements), std::move(name));
    return Value::list(std::move(elements), std::move(name));
  }

  static bool rejects_null(const JavaCollectionClass& c) {
    return c.name.starts_with("java.util.ImmutableCollections$");
  }

  // TreeSet, TreeMap, PriorityQueue: their comparator, which must be null (natural order).
  void comparator(const JavaCollectionClass& c, int depth) {
    const std::size_t at = pos_;
    if (!value(depth + 1).is_null()) {
      fail("a " + std::string(c.name) + " with a comparator (only natural order is read)", at);
    }
  }

  // CollectionSerializer.read.
  Value collection(const JavaCollectionClass& c, int depth) {
    const std::size_t at = pos_;
    if (pos_ >= in_.size()) truncated("collection size");
    const bool same_class = (static_cast<std::uint8_t>(in_[pos_]) & 0x80) != 0;
    const std::size_t length = size_at_most_int(varint_flag("collection size"), at);
    if (length == 0) return {};
    if (c.layout == KryoLayout::collection_comparator) comparator(c, depth);
    const std::size_t n = length - 1;
    Value::List elements;
    elements.reserve(std::min(n, in_.size() - pos_));
    if (n > 0 && same_class) {
      const ClassRef element_class = read_class();
      if (element_class.id == kNull) {  // all null
        for (std::size_t i = 0; i < n; ++i) {
          count_value(pos_);
          elements.emplace_back();
        }
      } else {
        bool nulls_marked = c.layout != KryoLayout::collection_no_nulls;
        if (nulls_marked) nulls_marked = byte("collection") == 1;
        for (std::size_t i = 0; i < n; ++i) {
          count_value(pos_);
          if (nulls_marked && !element_class.accepts_null() && byte("collection") == 0) {
            elements.emplace_back();
          } else {
            elements.push_back(body(element_class, depth + 1));
          }
        }
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) elements.push_back(value(depth + 1));
    }
    if (rejects_null(c)) {
      for (const auto& e : elements) {
        if (e.is_null()) fail(std::string(c.name) + " holding null", at);
      }
    }
    return make(c, std::move(elements), {});
  }

  // MapSerializer.read.
  Value map(const JavaCollectionClass& c, int depth) {
    const std::size_t at = pos_;
    const std::size_t length = size_at_most_int(varint("map size"), at);
    if (length == 0) return {};
    if (c.layout == KryoLayout::map_comparator) comparator(c, depth);
    const std::size_t n = length - 1;
    Value::Entries entries;
    entries.reserve(std::min(n, (in_.size() - pos_) / 2));
    for (std::size_t i = 0; i < n; ++i) {
      Value key = value(depth + 1);
      Value entry = value(depth + 1);
      if (rejects_null(c) && (key.is_null() || entry.is_null())) {
        fail(std::string(c.name) + " holding null", at);
      }
      entries.emplace_back(std::move(key), std::move(entry));
    }
    return make(c, {}, std::move(entries));
  }

  // Collections.singletonList/singleton: the element; singletonMap: key and value.
  Value singleton(const JavaCollectionClass& c, int depth) {
    if (c.kind != ValueKind::map) {
      Value::List elements;
      elements.push_back(value(depth + 1));
      return make(c, std::move(elements), {});
    }
    Value key = value(depth + 1);
    Value entry = value(depth + 1);
    Value::Entries entries;
    entries.emplace_back(std::move(key), std::move(entry));
    return make(c, {}, std::move(entries));
  }

  std::string_view in_;
  std::size_t pos_ = 0;
  std::size_t values_ = 0;
  std::size_t budget_;
  // Name ids read so far in this value and their classes.
  std::vector<std::pair<std::uint32_t, ClassRef>> names_;
};

}  // namespace

Value decode(std::string_view bytes, std::size_t min_value_budget) {
  Reader reader(bytes, min_value_budget);
  return reader.top();
}

}  // namespace redisson::detail::kryo5
