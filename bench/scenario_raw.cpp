// raw: SET/GET alternating from one client, `in_flight` commands kept outstanding (each
// completion issues the next), against redis-benchmark -P 32 -c 50 -t set in the same run.
#include "bench.hpp"
#include "closed_loop.hpp"
#include "redisson/client.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {
constexpr double kTargetRatio = 0.9;
}  // namespace

nlohmann::json run_raw(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  const auto key = bench_key(options, "raw");
  const redisson::Command set{"SET", key, "xxx"};
  const redisson::Command get{"GET", key};
  const ClosedLoop::Start start = [&](std::uint64_t sequence, ClosedLoop::Completion done) {
    client.async_execute(
        (sequence & 1) ? get : set,
        [done = std::move(done)](std::error_code ec, const redisson::Reply&) { done(ec); });
  };
  ClosedLoopRun run;
  const auto result = alternate(
      options, stats_client,
      [&](std::chrono::nanoseconds duration, bool warm_up) {
        return run.run_slice(client.get_executor(), start, options.in_flight, duration, warm_up,
                             "raw");
      },
      {"-P", "32", "-c", "50", "-t", "set"}, 1.0);

  nlohmann::json out{{"scenario", "raw"},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(result.ours_ops_per_s)}};
  run.latency.add_to(out);
  out["commands"] = run.operations;
  out["errors"] = run.errors;
  if (run.errors != 0) out["first_error"] = run.first_error;
  result.add_to(out, "SET, 50 connections, pipeline 32");
  add_target(out, "ratio >= 0.9", result.ratio >= kTargetRatio);
  return out;
}

}  // namespace redisson_bench
