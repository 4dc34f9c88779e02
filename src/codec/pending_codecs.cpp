// Placeholders until the kryo5 and JSON codecs land (they refuse every value).
#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace redisson::codecs {
namespace {
class Pending final : public Codec {
 public:
  explicit Pending(std::string_view name) : name_(name) {}
  std::string_view name() const noexcept override { return name_; }
  void encode(const Value&, std::string&) const override {
    throw error(errc::not_supported, std::string(name_) + " is not implemented yet");
  }
  Value decode(std::string_view) const override {
    throw error(errc::not_supported, std::string(name_) + " is not implemented yet");
  }

 private:
  std::string_view name_;
};
}  // namespace

CodecPtr kryo5() {
  static const CodecPtr codec = std::make_shared<Pending>("kryo5");
  return codec;
}
CodecPtr json() {
  static const CodecPtr codec = std::make_shared<Pending>("json");
  return codec;
}
CodecPtr typed_json() {
  static const CodecPtr codec = std::make_shared<Pending>("typed_json");
  return codec;
}
}  // namespace redisson::codecs
