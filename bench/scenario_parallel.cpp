// parallel: 64 async owners on 64 lock names from one client; each owner runs async_lock then
// async_unlock in a loop from the completions. Reference: redis-benchmark -P 32 -c 50 running
// EVALSHA of a lock-shaped acquire script over 64 keys; ratio = pairs/s / (evalsha rps / 2).
//
// Each slice also runs, for half its length, the same 64 loops sending the lock's two
// scripts as plain EVALSHA through Client::async_execute ("script pairs"): the library with
// its lock bookkeeping taken out. Locks vs script pairs isolates the library's own cost;
// script pairs vs the reference is the unlock script's extra server work and the pipelining.
#include <asio/post.hpp>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "alternate.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "lock_scripts.hpp"
#include "redisson/client.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {

constexpr int kOwners = 64;
constexpr double kTargetRatio = 0.8;

// One slice of load. Counters and histograms are touched only on the client's I/O thread.
class ParallelLoad {
 public:
  /// With `scripts` set, sends the two scripts with async_execute instead of using `locks`.
  struct Scripts {
    std::string acquire_sha;
    std::string release_sha;
    std::string owner_field;
  };

  ParallelLoad(redisson::Client& client, std::vector<redisson::Lock>& locks,
               LatencyHistogram& latency, const Scripts* scripts = nullptr)
      : client_(client), locks_(locks), latency_(latency), scripts_(scripts) {}

  void start() {
    running_ = static_cast<int>(locks_.size());
    asio::post(client_.get_executor(), [this] {
      for (std::size_t i = 0; i < locks_.size(); ++i) next(i);
    });
  }

  void stop() { stopping_.store(true); }

  bool drain(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return drained_cv_.wait_for(lock, timeout, [this] { return drained_; });
  }

  std::uint64_t pairs() const { return pairs_; }
  int running() const { return running_; }
  std::uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  std::int64_t last_completion_ns() const { return last_completion_ns_; }

 private:
  static std::uint64_t owner_of(std::size_t i) { return i + 1; }

  void next(std::size_t i) {
    if (stopping_.load(std::memory_order_relaxed)) {
      if (--running_ == 0) {
        std::lock_guard lock(mutex_);
        drained_ = true;
        drained_cv_.notify_all();
      }
      return;
    }
    const auto started = monotonic_ns();
    if (scripts_ != nullptr) return next_script_pair(i, started);
    locks_[i].async_lock(owner_of(i), [this, i, started](std::error_code ec, bool) {
      if (ec) return failed(i, ec);
      locks_[i].async_unlock(owner_of(i), [this, i, started](std::error_code unlock_ec) {
        if (unlock_ec) return failed(i, unlock_ec);
        const auto now = monotonic_ns();
        latency_.record(now - started);
        last_completion_ns_ = now;
        ++pairs_;
        next(i);
      });
    });
  }

  void next_script_pair(std::size_t i, std::int64_t started) {
    const auto& name = locks_[i].name();
    redisson::Command acquire{"EVALSHA", scripts_->acquire_sha, "1", name,
                              "30000",   scripts_->owner_field};
    client_.async_execute(
        std::move(acquire), [this, i, started](std::error_code ec, redisson::Reply) {
          if (ec) return failed(i, ec);
          const auto& name = locks_[i].name();
          // Unique across loads: a reused latch would make the release a no-op "retry".
          const auto latch = "redisson_unlock_latch:{" + name + "}:" + std::to_string(++next_latch);
          redisson::Command release{"EVALSHA",
                                    scripts_->release_sha,
                                    "3",
                                    name,
                                    "redisson_lock__channel:{" + name + "}",
                                    latch,
                                    "0",
                                    "30000",
                                    scripts_->owner_field,
                                    "publish",
                                    "22500"};
          client_.async_execute(std::move(release),
                                [this, i, started](std::error_code release_ec, redisson::Reply) {
                                  if (release_ec) return failed(i, release_ec);
                                  const auto now = monotonic_ns();
                                  latency_.record(now - started);
                                  last_completion_ns_ = now;
                                  ++pairs_;
                                  next(i);
                                });
        });
  }

  void failed(std::size_t i, std::error_code ec) {
    if (errors_++ == 0) first_error_ = ec.message();
    last_completion_ns_ = monotonic_ns();
    next(i);
  }

