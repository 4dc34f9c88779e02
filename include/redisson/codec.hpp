// Codecs: how a value becomes the bytes stored in Redis, the same bytes Java Redisson's codec of
// the same name writes, so a C++ and a Java service can share an object.
//
//   codecs::kryo5()      Kryo5Codec, Java Redisson's default (and ours)
//   codecs::json()       JsonJacksonCodec: JSON with Java type information (@class, Long wrapped)
//   codecs::typed_json() TypedJsonJacksonCodec: plain JSON
//   codecs::string()     StringCodec: UTF-8 text; long_text()/integer_text()/double_text():
//                        LongCodec, IntegerCodec, DoubleCodec (decimal text)
//   codecs::bytes()      ByteArrayCodec: the bytes as they are
//   codecs::composite()  CompositeCodec: one codec for map keys, one for map values
//
// A codec works on redisson::Value (value.hpp); typed objects convert their C++ values with
// ValueTraits (value_traits.hpp). A user codec derives from Codec (docs/codecs.md).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "redisson/value.hpp"

namespace redisson {

/// Turns a Value into bytes and back. Implementations are immutable and thread-safe: one codec
/// object serves every object and thread.
///
/// Errors: encode() of a value the codec cannot write, and decode() of bytes it cannot read
/// (damaged, or a Java class it does not know), throw redisson::error with errc::codec_error
/// and a message that names the problem (the Java class, the offset).
class Codec {
 public:
  virtual ~Codec() = default;

  /// The codec's short name: "kryo5", "json", "string", ... (what `codec:` in redisson.yml and
  /// the tool's --codec accept).
  virtual std::string_view name() const noexcept = 0;
  /// Appends the bytes of `value` to `out`.
  virtual void encode(const Value& value, std::string& out) const = 0;
  /// The value `bytes` hold.
  virtual Value decode(std::string_view bytes) const = 0;

  /// The codec for map keys (hash fields); this one unless composite.
  virtual const Codec& map_key_codec() const noexcept { return *this; }
  /// The codec for map values (hash values); this one unless composite.
  virtual const Codec& map_value_codec() const noexcept { return *this; }

  /// encode() into a new string.
  std::string encode(const Value& value) const {
    std::string out;
    encode(value, out);
    return out;
  }
};

/// Codecs are shared: objects hold them by shared_ptr.
using CodecPtr = std::shared_ptr<const Codec>;

namespace codecs {

/// Java Redisson's Kryo5Codec (its default). Carries null, String, Boolean, Byte, Short,
/// Character, Integer, Long, Float, Double, byte[], lists, sets and maps of those (ArrayList,
/// HashSet, HashMap when encoding; also LinkedList, Arrays$ArrayList, LinkedHashMap, ... and
/// Java's immutable and singleton collections when decoding). Other Java classes (a Java POJO)
/// are a codec_error naming the class.
CodecPtr kryo5();
/// Java Redisson's JsonJacksonCodec: Long as ["java.lang.Long",n], collections wrapped with
/// their class, "@class" in every map and object.
CodecPtr json();
/// Java Redisson's TypedJsonJacksonCodec: plain JSON, no type information.
CodecPtr typed_json();
/// StringCodec: the UTF-8 text of a value (numbers as Java's toString()); decodes to a String.
CodecPtr string();
/// LongCodec: decimal text; decodes to a Long.
CodecPtr long_text();
/// IntegerCodec: decimal text; decodes to an Integer.
CodecPtr integer_text();
/// DoubleCodec: Java's Double.toString text; decodes to a Double.
CodecPtr double_text();
/// ByteArrayCodec: a byte[] (or a String's UTF-8) as it is; decodes to a byte[].
CodecPtr bytes();
/// CompositeCodec: `map_key` for map keys, `map_value` for map values, `value` (default:
/// `map_value`) for everything else.
CodecPtr composite(CodecPtr map_key, CodecPtr map_value, CodecPtr value = nullptr);

/// A codec by name: the short names above ("kryo5", "json", "typed_json", "string", "long",
/// "integer", "double", "bytes") or Java Redisson's class names
/// ("org.redisson.codec.Kryo5Codec", "org.redisson.client.codec.StringCodec", ...).
/// Throws redisson::error(invalid_argument) naming the codec for anything else.
CodecPtr by_name(std::string_view name);

}  // namespace codecs

}  // namespace redisson
