#include "sync/release_replay.hpp"

#include <string>
#include <utility>

#include "client/client_core.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {

ReleaseReplay::ReleaseReplay(ClientCore& core) : window_(retry_latch_lifetime(core.config()) / 2) {}

bool ReleaseReplay::records(const Config& config) noexcept {
  return config.sentinel.has_value() || config.cluster.has_value();
}

std::string ReleaseReplay::key_of(std::string_view name, OwnerId owner) {
  std::string key(name);
  key.append(1, '\0').append(std::to_string(owner.value()));
  return key;
}

bool ReleaseReplay::acquiring(ClientCore& core, std::string_view name, OwnerId owner) noexcept {
  if (!records(core.config())) return false;
  try {
    return core.service<ReleaseReplay>().drop(key_of(name, owner));
  } catch (...) {  // out of memory for the key: the repeats stay, and should one release the
    // hold this attempt takes, the owner learns it (the watchdog's lost report, or its unlock
    // answered not_owner); the count is set, as if one was kept
    return true;
  }
}

void ReleaseReplay::pop_oldest() {
  const auto found = keys_.find(entries_.front().key);
  if (found != keys_.end() && --found->second.kept == 0) keys_.erase(found);
  entries_.pop_front();
}

void ReleaseReplay::keep(std::string key, std::function<void()> resend) {
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  while (!entries_.empty() && (entries_.front().until <= now || entries_.size() >= kCapacity)) {
    pop_oldest();
  }
  auto& state = keys_[key];
  ++state.kept;
  state.newest = next_number_;
  entries_.push_back(Entry{std::move(key), std::move(resend), now + window_, next_number_++});
}

bool ReleaseReplay::drop(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto found = keys_.find(key);
  if (found == keys_.end()) return false;
  const bool pending = found->second.newest >= found->second.dropped_below;
  found->second.dropped_below = next_number_;
  return pending;
}

void ReleaseReplay::topology_changed() {
  const auto now = Clock::now();
  // Sent under the mutex: an acquire attempt that drops an entry waits, so it is sent after.
  // Sending only queues the command.
  std::lock_guard lock(mutex_);
  while (!entries_.empty() && entries_.front().until <= now) pop_oldest();
  // Kept: another change within the window sends them again, and the latch answers.
  for (const auto& entry : entries_) {
    if (entry.number >= keys_[entry.key].dropped_below) entry.resend();
  }
}

}  // namespace redisson::detail
