// Helpers shared by the multi-process scenarios (handoff, contention, queue, topic): wait on
// shared-memory flags with a bound, and read the one JSON line each worker prints.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "clock.hpp"
#include "histogram.hpp"
#include "subprocess.hpp"

namespace redisson_bench {

/// Polls `predicate()` every ~20 µs until it holds or `timeout` passed; false on timeout.
template <class Predicate>
bool wait_until(Predicate predicate, std::chrono::nanoseconds timeout) {
  const auto deadline = monotonic_ns() + timeout.count();
  while (!predicate()) {
    if (monotonic_ns() >= deadline) return false;
    timespec ts{0, 20'000};
    nanosleep(&ts, nullptr);
  }
  return true;
}

/// A counter in shared memory that another process can sleep on until it changes (a futex
/// shared between processes: std::atomic::wait is process-private in libstdc++). The latency
/// scenarios wait on it instead of polling, so the waiting process takes no CPU from the path
/// being measured on a 2-core machine.
class SharedSignal {
 public:
  /// Adds one and wakes every process waiting on it.
  void raise() noexcept;
  /// The current count, to pass to wait_past.
  std::uint32_t count() const noexcept { return count_.load(std::memory_order_acquire); }
  /// Sleeps until the count is no longer `seen` or `timeout` passed (either may return early:
  /// callers re-check what they wait for).
  void wait_past(std::uint32_t seen, std::chrono::nanoseconds timeout) const noexcept;

 private:
  std::atomic<std::uint32_t> count_{0};
};

/// Waits (sleeping on `signal`, re-checked every change of it and every 50 ms, for what changes
/// without raising it, such as a worker's `failed`) until `predicate()` holds; false after
/// `timeout`.
template <class Predicate>
bool wait_signalled(const SharedSignal& signal, Predicate predicate,
                    std::chrono::nanoseconds timeout) {
  const auto deadline = monotonic_ns() + timeout.count();
  for (;;) {
    const auto seen = signal.count();
    if (predicate()) return true;
    const auto left = deadline - monotonic_ns();
    if (left <= 0) return false;
    signal.wait_past(seen, std::min(std::chrono::nanoseconds(left),
                                    std::chrono::nanoseconds(std::chrono::milliseconds(50))));
  }
}

/// Waits until a shared counter reaches `wanted`; false on timeout.
bool wait_for_count(const std::atomic<std::int64_t>& counter, std::int64_t wanted,
                    std::chrono::nanoseconds timeout);

/// Parses each worker's stdout as one JSON object; throws with the worker's own words when
/// one failed, timed out or printed something else.
std::vector<nlohmann::json> worker_reports(const std::vector<ProcessResult>& results);

/// The body of a worker that measures one latency (the queue consumer, the topic subscriber):
/// runs `measure(samples)`, prints {"latency": ...} or {"error": ...} on stdout (raising `failed`
/// for the parent, which then stops waiting on it) and returns the exit status.
template <class Measure>
int run_latency_worker(std::atomic<std::int64_t>& failed, Measure measure) {
  nlohmann::json report;
  try {
    Samples latency;
    measure(latency);
    report = {{"latency", latency.serialize()}};
  } catch (const std::exception& e) {
    failed.store(1);
    report = {{"error", e.what()}};
  }
  std::cout << report.dump() << std::endl;
  return report.contains("error") ? 1 : 0;
}

/// The "latency" samples of every report of run_latency_worker's workers, merged.
Samples merged_latency(const std::vector<nlohmann::json>& reports);

}  // namespace redisson_bench
