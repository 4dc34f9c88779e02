#include "closed_loop.hpp"

#include <stdexcept>

#include "report.hpp"

namespace redisson_bench {

nlohmann::json run_throughput(const Options& options, redisson::Client& client,
                              const ThroughputScenario& scenario, const ClosedLoop::Start& start) {
  redisson::Client stats_client(options.url);
  LatencyHistogram latency;
  std::uint64_t operations = 0, errors = 0;
  std::string first_error;
  const auto slice = [&](std::chrono::nanoseconds duration, bool warm_up) {
    LatencyHistogram discarded;
    ClosedLoop loop(client.get_executor(), warm_up ? discarded : latency, start);
    const auto started = monotonic_ns();
    loop.run(options.in_flight);
    sleep_until_ns(started + duration.count());
    loop.stop();
    if (!loop.drain(std::chrono::milliseconds(30'000))) {
      throw std::runtime_error(scenario.name + ": operations still outstanding 30 s after the end");
    }
    if (loop.errors() != 0 && errors == 0) first_error = loop.first_error();
    errors += loop.errors();
    if (warm_up) return Slice{};
    operations += loop.completed();
    return Slice{static_cast<double>(loop.completed()),
                 static_cast<double>(loop.last_completion_ns() - started) / 1e9};
  };
  const auto result =
      alternate(options, stats_client, slice, scenario.reference_args, scenario.reference_divisor);

  nlohmann::json out{{"scenario", scenario.name},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(result.ours_ops_per_s)}};
  latency.add_to(out);
  out["operations"] = operations;
  out["errors"] = errors;
  if (errors != 0) out["first_error"] = first_error;
  result.add_to(out, scenario.reference_what);
  std::string target = std::to_string(scenario.target_ratio);
  target.erase(target.find_last_not_of('0') + 1);  // "0.900000" -> "0.9"
  add_target(out, "ratio >= " + target, result.ratio >= scenario.target_ratio);
  return out;
}

}  // namespace redisson_bench
