#include "alternate.hpp"

#include <algorithm>
#include <cmath>

#include "clock.hpp"
#include "histogram.hpp"
#include "report.hpp"
#include "server_stats.hpp"

namespace redisson_bench {

int slice_count(const Options& options) {
  return static_cast<int>(std::clamp<long>(std::lround(seconds(options.duration)), 1, 10));
}

Alternation alternate(const Options& options, redisson::Client& stats_client,
                      const SliceRunner& ours, const std::vector<std::string>& reference_args,
                      double reference_divisor) {
  const int slices = slice_count(options);
  const auto slice = options.duration / slices;
  Alternation result;
  double ours_ops = 0, ours_seconds = 0, ref_requests = 0, ref_seconds = 0;
  double ours_wall = 0, ref_wall = 0;
  double server_cpu_ours = 0, server_cpu_ref = 0, client_cpu_ours = 0, client_cpu_ref = 0;
  // Warm-up; the reference's doubles as the calibration that sizes its first slice, and each
  // slice's rate sizes the next one.
  constexpr auto kWarmUp = std::chrono::milliseconds(300);
  ours(kWarmUp, /*warm_up=*/true);
  double calibrated_rps = run_redis_benchmark(options, reference_args, kWarmUp).ops_per_s;
  for (int i = 0; i < slices; ++i) {
    double server_before = read_server_cpu_seconds(stats_client);
    double client_before = process_cpu_seconds();
    auto wall_before = monotonic_ns();
    const auto mine = ours(slice, /*warm_up=*/false);
    ours_wall += static_cast<double>(monotonic_ns() - wall_before) / 1e9;
    client_cpu_ours += process_cpu_seconds() - client_before;
    server_cpu_ours += read_server_cpu_seconds(stats_client) - server_before;
    ours_ops += mine.operations;
    ours_seconds += mine.seconds;

    server_before = read_server_cpu_seconds(stats_client);
    client_before = children_cpu_seconds();
    wall_before = monotonic_ns();
    const auto reference = run_redis_benchmark(options, reference_args, slice, calibrated_rps);
    ref_wall += static_cast<double>(monotonic_ns() - wall_before) / 1e9;
    client_cpu_ref += children_cpu_seconds() - client_before;
    server_cpu_ref += read_server_cpu_seconds(stats_client) - server_before;
    calibrated_rps = reference.ops_per_s;
    ref_requests += static_cast<double>(reference.requests);
    ref_seconds += static_cast<double>(reference.requests) / reference.ops_per_s;
    result.reference_requests += reference.requests;
    result.last_reference = reference;

    const double mine_rate = mine.seconds > 0 ? mine.operations / mine.seconds : 0;
    result.slice_ratios.push_back(mine_rate / (reference.ops_per_s / reference_divisor));
  }
  result.ours_ops_per_s = ours_seconds > 0 ? ours_ops / ours_seconds : 0;
  result.reference_ops_per_s = ref_seconds > 0 ? ref_requests / ref_seconds : 0;
  result.ratio = result.ours_ops_per_s / (result.reference_ops_per_s / reference_divisor);
  // CPU over wall time (the reference wall time includes redis-benchmark's start-up).
  result.server_cpu_ours = server_cpu_ours / ours_wall;
  result.client_cpu_ours = client_cpu_ours / ours_wall;
  result.server_cpu_reference = server_cpu_ref / ref_wall;
  result.client_cpu_reference = client_cpu_ref / ref_wall;
  return result;
}

void Alternation::add_to(nlohmann::json& out, const std::string& what) const {
  auto reference = reference_json(last_reference, what);
  reference["ops_per_s"] = round2(reference_ops_per_s);
  reference["requests"] = reference_requests;
  reference["client_cpu"] = round2(client_cpu_reference);
  reference["server_cpu"] = round2(server_cpu_reference);
  reference["latency_from"] = "last slice";
  out["reference"] = std::move(reference);
  out["ratio"] = round2(ratio);
  nlohmann::json slices = nlohmann::json::array();
  for (const double r : slice_ratios) slices.push_back(round2(r));
  out["slice_ratios"] = std::move(slices);
  out["client_cpu"] = round2(client_cpu_ours);
  out["server_cpu"] = round2(server_cpu_ours);
}

}  // namespace redisson_bench
