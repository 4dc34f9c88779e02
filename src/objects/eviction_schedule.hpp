// When the sweeper of one expiring collection runs next: Redisson's EvictionTask schedule.
//
// The first delay is the minimum. After each run, with the counts of the two runs before it:
// three falling counts, or three runs that removed nothing, make the delay 1.5 times longer (up
// to the maximum); three runs that each hit the per-run limit make it 4 times shorter (down to
// the minimum). A run another client did instead (the script's -1) changes nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>

#include "redisson/config.hpp"

namespace redisson::detail {

class EvictionSchedule {
 public:
  explicit EvictionSchedule(const Config::Eviction& options);

  std::chrono::milliseconds delay() const noexcept { return delay_; }
  /// The per-run limit the runs are judged against.
  std::int64_t keys_limit() const noexcept { return limit_; }
  /// How long (whole seconds, 1..30) a run keeps Redisson's once-per-interval latch: the delay,
  /// as Redisson sets it, so clients sharing the object do not sweep it in the same interval.
  std::int64_t latch_seconds() const noexcept;

  /// A run removed `removed` entries (-1: another client held the latch; nothing learned).
  void record(std::int64_t removed);

 private:
  std::chrono::milliseconds min_;
  std::chrono::milliseconds max_;
  std::int64_t limit_;
  std::chrono::milliseconds delay_;
  std::deque<std::int64_t> history_;  // the last two counts
};

}  // namespace redisson::detail
