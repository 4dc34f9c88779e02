#include "sync/unlock_replay.hpp"

#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "sync/lock_kind.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {

UnlockReplay::UnlockReplay(ClientCore& core) : window_(retry_latch_lifetime(core.config()) / 2) {}

void UnlockReplay::sent(std::shared_ptr<LockKind> kind,
                        std::shared_ptr<const UnlockRequest> request) {
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  while (!entries_.empty() && (entries_.front().until <= now || entries_.size() >= kCapacity)) {
    entries_.pop_front();
  }
  entries_.push_back(Entry{std::move(kind), std::move(request), now + window_});
}

void UnlockReplay::topology_changed() {
  std::vector<Entry> due;
  {
    const auto now = Clock::now();
    std::lock_guard lock(mutex_);
    while (!entries_.empty() && entries_.front().until <= now) entries_.pop_front();
    // Kept: another change within the window sends them again, and the latch answers.
    due.assign(entries_.begin(), entries_.end());
    resent_ += due.size();
  }
  for (const auto& entry : due) entry.kind->resend_unlock(*entry.request);
}

std::uint64_t UnlockReplay::resent() const {
  std::lock_guard lock(mutex_);
  return resent_;
}

}  // namespace redisson::detail
