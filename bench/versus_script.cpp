#include "versus_script.hpp"

#include <chrono>
#include <stdexcept>

#include "alternate.hpp"
#include "clock.hpp"
#include "closed_loop.hpp"
#include "histogram.hpp"
#include "report.hpp"
#include "server_stats.hpp"

namespace redisson_bench {
namespace {

struct Side {
  LatencyHistogram latency;
  double operations = 0;
  double seconds = 0;
  std::uint64_t errors = 0;
  double client_cpu_seconds = 0;  ///< this process's CPU while the side ran
  double server_cpu_seconds = 0;
};

ClosedLoop::Start as_start(const Issue& issue) {
  return [&issue](std::uint64_t, ClosedLoop::Completion done) {
    issue([done = std::move(done)](bool ok) {
      done(ok ? std::error_code{} : std::make_error_code(std::errc::operation_canceled));
    });
  };
}

}  // namespace

void send_raw(redisson::Client& client, const redisson::Command& command,
              std::function<bool(const redisson::Reply&)> accept,
              std::function<void(bool ok)> done) {
  client.async_execute(command, [accept = std::move(accept), done = std::move(done)](
                                    std::error_code ec, const redisson::Reply& reply) {
    done(!ec && accept(reply));
  });
}

nlohmann::json run_versus_script(const Options& options, redisson::Client& client,
                                 const VersusScript& scenario, const Issue& ours,
                                 const Issue& raw) {
  redisson::Client stats_client(options.url);
  Side mine, reference;
  const auto run_slice = [&](const Issue& issue, Side& side, std::chrono::nanoseconds duration,
                             bool warm_up) {
    LatencyHistogram discarded;
    ClosedLoop load(client.get_executor(), warm_up ? discarded : side.latency, as_start(issue));
    const double client_before = process_cpu_seconds();
    const double server_before = read_server_cpu_seconds(stats_client);
    const auto started = monotonic_ns();
    load.run(options.in_flight);
    sleep_until_ns(started + duration.count());
    load.stop();
    if (!load.drain(std::chrono::milliseconds(30'000))) {
      throw std::runtime_error(scenario.scenario + ": calls still outstanding 30 s after the end");
    }
    if (warm_up) return;
    side.client_cpu_seconds += process_cpu_seconds() - client_before;
    side.server_cpu_seconds += read_server_cpu_seconds(stats_client) - server_before;
    side.operations += static_cast<double>(load.completed());
    side.seconds += static_cast<double>(load.last_completion_ns() - started) / 1e9;
    side.errors += load.errors();
  };

  const int slices = slice_count(options);
  const auto slice = options.duration / slices;
  constexpr auto kWarmUp = std::chrono::milliseconds(300);
  run_slice(ours, mine, kWarmUp, true);
  run_slice(raw, reference, kWarmUp, true);
  nlohmann::json slice_ratios = nlohmann::json::array();
  for (int i = 0; i < slices; ++i) {
    const double ours_before = mine.operations, ours_seconds = mine.seconds;
    const double raw_before = reference.operations, raw_seconds = reference.seconds;
    run_slice(ours, mine, slice, false);
    run_slice(raw, reference, slice, false);
    const double ours_rate = (mine.operations - ours_before) / (mine.seconds - ours_seconds);
    const double raw_rate = (reference.operations - raw_before) / (reference.seconds - raw_seconds);
    slice_ratios.push_back(round2(ours_rate / raw_rate));
  }

  const double ours_rate = mine.seconds > 0 ? mine.operations / mine.seconds : 0;
  const double raw_rate = reference.seconds > 0 ? reference.operations / reference.seconds : 0;
  const double ratio = raw_rate > 0 ? ours_rate / raw_rate : 0;
  nlohmann::json out{{"scenario", scenario.scenario},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(ours_rate)},
                     {"unit", scenario.unit}};
  mine.latency.add_to(out);
  out["operations"] = mine.operations;
  out["errors"] = mine.errors + reference.errors;
  out["reference"] = {{"tool", "redisson::Client::async_execute(EVALSHA)"},
                      {"what", scenario.reference_what},
                      {"ops_per_s", round2(raw_rate)},
                      {"p50_us", round2(reference.latency.percentile_us(50))},
                      {"p99_us", round2(reference.latency.percentile_us(99))},
                      {"calls", reference.operations},
                      {"client_cpu", round2(reference.client_cpu_seconds / reference.seconds)},
                      {"server_cpu", round2(reference.server_cpu_seconds / reference.seconds)},
                      {"client_cpu_us_per_call",
                       round2(reference.client_cpu_seconds * 1e6 / reference.operations)}};
  out["client_cpu"] = round2(mine.client_cpu_seconds / mine.seconds);
  out["server_cpu"] = round2(mine.server_cpu_seconds / mine.seconds);
  out["client_cpu_us_per_call"] = round2(mine.client_cpu_seconds * 1e6 / mine.operations);
  out["ratio"] = round2(ratio);
  out["slice_ratios"] = std::move(slice_ratios);
  out["ratio_meaning"] = scenario.ratio_meaning;
  std::string target = std::to_string(scenario.target_ratio);
  target.erase(target.find_last_not_of('0') + 1);  // "0.900000" -> "0.9"
  add_target(out, "ratio >= " + target, ratio >= scenario.target_ratio);
  return out;
}

}  // namespace redisson_bench
