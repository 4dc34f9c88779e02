// One slice of the `parallel` load: N async owners, each running async_lock then async_unlock
// of its own lock in a loop from the completions (or, with a LockScriptPair, the lock's two
// scripts as plain EVALSHA). Shared by the parallel and parallel-cluster scenarios.
#pragma once

#include <asio/post.hpp>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "clock.hpp"
#include "histogram.hpp"
#include "lock_script_pair.hpp"
#include "redisson/redisson.hpp"

namespace redisson_bench {

// One slice of load. Counters and histograms are touched only on the client's I/O thread.
class ParallelLoad {
 public:
  /// With `scripts` set, sends the lock's two scripts with async_execute on the names of
  /// `locks` instead of using the locks.
  ParallelLoad(redisson::Client& client, std::vector<redisson::Lock>& locks,
               LatencyHistogram& latency, const LockScriptPair* scripts = nullptr)
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
  static redisson::OwnerId owner_of(std::size_t i) { return redisson::OwnerId(i + 1); }

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
        completed(i, started);
      });
    });
  }

  void next_script_pair(std::size_t i, std::int64_t started) {
    client_.async_execute(scripts_->acquire(locks_[i].name()),
                          [this, i, started](std::error_code ec, redisson::Reply) {
                            if (ec) return failed(i, ec);
                            client_.async_execute(
                                scripts_->release(locks_[i].name(), std::to_string(++next_latch)),
                                [this, i, started](std::error_code release_ec, redisson::Reply) {
                                  if (release_ec) return failed(i, release_ec);
                                  completed(i, started);
                                });
                          });
  }

  // A lock/unlock pair (or the raw script pair) started at `started` finished.
  void completed(std::size_t i, std::int64_t started) {
    const auto now = monotonic_ns();
    latency_.record(now - started);
    last_completion_ns_ = now;
    ++pairs_;
    next(i);
  }

  void failed(std::size_t i, std::error_code ec) {
    if (errors_++ == 0) first_error_ = ec.message();
    last_completion_ns_ = monotonic_ns();
    next(i);
  }

  redisson::Client& client_;
  std::vector<redisson::Lock>& locks_;
  LatencyHistogram& latency_;
  const LockScriptPair* scripts_;
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

}  // namespace redisson_bench
