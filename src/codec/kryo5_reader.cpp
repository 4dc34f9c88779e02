// kryo5::decode: what Kryo5Codec's readClassAndObject reads, as a Value.
#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codec/java_classes.hpp"
#include "codec/kryo5.hpp"
#include "codec/kryo5_input.hpp"
#include "redisson/error.hpp"

namespace redisson::detail::kryo5 {
namespace {

// A class read from a header: a registered id, byte[] or a collection class.
constexpr std::uint8_t kBytesClass = 0xFE;
constexpr std::uint8_t kCollectionClass = 0xFF;
// A class this decoder does not read (one the enclosing message named before, see prefix()).
constexpr std::uint8_t kForeignClass = 0xFD;

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

class Reader : public Input {
 public:
  Reader(std::string_view in, std::size_t min_value_budget, std::size_t pos = 0)
      : Input(in, pos), budget_(std::max(min_value_budget, in.size())) {}

  Value top() {
    Value v = value(0);
    if (pos_ != in_.size()) {
      fail(std::to_string(in_.size() - pos_) + " bytes after the value", pos_);
    }
    return v;
  }

  /// One value from the position on, inside a message that named `names` before it; records
  /// where each class-by-name header is (offsets from the value's start).
  ValuePrefix prefix(ClassNames& names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      names_.push_back({static_cast<std::uint32_t>(i), class_named(names[i]), names[i]});
    }
    const std::size_t start = pos_;
    ValuePrefix out;
    classes_ = &out.classes;
    value_start_ = start;
    out.value = value(0);
    out.size = pos_ - start;
    // Kryo numbers the names of a message 0, 1, 2, ... in the order it writes them.
    for (std::size_t i = names.size(); i < names_.size(); ++i) {
      if (names_[i].id != names.size()) {
        fail("class name id " + std::to_string(names_[i].id) + " out of sequence", start);
      }
      names.push_back(names_[i].name);
    }
    return out;
  }

 private:
  void count_value(std::size_t at) {
    if (++values_ > budget_) {
      fail("more than " + std::to_string(budget_) + " values (a damaged size?)", at);
    }
  }

  static ClassRef class_named(const std::string& name) {
    if (name == kByteArrayClass) return {kBytesClass};
    if (const auto* c = find_java_collection(name)) return {kCollectionClass, c};
    return {kForeignClass};
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
    for (const auto& known : names_) {
      if (known.id != name_id) continue;
      if (known.ref.id == kForeignClass) fail("cannot read Java class " + known.name, at);
      record(at, known.name);
      return known.ref;
    }
    // A name id seen for the first time: the class name follows.
    const std::size_t name_at = pos_;
    auto name = string();
    if (!name) fail("a null class name", name_at);
    const ClassRef ref = class_named(*name);
    if (ref.id == kForeignClass) {
      const std::size_t shown = std::min<std::size_t>(name->size(), 200);
      fail("cannot read Java class " + name->substr(0, shown), name_at);
    }
    record(at, *name);
    names_.push_back({name_id, ref, std::move(*name)});
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
        auto s = string();
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

  void record(std::size_t at, const std::string& name) {
    if (classes_ != nullptr) classes_->push_back({at - value_start_, pos_ - value_start_, name});
  }

  std::size_t values_ = 0;
  std::size_t budget_;
  struct NamedRef {
    std::uint32_t id;
    ClassRef ref;
    std::string name;
  };
  // Name ids read so far in this value (or message) and their classes.
  std::vector<NamedRef> names_;
  // prefix(): where the class-by-name headers are.
  std::vector<NamedClass>* classes_ = nullptr;
  std::size_t value_start_ = 0;
};

}  // namespace

Value decode(std::string_view bytes, std::size_t min_value_budget) {
  Reader reader(bytes, min_value_budget);
  return reader.top();
}

ValuePrefix read_value_at(std::string_view bytes, std::size_t offset, ClassNames& names,
                          std::size_t min_value_budget) {
  Reader reader(bytes, min_value_budget, offset);
  return reader.prefix(names);
}

}  // namespace redisson::detail::kryo5