  redisson::Client& client_;
  std::vector<redisson::Lock>& locks_;
  LatencyHistogram& latency_;
  const Scripts* scripts_;
  static inline std::uint64_t next_latch = 0;  // I/O thread only
  std::atomic<bool> stopping_{false};
  int running_ = 0;
  std::uint64_t pairs_ = 0;
  std::uint64_t errors_ = 0;
  std::string first_error_;
  std::int64_t last_completion_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable drained_cv_;
  bool drained_ = false;
};

}  // namespace

nlohmann::json run_parallel(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  std::vector<redisson::Lock> locks;
  for (int i = 0; i < kOwners; ++i) {
    locks.push_back(client.get_lock(bench_key(options, "parallel:" + std::to_string(i))));
  }
  const auto sha = redis_cli_script_load(options, kAcquireScript);
  const ParallelLoad::Scripts scripts{
      sha, client.execute(redisson::Command{"SCRIPT", "LOAD", kReleaseScript}).str,
      client.id() + ":script-pairs"};

  LatencyHistogram latency, script_latency;
  std::uint64_t pairs = 0, errors = 0, script_pairs = 0;
  double script_seconds = 0;
  std::string first_error;
  // Runs one load for `duration`; returns (pairs, seconds).
  const auto run_load = [&](std::chrono::nanoseconds duration, LatencyHistogram& into,
                            const ParallelLoad::Scripts* with_scripts) {
    ParallelLoad load(client, locks, into, with_scripts);
    const auto started = monotonic_ns();
    load.start();
    sleep_until_ns(started + duration.count());
    load.stop();
    if (!load.drain(std::chrono::milliseconds(30'000))) {
      throw std::runtime_error("parallel: " + std::to_string(load.running()) + " of " +
                               std::to_string(locks.size()) + " " +
                               (with_scripts ? "script-pair" : "lock") +
                               " loops still running 30 s after the end (" +
                               std::to_string(load.pairs()) + " pairs done)");
    }
    if (load.errors() != 0 && errors == 0) first_error = load.first_error();
    errors += load.errors();
    return Slice{static_cast<double>(load.pairs()),
                 static_cast<double>(load.last_completion_ns() - started) / 1e9};
  };
  const auto slice = [&](std::chrono::nanoseconds duration, bool warm_up) {
    LatencyHistogram discarded;
    const auto mine = run_load(duration, warm_up ? discarded : latency, nullptr);
    const auto plain = run_load(duration / 2, warm_up ? discarded : script_latency, &scripts);
    if (warm_up) return Slice{};
    pairs += static_cast<std::uint64_t>(mine.operations);
    script_pairs += static_cast<std::uint64_t>(plain.operations);
    script_seconds += plain.seconds;
    return mine;
  };
  // Keys spread over 64 names, like our 64 locks; one owner, so every call acquires (re-enters).
  const std::vector<std::string> reference_args{
      "-P",      "32",
      "-c",      "50",
      "-r",      std::to_string(kOwners),
      "evalsha", sha,
      "1",       bench_key(options, "parallel-ref:__rand_int__"),
      "30000",   "bench-owner"};
  const auto result = alternate(options, stats_client, slice, reference_args, 2.0);

  nlohmann::json out{{"scenario", "parallel"},
                     {"owners", kOwners},
                     {"ops_per_s", round2(result.ours_ops_per_s)},
                     {"unit", "lock+unlock pairs"}};
  latency.add_to(out);
  out["pairs"] = pairs;
  out["errors"] = errors;
  if (errors != 0) out["first_error"] = first_error;
  result.add_to(out, "EVALSHA lock-shaped acquire, 64 keys, 50 connections, pipeline 32");
  const double script_rate =
      script_seconds > 0 ? static_cast<double>(script_pairs) / script_seconds : 0;
  out["script_pairs"] = {{"what", "the lock's two scripts as plain EVALSHA, same 64 loops"},
                         {"ops_per_s", round2(script_rate)},
                         {"p50_us", round2(script_latency.percentile_us(50))},
                         {"p99_us", round2(script_latency.percentile_us(99))},
                         {"lock_over_script_pairs", round2(result.ours_ops_per_s / script_rate)}};
  out["ratio_meaning"] = "pairs/s / (reference evalsha/s / 2)";
  add_target(out, "ratio >= 0.8", result.ratio >= kTargetRatio);
  return out;
}

}  // namespace redisson_bench
