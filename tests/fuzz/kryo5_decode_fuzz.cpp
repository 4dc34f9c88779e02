// libFuzzer target for the kryo5 decoder: any bytes give a value or a codec_error (never a
// crash, a hang, a leak or unbounded memory), and a decoded value survives encode + decode
// unchanged except for Java's HashMap/HashSet order, which the encoder imposes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "codec/java_hash_order.hpp"
#include "codec/kryo5.hpp"
#include "codec_fuzz_check.hpp"

namespace {

using redisson::Value;
using redisson::ValueKind;

constexpr std::size_t kFuzzValueBudget = 4096;

// `v` with its HashMaps and HashSets in Java's iteration order: what the encoder writes.
Value in_java_order(const Value& v) {
  switch (v.kind()) {
    case ValueKind::list:
    case ValueKind::set: {
      const redisson::detail::JavaIterationOrder order(v);
      Value::List elements;
      for (std::size_t i = 0; i < v.elements().size(); ++i) {
        elements.push_back(in_java_order(v.elements()[order[i]]));
      }
      return v.kind() == ValueKind::set ? Value::set(std::move(elements), v.java_class())
                                        : Value::list(std::move(elements), v.java_class());
    }
    case ValueKind::map: {
      const redisson::detail::JavaIterationOrder order(v);
      Value::Entries entries;
      for (std::size_t i = 0; i < v.entries().size(); ++i) {
        const auto& [key, entry] = v.entries()[order[i]];
        entries.emplace_back(in_java_order(key), in_java_order(entry));
      }
      return Value::map(std::move(entries), v.java_class());
    }
    default:
      return v;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Value first;
  Value second;
  const bool decoded = codec_fuzz::round_trip(
      input,
      // A smaller budget of values than the library's, so that the fuzzer keeps its speed; the
      // same for the second decode, whose bytes may be fewer.
      [budget = std::max(kFuzzValueBudget, size)](std::string_view in) {
        return redisson::detail::kryo5::decode(in, budget);
      },
      [](const Value& v, std::string& out) { redisson::detail::kryo5::encode(v, out); }, first,
      second);
  if (decoded) codec_fuzz::check(second == in_java_order(first));
  return 0;
}
