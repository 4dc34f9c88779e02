// CLOCK_MONOTONIC in nanoseconds: one clock shared by every process on this machine, so a
// timestamp taken in one process can be subtracted from one taken in another.
#pragma once

#include <time.h>

#include <cstdint>

namespace redisson_bench {

inline std::int64_t monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

/// Sleeps (or spins for the last few microseconds) until monotonic_ns() >= deadline_ns.
void sleep_until_ns(std::int64_t deadline_ns);

/// Spins without sleeping for `ns` nanoseconds: a lock hold that keeps its CPU busy.
void busy_wait_ns(std::int64_t ns);

}  // namespace redisson_bench
