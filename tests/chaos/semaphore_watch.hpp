// The driver's watch over the chaos semaphore: whether its permit is gone for good (a release
// lost in a failover, reported to its caller or not), so that the driver can put it back.
// A permit has no lease: once gone, every worker that picks the semaphore waits out its whole
// 10 s wait, and with eight workers doing so the other locks go unasked for and the run stops
// measuring anything. The driver's repair (a logged "F sem_repair") puts the one permit back;
// the checker counts each repair as a permit lost.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace redisson::chaos {

class SemaphoreWatch {
 public:
  using Clock = std::chrono::steady_clock;
  /// How long the semaphore must be seen without a permit, nobody holding it and nobody taking
  /// it, before it counts as dead. Far longer than a worker takes to log an acquisition it made
  /// (the driver reads the log, not the worker's memory: a holder not yet logged looks like a
  /// lost permit), shorter than a worker's wait.
  static constexpr std::chrono::milliseconds kSteadyFor{3000};

  /// Follows dir/worker-<i>.log for i in [0, workers).
  SemaphoreWatch(std::string dir, std::size_t workers);

  /// One look, with the permit count just read from the server (an absent key reads 0): true
  /// when the semaphore has had no permit, no holder and no new acquisition for kSteadyFor.
  bool dead(std::int64_t permits, Clock::time_point now);
  /// The driver put the permit back: the next death is counted afresh.
  void repaired() { idle_since_.reset(); }

 private:
  // Reads the lines the workers appended since the last look.
  void read_logs();

  struct Follower {
    std::string path;
    std::int64_t offset = 0;
    std::string partial;  // a line not yet ended by its newline
    bool holds = false;   // an "A sem" line not yet followed by its "E" (or an "R")
  };
  std::vector<Follower> followers_;
  std::int64_t acquisitions_ = 0;  // "A sem" lines seen so far
  std::optional<Clock::time_point> idle_since_;
  std::int64_t acquisitions_when_idle_ = 0;
};

}  // namespace redisson::chaos
