// A closed loop of asynchronous operations from one client: `in_flight` operations outstanding,
// each completion starting the next, until stop() or until `limit` operations were started. The
// load of the single-client throughput scenarios (raw commands, buckets, atomic longs, rate
// limiters): each gives only how one operation starts.
//
// Counters are touched only on the client's I/O thread, where completions run; the caller reads
// them after drain().
#pragma once

#include <algorithm>
#include <asio/any_io_executor.hpp>
#include <asio/post.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "alternate.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redisson/client.hpp"

namespace redisson_bench {

class ClosedLoop {
 public:
  /// Called once per operation with its sequence number (0, 1, 2, ...) and the completion
  /// to call when it finished.
  using Completion = std::function<void(std::error_code)>;
  using Start = std::function<void(std::uint64_t sequence, Completion done)>;

  ClosedLoop(asio::any_io_executor io, LatencyHistogram& latency, Start start)
      : io_(std::move(io)), latency_(latency), start_(std::move(start)) {}

  /// Starts `in_flight` operations; with a `limit`, starts no more than that many in all (then
  /// drain() waits for the last of them, with no stop() needed).
  void run(int in_flight, std::uint64_t limit = UINT64_MAX) {
    limit_ = limit;
    in_flight_ =
        static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(in_flight), limit));
    if (in_flight_ == 0) {
      std::lock_guard lock(mutex_);
      drained_ = true;
      return;
    }
    asio::post(io_, [this] {
      for (int i = 0, n = in_flight_; i < n; ++i) issue();
    });
  }

  void stop() { stopping_.store(true); }

  /// Waits until every outstanding operation completed; false on timeout.
  bool drain(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return drained_cv_.wait_for(lock, timeout, [this] { return drained_; });
  }

  std::uint64_t completed() const { return completed_; }
  std::uint64_t errors() const { return errors_; }
  std::int64_t last_completion_ns() const { return last_completion_ns_; }
  const std::string& first_error() const { return first_error_; }

 private:
  void issue() {
    const auto started = monotonic_ns();
    start_(issued_++, [this, started](std::error_code ec) { on_done(ec, started); });
  }

  void on_done(std::error_code ec, std::int64_t started) {
    const auto now = monotonic_ns();
    latency_.record(now - started);
    last_completion_ns_ = now;
    if (ec) {
      if (errors_++ == 0) first_error_ = ec.message();
    } else {
      ++completed_;
    }
    if (!stopping_.load(std::memory_order_relaxed) && issued_ < limit_) return issue();
    if (--in_flight_ == 0) {
      std::lock_guard lock(mutex_);
      drained_ = true;
      drained_cv_.notify_all();
    }
  }

  asio::any_io_executor io_;
  LatencyHistogram& latency_;
  Start start_;
  std::atomic<bool> stopping_{false};
  int in_flight_ = 0;
  std::uint64_t issued_ = 0;
  std::uint64_t limit_ = UINT64_MAX;
  std::uint64_t completed_ = 0;
  std::uint64_t errors_ = 0;
  std::string first_error_;
  std::int64_t last_completion_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable drained_cv_;
  bool drained_ = false;
};

/// A single-client throughput scenario: our operation in a ClosedLoop of options.in_flight,
/// alternated slice by slice with a redis-benchmark reference in the same run (alternate.hpp).
struct ThroughputScenario {
  std::string name;                         ///< "bucket"
  std::vector<std::string> reference_args;  ///< redis-benchmark's, e.g. {"-P", "32", "-t", "incr"}
  std::string reference_what;               ///< what the reference does, for the report
  double reference_divisor = 1.0;           ///< reference requests per one of our operations
  double target_ratio = 0.9;                ///< meets_target when ratio >= this
};

/// Runs `scenario` with `start` on `client`; the JSON result has ops_per_s, latency, errors,
/// the reference, ratio, target and meets_target.
nlohmann::json run_throughput(const Options& options, redisson::Client& client,
                              const ThroughputScenario& scenario, const ClosedLoop::Start& start);

}  // namespace redisson_bench
