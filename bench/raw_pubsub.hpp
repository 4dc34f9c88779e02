// The floor under the topic latency scenarios: PUBLISH from this process to a SUBSCRIBE in
// another, both on plain blocking sockets (no client library, no thread but the caller's), paced
// as the scenario paces its own messages. redis-benchmark's PING p50 (the reference) is
// one process's round trip on a connection that never goes idle; a message to another process
// wakes a sleeping one, which this measures, in the same run.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>

#include "bench.hpp"

namespace redisson_bench {

/// How the floor's publisher paces its messages: the next once the last arrived (`interval`
/// zero), or one every `interval`.
struct RawPacing {
  std::chrono::nanoseconds interval{0};
};

/// Measures the raw publish -> subscriber-process delay for `duration` and writes it under
/// out["raw_floor"]; returns its p50 in microseconds (NaN, and out["raw_floor"]["error"], when
/// it could not be measured: TLS, a refused login).
double raw_pubsub_floor(const Options& options, std::chrono::nanoseconds duration, RawPacing pacing,
                        nlohmann::json& out);

/// The subscriber process of raw_pubsub_floor (worker kind "raw-subscriber").
int worker_raw_subscriber(const WorkerOptions& options);

}  // namespace redisson_bench
