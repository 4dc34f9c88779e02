#include "sync/release_replay.hpp"

#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {

ReleaseReplay::ReleaseReplay(ClientCore& core) : window_(retry_latch_lifetime(core.config()) / 2) {}

bool ReleaseReplay::records(const Config& config) noexcept {
  return config.sentinel.has_value() || config.cluster.has_value();
}

void ReleaseReplay::keep(std::function<void()> resend) {
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  while (!entries_.empty() && (entries_.front().until <= now || entries_.size() >= kCapacity)) {
    entries_.pop_front();
  }
  entries_.push_back(Entry{std::move(resend), now + window_});
}

void ReleaseReplay::topology_changed() {
  std::vector<Entry> due;
  {
    const auto now = Clock::now();
    std::lock_guard lock(mutex_);
    while (!entries_.empty() && entries_.front().until <= now) entries_.pop_front();
    // Kept: another change within the window sends them again, and the latch answers.
    due.assign(entries_.begin(), entries_.end());
  }
  for (const auto& entry : due) entry.resend();
}

}  // namespace redisson::detail
