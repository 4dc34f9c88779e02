// Java Object Serialization Stream Protocol (JDK's serialization spec, section 6.4): the stream
// header, then TC_OBJECT, the class descriptor chain (the class, its serializable superclasses up
// to java.lang.Throwable) and the field values, superclass first. Throwable's fields in stream
// order are cause, detailMessage, stackTrace, suppressedExceptions; an exception without a cause
// has cause = itself, a back reference.
#include "codec/java_serialization.hpp"

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "codec/utf.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {
namespace {

constexpr std::uint8_t kTcNull = 0x70;
constexpr std::uint8_t kTcReference = 0x71;
constexpr std::uint8_t kTcClassDesc = 0x72;
constexpr std::uint8_t kTcObject = 0x73;
constexpr std::uint8_t kTcString = 0x74;
constexpr std::uint8_t kTcArray = 0x75;
constexpr std::uint8_t kTcEndBlockData = 0x78;
constexpr std::uint8_t kTcLongString = 0x7C;
constexpr std::string_view kStreamHeader("\xAC\xED\x00\x05", 4);  // magic, version

struct FieldDesc {
  char type = 0;
  std::string name;
};

// A cursor that turns every malformed or unexpected byte into "give up" (false / nullopt).
class JavaStream {
 public:
  explicit JavaStream(std::string_view in) : in_(in) {}

  bool header() { return skip_prefix(kStreamHeader); }
  bool tag(std::uint8_t expected) {
    if (pos_ >= in_.size() || static_cast<std::uint8_t>(in_[pos_]) != expected) return false;
    ++pos_;
    return true;
  }
  bool skip(std::size_t n) {
    if (in_.size() - pos_ < n) return false;
    pos_ += n;
    return true;
  }
  std::optional<std::uint64_t> big_endian(int bytes) {
    if (in_.size() - pos_ < static_cast<std::size_t>(bytes)) return std::nullopt;
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<std::uint8_t>(in_[pos_++]);
    return v;
  }
  // DataOutput.writeUTF: a length, then modified UTF-8 (NUL as C0 80, a supplementary character
  // as two 3-byte surrogates).
  std::optional<std::string> utf(int length_bytes) {
    const auto length = big_endian(length_bytes);
    if (!length || in_.size() - pos_ < *length) return std::nullopt;
    const std::string_view bytes = in_.substr(pos_, *length);
    pos_ += *length;
    std::string out;
    utf::Utf16ToUtf8 utf8(out);
    for (std::size_t i = 0; i < bytes.size();) {
      const auto b = static_cast<std::uint8_t>(bytes[i]);
      const std::size_t size = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : 0;
      if (size == 0 || bytes.size() - i < size) return std::nullopt;
      char16_t unit = size == 1 ? b : size == 2 ? (b & 0x1F) : (b & 0x0F);
      for (std::size_t k = 1; k < size; ++k) {
        const auto next = static_cast<std::uint8_t>(bytes[i + k]);
        if ((next & 0xC0) != 0x80) return std::nullopt;
        unit = static_cast<char16_t>(unit << 6 | (next & 0x3F));
      }
      if (!utf8.add(unit)) return std::nullopt;
      i += size;
    }
    if (!utf8.finish()) return std::nullopt;
    return out;
  }

  // classDesc: TC_CLASSDESC name uid flags fields annotation(TC_ENDBLOCKDATA) superClassDesc,
  // ending in TC_NULL; the fields of the last class of the chain (the topmost superclass).
  std::optional<std::vector<FieldDesc>> class_chain() {
    std::vector<FieldDesc> fields;
    for (int depth = 0; depth < 64; ++depth) {
      if (tag(kTcNull)) return fields;
      if (!tag(kTcClassDesc) || !utf(2) || !skip(8 + 1)) return std::nullopt;
      const auto count = big_endian(2);
      if (!count) return std::nullopt;
      fields.clear();
      for (std::uint64_t i = 0; i < *count; ++i) {
        FieldDesc field;
        if (pos_ >= in_.size()) return std::nullopt;
        field.type = in_[pos_++];
        auto name = utf(2);
        if (!name) return std::nullopt;
        field.name = std::move(*name);
        if ((field.type == 'L' || field.type == '[') && !type_name()) return std::nullopt;
        fields.push_back(std::move(field));
      }
      if (!tag(kTcEndBlockData)) return std::nullopt;
    }
    return std::nullopt;
  }

 private:
  bool skip_prefix(std::string_view prefix) {
    if (in_.substr(pos_, prefix.size()) != prefix) return false;
    pos_ += prefix.size();
    return true;
  }
  // A field's type name: a new string or a back reference to one.
  bool type_name() {
    if (tag(kTcReference)) return skip(4);
    return tag(kTcString) && utf(2).has_value();
  }

  std::string_view in_;
  std::size_t pos_ = 0;
};

// ObjectOutputStream's side: the bytes of a RuntimeException, field by field.
class JavaStreamWriter {
 public:
  // ObjectStreamClass flags.
  static constexpr std::uint8_t kWriteMethod = 0x01;
  static constexpr std::uint8_t kSerializable = 0x02;

  explicit JavaStreamWriter(std::string& out) : out_(out) {}

