#include "objects/eviction_schedule.hpp"

#include <algorithm>

namespace redisson::detail {

EvictionSchedule::EvictionSchedule(const Config::Eviction& options)
    : min_(options.min_delay),
      max_(options.max_delay),
      limit_(options.keys_limit),
      delay_(options.min_delay) {}

std::int64_t EvictionSchedule::latch_seconds() const noexcept {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(delay_).count();
  return std::clamp<std::int64_t>(seconds, 1, 30);
}

void EvictionSchedule::record(std::int64_t removed) {
  if (removed < 0) return;
  if (history_.size() == 2) {
    const auto first = history_.front();
    const auto last = history_.back();
    const auto longer = [&] {
      delay_ = std::min(max_, std::chrono::milliseconds(delay_.count() * 3 / 2));
    };
    if (first > last && last > removed) longer();
    if (first == last && last == removed) {
      if (removed >= limit_) delay_ = std::max(min_, delay_ / 4);
      if (removed == 0) longer();
    }
    history_.pop_front();
  }
  history_.push_back(removed);
}

}  // namespace redisson::detail
