// JsonJacksonCodec and TypedJsonJacksonCodec (json_writer.cpp, json_reader.cpp).
#include <memory>

#include "codec/json.hpp"
#include "redisson/codec.hpp"

namespace redisson::codecs {
namespace {

class JsonCodec final : public Codec {
 public:
  JsonCodec(std::string_view name, detail::json::Dialect dialect)
      : name_(name), dialect_(dialect) {}

  std::string_view name() const noexcept override { return name_; }
  void encode(const Value& value, std::string& out) const override {
    const std::size_t size = out.size();
    try {
      detail::json::encode(value, out, dialect_);
    } catch (...) {
      out.resize(size);  // nothing of a value that failed half-way
      throw;
    }
  }
  Value decode(std::string_view bytes) const override {
    return detail::json::decode(bytes, dialect_);
  }

 private:
  std::string_view name_;
  detail::json::Dialect dialect_;
};

}  // namespace

CodecPtr json() {
  static const CodecPtr codec = std::make_shared<JsonCodec>("json", detail::json::Dialect::typed);
  return codec;
}

CodecPtr typed_json() {
  static const CodecPtr codec =
      std::make_shared<JsonCodec>("typed_json", detail::json::Dialect::plain);
  return codec;
}

}  // namespace redisson::codecs
