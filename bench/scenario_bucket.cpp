// bucket: Bucket<std::string>::async_set / async_get alternating from one client (the default
// codec, kryo5, encoding and decoding every value), `in_flight` outstanding, against
// redis-benchmark -P 32 -c 50 -t set,get in the same run: what the object layer and the codec
// cost on top of the raw commands.
#include "bench.hpp"
#include "closed_loop.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {
constexpr double kTargetRatio = 0.9;
}  // namespace

nlohmann::json run_bucket(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  redisson::Bucket<std::string> bucket(client, bench_key(options, "bucket"));
  const std::string value = "xxx";
  const ClosedLoop::Start start = [&](std::uint64_t sequence, ClosedLoop::Completion done) {
    if (sequence & 1) {
      bucket.async_get([done = std::move(done)](std::error_code ec,
                                                const std::optional<std::string>&) { done(ec); });
    } else {
      bucket.async_set(value, [done = std::move(done)](std::error_code ec) { done(ec); });
    }
  };
  ClosedLoopRun run;
  const auto result = alternate(
      options, stats_client,
      [&](std::chrono::nanoseconds duration, bool warm_up) {
        return run.run_slice(client.get_executor(), start, options.in_flight, duration, warm_up,
                             "bucket");
      },
      {"-P", "32", "-c", "50", "-t", "set,get"}, 1.0);

  nlohmann::json out{{"scenario", "bucket"},
                     {"codec", std::string(bucket.codec().name())},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(result.ours_ops_per_s)}};
  run.latency.add_to(out);
  out["operations"] = run.operations;
  out["errors"] = run.errors;
  if (run.errors != 0) out["first_error"] = run.first_error;
  result.add_to(out, "SET and GET, 50 connections, pipeline 32");
  add_target(out, "ratio >= 0.9", result.ratio >= kTargetRatio);
  return out;
}

}  // namespace redisson_bench