  void tag(std::uint8_t t) { out_ += static_cast<char>(t); }
  void big_endian(std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out_ += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  // writeUTF of an ASCII name.
  void ascii(std::string_view s) {
    big_endian(s.size(), 2);
    out_ += s;
  }
  // TC_STRING or TC_LONGSTRING and modified UTF-8: NUL as C0 80, a supplementary character as
  // two 3-byte surrogates.
  void string(std::string_view utf8) {
    std::string units;
    for (std::size_t at = 0; at < utf8.size();) {
      const std::size_t start = at;
      const char32_t c = utf::next_code_point(utf8, at);
      if (c == utf::kInvalid) {
        throw error(errc::codec_error, "java serialization: the message is not UTF-8 (byte " +
                                           std::to_string(start) + ")");
      }
      if (c >= 0x10000) {
        modified_utf8(0xD800 + ((c - 0x10000) >> 10), units);
        modified_utf8(0xDC00 + ((c - 0x10000) & 0x3FF), units);
      } else {
        modified_utf8(c, units);
      }
    }
    handle();
    if (units.size() <= 0xFFFF) {
      tag(kTcString);
      big_endian(units.size(), 2);
    } else {
      tag(kTcLongString);
      big_endian(units.size(), 8);
    }
    out_ += units;
  }
  // TC_CLASSDESC of a class without annotations; the next one is its superclass.
  void class_desc(std::string_view name, std::uint64_t uid, std::uint8_t flags,
                  std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    tag(kTcClassDesc);
    ascii(name);
    handle();
    big_endian(uid, 8);
    tag(flags);
    big_endian(fields.size(), 2);
    for (const auto& [field, type] : fields) {
      tag(static_cast<std::uint8_t>(type.front()));
      ascii(field);
      handle();
      tag(kTcString);
      ascii(type);
    }
    tag(kTcEndBlockData);
  }
  std::uint32_t handle() { return kBaseHandle + next_handle_++; }

 private:
  static constexpr std::uint32_t kBaseHandle = 0x7E0000;

  static void modified_utf8(char32_t unit, std::string& out) {
    if (unit != 0 && unit < 0x80) {
      out += static_cast<char>(unit);
    } else if (unit < 0x800) {
      out += static_cast<char>(0xC0 | (unit >> 6));
      out += static_cast<char>(0x80 | (unit & 0x3F));
    } else {
      out += static_cast<char>(0xE0 | (unit >> 12));
      out += static_cast<char>(0x80 | ((unit >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (unit & 0x3F));
    }
  }

  std::string& out_;
  std::uint32_t next_handle_ = 0;
};

}  // namespace

std::string java_runtime_exception(std::string_view message) {
  std::string out(kStreamHeader);
  JavaStreamWriter w(out);
  using W = JavaStreamWriter;
  w.tag(kTcObject);
  w.class_desc("java.lang.RuntimeException", 0x9e5f06470a3483e5, W::kSerializable, {});
  w.class_desc("java.lang.Exception", 0xd0fd1f3e1a3b1cc4, W::kSerializable, {});
  w.class_desc("java.lang.Throwable", 0xd5c635273977b8cb, W::kWriteMethod | W::kSerializable,
               {{"cause", "Ljava/lang/Throwable;"},
                {"detailMessage", "Ljava/lang/String;"},
                {"stackTrace", "[Ljava/lang/StackTraceElement;"},
                {"suppressedExceptions", "Ljava/util/List;"}});
  w.tag(kTcNull);  // Throwable's superclass, Object, is not serializable
  // Throwable.writeObject -> defaultWriteObject: the fields in the order above.
  const std::uint32_t self = w.handle();
  w.tag(kTcReference);  // cause: the exception itself (no cause)
  w.big_endian(self, 4);
  w.string(message);
  w.tag(kTcArray);  // stackTrace: new StackTraceElement[0]
  w.class_desc("[Ljava.lang.StackTraceElement;", 0x02462a3c3cfd2239, W::kSerializable, {});
  w.tag(kTcNull);
  w.handle();
  w.big_endian(0, 4);
  w.tag(kTcObject);  // suppressedExceptions: Collections.emptyList(), Throwable's sentinel
  w.class_desc("java.util.Collections$EmptyList", 0x7ab817b43ca79ede, W::kSerializable, {});
  w.tag(kTcNull);
  w.handle();
  w.tag(kTcEndBlockData);  // the end of Throwable.writeObject's data
  return out;
}

std::optional<std::string> java_throwable_message(std::string_view stream) {
  JavaStream in(stream);
  if (!in.header() || !in.tag(kTcObject)) return std::nullopt;
  const auto fields = in.class_chain();
  if (!fields) return std::nullopt;
  for (const auto& field : *fields) {
    if (field.name == "cause") {
      // Itself (no cause) or none; a real cause is a whole object this reader does not skip.
      if (in.tag(kTcReference)) {
        if (!in.skip(4)) return std::nullopt;
      } else if (!in.tag(kTcNull)) {
        return std::nullopt;
      }
      continue;
    }
    if (field.name != "detailMessage") return std::nullopt;
    if (in.tag(kTcString)) return in.utf(2);
    if (in.tag(kTcLongString)) return in.utf(8);
    return std::nullopt;  // null, or a string shared with an earlier object
  }
  return std::nullopt;
}

}  // namespace redisson::detail
