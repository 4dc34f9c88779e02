// libFuzzer target for the JSON decoders (JsonJacksonCodec and TypedJsonJacksonCodec rules):
// any bytes give a value or a codec_error, and a decoded value written and read again is a fixed
// point. (Not an identity: Jackson's JSON loses Byte/Short/Float/Character/byte[] types, null
// map values and the fields' order, as Java's does.)
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "codec/json.hpp"
#include "codec_fuzz_check.hpp"

namespace {

using redisson::Value;
using redisson::detail::json::Dialect;

void run(std::string_view input, Dialect dialect) {
  Value first;
  Value second;
  codec_fuzz::round_trip(
      input, [dialect](std::string_view in) { return redisson::detail::json::decode(in, dialect); },
      [dialect](const Value& v, std::string& out) {
        redisson::detail::json::encode(v, out, dialect);
      },
      first, second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  run(input, Dialect::typed);
  run(input, Dialect::plain);
  return 0;
}
