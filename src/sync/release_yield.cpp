#include "sync/release_yield.hpp"

#include <algorithm>

namespace redisson::detail {
namespace {

// Below this many entries nothing is pruned: each lives a few ms, so a client that releases
// many locks at once keeps at most those it released in the last kMaxWindow, plus these.
constexpr std::size_t kYieldPruneAbove = 16;

}  // namespace

std::chrono::nanoseconds ReleaseYield::window_for(std::chrono::nanoseconds round_trip) const {
  const std::chrono::nanoseconds cap = kMaxWindow;
  return std::clamp(3 * round_trip, min_window_, std::max(cap, min_window_));
}

void ReleaseYield::released(const std::string& channel, Clock::time_point until,
                            std::int64_t others) {
  if (until_.size() > kYieldPruneAbove) {
    const auto now = Clock::now();
    std::erase_if(until_, [now](const auto& entry) { return entry.second.until <= now; });
  }
  until_[channel] = Window{until, others};
  if (until.time_since_epoch().count() > latest_until_.load(std::memory_order_relaxed)) {
    latest_until_.store(until.time_since_epoch().count(), std::memory_order_release);
  }
}

std::optional<ReleaseYield::Window> ReleaseYield::window(const std::string& channel,
                                                         Clock::time_point now) {
  const auto found = until_.find(channel);
  if (found == until_.end()) return std::nullopt;
  if (found->second.until <= now) {
    until_.erase(found);
    return std::nullopt;
  }
  return found->second;
}

}  // namespace redisson::detail
