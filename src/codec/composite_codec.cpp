// CompositeCodec and codecs::by_name.
#include <array>
#include <string>
#include <utility>

#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace redisson::codecs {
namespace {

class CompositeCodec final : public Codec {
 public:
  CompositeCodec(CodecPtr map_key, CodecPtr map_value, CodecPtr value)
      : map_key_(std::move(map_key)), map_value_(std::move(map_value)), value_(std::move(value)) {}

  std::string_view name() const noexcept override { return "composite"; }
  void encode(const Value& value, std::string& out) const override { value_->encode(value, out); }
  Value decode(std::string_view bytes) const override { return value_->decode(bytes); }
  const Codec& map_key_codec() const noexcept override { return map_key_->map_key_codec(); }
  const Codec& map_value_codec() const noexcept override { return map_value_->map_value_codec(); }

 private:
  CodecPtr map_key_;
  CodecPtr map_value_;
  CodecPtr value_;
};

struct Named {
  std::string_view short_name;
  std::string_view java_class;
  CodecPtr (*make)();
};

constexpr std::array<Named, 8> kNamed{{
    {"kryo5", "org.redisson.codec.Kryo5Codec", &kryo5},
    {"json", "org.redisson.codec.JsonJacksonCodec", &json},
    {"typed_json", "org.redisson.codec.TypedJsonJacksonCodec", &typed_json},
    {"string", "org.redisson.client.codec.StringCodec", &string},
    {"long", "org.redisson.client.codec.LongCodec", &long_text},
    {"integer", "org.redisson.client.codec.IntegerCodec", &integer_text},
    {"double", "org.redisson.client.codec.DoubleCodec", &double_text},
    {"bytes", "org.redisson.client.codec.ByteArrayCodec", &bytes},
}};

}  // namespace

CodecPtr composite(CodecPtr map_key, CodecPtr map_value, CodecPtr value) {
  if (!map_key || !map_value) {
    throw error(errc::invalid_argument,
                "composite codec: the map key and value codecs are required");
  }
  if (!value) value = map_value;
  return std::make_shared<CompositeCodec>(std::move(map_key), std::move(map_value),
                                          std::move(value));
}

CodecPtr by_name(std::string_view name) {
  for (const auto& named : kNamed) {
    if (name == named.short_name || name == named.java_class) return named.make();
  }
  std::string known;
  for (const auto& named : kNamed) {
    if (!known.empty()) known += ", ";
    known += named.short_name;
  }
  throw error(errc::invalid_argument, "unknown codec '" + std::string(name) + "' (known: " + known +
                                          ", or their Java Redisson class names)");
}

}  // namespace redisson::codecs
