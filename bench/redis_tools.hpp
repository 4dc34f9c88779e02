// The reference tools: redis-benchmark (throughput in the same run, against the same server)
// and redis-cli (SCRIPT LOAD for the reference script).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "bench.hpp"

namespace redisson_bench {

struct ReferenceResult {
  std::string command_line;  ///< what ran, for the report
  double ops_per_s = 0;
  double p50_ms = 0;  ///< redis-benchmark's own latency figures (per request, pipelined)
  double p99_ms = 0;
  long requests = 0;
  int tests = 0;  ///< how many of redis-benchmark's tests (-t) ran, each with -n requests
};

/// Runs redis-benchmark with `args` (after -h/-p/auth/-n/--csv -q) for about `duration`, sizing
/// -n from `expected_rps` (0: a short calibration run first). Bounded by a timeout; throws on
/// failure.
ReferenceResult run_redis_benchmark(const Options& options, const std::vector<std::string>& args,
                                    std::chrono::nanoseconds duration, double expected_rps = 0);

/// `redis-benchmark -c 1 -t ping_mbulk` for `duration` (at least 1 s): the round trip of one
/// connection, no pipelining, that latency scenarios compare their p50 with. Writes it to
/// out["reference"] and returns its p50 in microseconds.
double ping_reference(const Options& options, std::chrono::nanoseconds duration,
                      nlohmann::json& out);

/// Parses redis-benchmark --csv output: the combined rate of its rows (one per test) and the
/// worst row's latency columns.
ReferenceResult parse_redis_benchmark_csv(const std::string& csv);

}  // namespace redisson_bench
