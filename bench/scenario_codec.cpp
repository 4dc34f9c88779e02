// codec: nanoseconds per value to encode and decode with the kryo5 and json codecs, no server.
// Values: a short string, a Long, a list of 10 strings, a map of 10 string -> Long entries (a
// java.util.HashMap: the encoder orders its entries as Java would). Encoding appends to a
// reused buffer; decoding builds a new Value. The figures are this thread's CPU time per call
// (the machine may be shared; wall-clock time would count other processes' turns). No target:
// the figures are for comparison between runs.
#include <time.h>

#include <string>
#include <vector>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redisson/codec.hpp"

namespace redisson_bench {
namespace {

using redisson::Value;

struct Sample {
  const char* name;
  Value value;
};

std::vector<Sample> samples() {
  Value::List strings;
  Value::Entries entries;
  for (int i = 0; i < 10; ++i) {
    strings.push_back(Value::string("element-" + std::to_string(i)));
    entries.emplace_back(Value::string("key-" + std::to_string(i)),
                         Value::long_int(1'700'000'000'000 + i));
  }
  return {{"short_string", Value::string("hello")},
          {"long", Value::long_int(1'700'000'000'000)},
          {"list_10_strings", Value::list(std::move(strings))},
          {"map_10_string_long", Value::map(std::move(entries))}};
}

std::int64_t thread_cpu_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Runs `op` in batches for `budget_ns` of wall time; the mean CPU ns per call.
template <class Op>
double ns_per_call(std::int64_t budget_ns, Op&& op) {
  constexpr int kBatch = 256;
  for (int i = 0; i < kBatch; ++i) op();  // warm-up
  std::int64_t calls = 0;
  const auto wall_end = monotonic_ns() + budget_ns;
  const auto cpu_start = thread_cpu_ns();
  do {
    for (int i = 0; i < kBatch; ++i) op();
    calls += kBatch;
  } while (monotonic_ns() < wall_end);
  return static_cast<double>(thread_cpu_ns() - cpu_start) / static_cast<double>(calls);
}

}  // namespace

nlohmann::json run_codec(const Options& options) {
  const auto all = samples();
  const std::vector<redisson::CodecPtr> codecs{redisson::codecs::kryo5(), redisson::codecs::json()};
  // Each of the 16 measurements gets an equal share of the duration.
  const std::int64_t budget_ns =
      options.duration.count() / static_cast<std::int64_t>(all.size() * codecs.size() * 2);
  nlohmann::json out{{"scenario", "codec"}, {"unit", "thread CPU ns per value"}};
  std::size_t sink = 0;  // keeps the work observable
  for (const auto& codec : codecs) {
    nlohmann::json per_codec;
    for (const auto& sample : all) {
      std::string buffer;
      const double encode_ns = ns_per_call(budget_ns, [&] {
        buffer.clear();
        codec->encode(sample.value, buffer);
        sink += buffer.size();
      });
      const std::string bytes = codec->encode(sample.value);
      const double decode_ns = ns_per_call(budget_ns, [&] {
        const Value v = codec->decode(bytes);
        sink += static_cast<std::size_t>(v.kind());
      });
      per_codec[sample.name] = {{"encode_ns", round2(encode_ns)},
                                {"decode_ns", round2(decode_ns)},
                                {"bytes", bytes.size()}};
    }
    out[std::string(codec->name())] = per_codec;
  }
  out["checksum"] = sink % 1000;
  return out;
}

}  // namespace redisson_bench
