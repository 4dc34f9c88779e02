// raw: SET/GET alternating from one client, `in_flight` commands kept outstanding (each
// completion issues the next), against redis-benchmark -P 32 -c 50 -t set in the same run.
#include <asio/post.hpp>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "alternate.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redisson/client.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {

constexpr double kTargetRatio = 0.9;

// One slice of load. Everything except `stopping_` and the drain signal is touched only on
// the client's I/O thread.
class RawLoad {
 public:
  RawLoad(redisson::Client& client, const std::string& key, LatencyHistogram& latency)
      : client_(client), set_{"SET", key, "xxx"}, get_{"GET", key}, latency_(latency) {}

  void start(int in_flight) {
    in_flight_ = in_flight;
    asio::post(client_.get_executor(), [this] {
      for (int i = 0; i < in_flight_; ++i) issue();
    });
  }

  void stop() { stopping_.store(true); }

  /// Waits until every outstanding command completed; false on timeout.
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
    const auto& command = (issued_++ & 1) ? get_ : set_;
    const auto started = monotonic_ns();
    client_.async_execute(
        command, [this, started](std::error_code ec, redisson::Reply) { on_reply(ec, started); });
  }

  void on_reply(std::error_code ec, std::int64_t started) {
    const auto now = monotonic_ns();
    latency_.record(now - started);
    last_completion_ns_ = now;
    if (ec) {
      if (errors_++ == 0) first_error_ = ec.message();
    } else {
      ++completed_;
    }
    if (!stopping_.load(std::memory_order_relaxed)) return issue();
    if (--in_flight_ == 0) {
      std::lock_guard lock(mutex_);
      drained_ = true;
      drained_cv_.notify_all();
    }
  }

  redisson::Client& client_;
  const redisson::Command set_;
  const redisson::Command get_;
  LatencyHistogram& latency_;
  std::atomic<bool> stopping_{false};
  int in_flight_ = 0;
  std::uint64_t issued_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t errors_ = 0;
  std::string first_error_;
  std::int64_t last_completion_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable drained_cv_;
  bool drained_ = false;
};

}  // namespace

nlohmann::json run_raw(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  const auto key = bench_key(options, "raw");
  LatencyHistogram latency;
  std::uint64_t commands = 0, errors = 0;
  std::string first_error;

  const auto slice = [&](std::chrono::nanoseconds duration, bool warm_up) {
    LatencyHistogram discarded;
    RawLoad load(client, key, warm_up ? discarded : latency);
    const auto started = monotonic_ns();
    load.start(options.in_flight);
    sleep_until_ns(started + duration.count());
    load.stop();
    if (!load.drain(std::chrono::milliseconds(30'000))) {
      throw std::runtime_error("raw: commands still outstanding 30 s after the end");
    }
    if (load.errors() != 0 && errors == 0) first_error = load.first_error();
    errors += load.errors();
    if (warm_up) return Slice{};
    commands += load.completed();
    return Slice{static_cast<double>(load.completed()),
                 static_cast<double>(load.last_completion_ns() - started) / 1e9};
  };
  const auto result =
      alternate(options, stats_client, slice, {"-P", "32", "-c", "50", "-t", "set"}, 1.0);

  nlohmann::json out{{"scenario", "raw"},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(result.ours_ops_per_s)}};
  latency.add_to(out);
  out["commands"] = commands;
  out["errors"] = errors;
  if (errors != 0) out["first_error"] = first_error;
  result.add_to(out, "SET, 50 connections, pipeline 32");
  add_target(out, "ratio >= 0.9", result.ratio >= kTargetRatio);
  return out;
}

}  // namespace redisson_bench
