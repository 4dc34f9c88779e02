// Kryo5Codec: Java Redisson's default codec (kryo5_writer.cpp, kryo5_reader.cpp).
#include <memory>

#include "codec/kryo5.hpp"
#include "redisson/codec.hpp"

namespace redisson::codecs {
namespace {

class Kryo5Codec final : public Codec {
 public:
  std::string_view name() const noexcept override { return "kryo5"; }
  void encode(const Value& value, std::string& out) const override {
    const std::size_t size = out.size();
    try {
      detail::kryo5::encode(value, out);
    } catch (...) {
      out.resize(size);  // nothing of a value that failed half-way
      throw;
    }
  }
  Value decode(std::string_view bytes) const override { return detail::kryo5::decode(bytes); }
};

}  // namespace

CodecPtr kryo5() {
  static const CodecPtr codec = std::make_shared<Kryo5Codec>();
  return codec;
}

}  // namespace redisson::codecs
