// Our measurement and the reference tool's, alternated in short slices within one run.
//
// The machine is shared and noisy: load changes from one second to the next. Running ours
// for the whole duration and then redis-benchmark for the whole duration would let a burst of
// someone else's work land on one side only; alternating slices spreads it over both.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench.hpp"
#include "redis_tools.hpp"
#include "redisson/client.hpp"

namespace redisson_bench {

/// What one slice of our measurement achieved.
struct Slice {
  double operations = 0;
  double seconds = 0;
};

struct Alternation {
  double ours_ops_per_s = 0;         ///< sum of operations / sum of seconds, over our slices
  double reference_ops_per_s = 0;    ///< the same over the reference slices
  double ratio = 0;                  ///< ours / (reference / reference_divisor)
  std::vector<double> slice_ratios;  ///< per slice pair, in order
  ReferenceResult last_reference;    ///< the last reference run (command line, latency)
  long reference_requests = 0;       ///< all reference slices together
  double server_cpu_ours = 0;        ///< server cores busy during our slices
  double server_cpu_reference = 0;   ///< ... and during the reference slices
  double client_cpu_ours = 0;        ///< our process's cores busy during our slices
  double client_cpu_reference = 0;   ///< redis-benchmark's cores during its slices

  /// {"reference": {...}, "ratio": ..., "slice_ratios": [...], cpu fields}
  void add_to(nlohmann::json& out, const std::string& what) const;
};

/// Slices: about one second each (1..10 of them) adding up to options.duration per side.
int slice_count(const Options& options);

/// Our side of one slice: runs for `duration`; with `warm_up` it records nothing.
using SliceRunner = std::function<Slice(std::chrono::nanoseconds duration, bool warm_up)>;

/// Alternates `ours` with redis-benchmark `reference_args`, slice by slice, after a short
/// warm-up of each that is not counted (fresh connections, allocator arenas and server-side
/// structures make the first few hundred milliseconds slower).
/// `stats_client` (idle otherwise) reads the server's CPU time. The reference rate is divided
/// by `reference_divisor` before comparing (2: one of our operations is two of its requests).
Alternation alternate(const Options& options, redisson::Client& stats_client,
                      const SliceRunner& ours, const std::vector<std::string>& reference_args,
                      double reference_divisor);

}  // namespace redisson_bench
