// Removing what a scenario leaves to expire on the server, before the next one runs.
#pragma once

#include <cstdint>

#include "bench.hpp"

namespace redisson_bench {

/// Deletes this run's unlock latches (P(redisson_unlock_latch, <bench key>):<request id>, kept
/// 16-20 s by design) and returns how many. `parallel` and `many-locks` leave ~1 M of them; when
/// they expire, Redis's expiry cycle stalls the server up to 25 ms at a time, in the middle of
/// whichever scenario runs then (the `contention` wait p99 went from 26 ms to 61-69 ms). Throws
/// on a server error.
std::int64_t sweep_unlock_latches(const Options& options);

}  // namespace redisson_bench
