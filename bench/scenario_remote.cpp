// remote: RemoteService call round trip. A worker client serves `long echo(long)`; a caller
// client calls it one call at a time, first with Redisson's default options (an ack, then the
// result), then with no_ack() (the result only). Beside them, in the same run: redis-benchmark
// -c 1 PING, and the protocol's floor (the same scripts in the same order on blocking sockets,
// raw_remote.hpp). Target: the default call's p50 <= 1.5x the floor's, so the library adds at
// most half again to what Redisson's protocol itself costs. (A target in PINGs cannot be met by
// any client: the floor alone is five to eight PINGs, see docs/benchmarks.md.)
//
// The worker runs in this process on its own client (its own connections, I/O and listener
// threads): the round trip crosses Redis exactly as between two processes.
#include <chrono>
#include <cstdint>
#include <string>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "raw_remote.hpp"
#include "redis_tools.hpp"
#include "redisson/client.hpp"
#include "redisson/services/remote_service.hpp"
#include "report.hpp"

namespace redisson_bench {

namespace {

constexpr double kTargetFloorRatio = 1.5;
constexpr int kWarmUpCalls = 200;

// Calls `echo` one at a time for `duration`; the round trips in `latency`.
void measure(const redisson::RemoteMethod<std::int64_t(std::int64_t)>& echo,
             std::chrono::nanoseconds duration, LatencyHistogram& latency) {
  for (int i = 0; i < kWarmUpCalls; ++i) (void)echo(i);
  const auto end = monotonic_ns() + duration.count();
  for (std::int64_t i = 0; monotonic_ns() < end; ++i) {
    const auto start = monotonic_ns();
    if (echo(i) != i) throw std::runtime_error("remote: echo answered another value");
    latency.record(monotonic_ns() - start);
  }
}

}  // namespace

nlohmann::json run_remote(const Options& options) {
  const auto service = bench_key(options, "remote");
  redisson::Client worker_client(options.url);
  redisson::Client caller_client(options.url);
  redisson::RemoteService served(worker_client, service);
  served.register_service(
      redisson::RemoteInterface("bench.Echo").method("echo", [](std::int64_t v) { return v; }));
  redisson::RemoteService remote(caller_client, service);
  const auto with_ack = remote.get("bench.Echo").method<std::int64_t(std::int64_t)>("echo");
  const auto no_ack =
      remote.get("bench.Echo", redisson::RemoteInvocationOptions::defaults().no_ack())
          .method<std::int64_t(std::int64_t)>("echo");

  LatencyHistogram acked;
  LatencyHistogram direct;
  measure(with_ack, options.duration / 2, acked);
  measure(no_ack, options.duration / 2, direct);
  served.deregister("bench.Echo");

  nlohmann::json out{{"scenario", "remote"},
                     {"measured",
                      "echo(long) call round trip, one call at a time, worker in "
                      "another client"}};
  nlohmann::json defaults{{"options", "defaults(): ack within 1 s, result within 30 s"}};
  acked.add_to(defaults);
  nlohmann::json without_ack{{"options", "defaults().no_ack()"}};
  direct.add_to(without_ack);
  const double reference_p50_us = ping_reference(options, options.duration / 4, out);
  const auto floor = raw_remote_floor(options, options.duration / 4, out);
  const double floor_ratio = acked.percentile_us(50) / floor.acked_p50_us;
  defaults["floor_ratio"] = round2(floor_ratio);
  without_ack["floor_ratio"] = round2(direct.percentile_us(50) / floor.direct_p50_us);
  defaults["ratio"] = round2(acked.percentile_us(50) / reference_p50_us);
  without_ack["ratio"] = round2(direct.percentile_us(50) / reference_p50_us);
  out["ratio_meaning"] = "call p50 / redis-benchmark -c 1 PING p50 (lower is better)";
  out["floor_ratio_meaning"] = "call p50 / the protocol floor's p50 (lower is better)";
  out["defaults"] = defaults;
  out["no_ack"] = without_ack;
  add_target(out, "default call p50 <= 1.5x the protocol floor's p50",
             acked.count() > 0 && floor_ratio <= kTargetFloorRatio);
  return out;
}

}  // namespace redisson_bench
