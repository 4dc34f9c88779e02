#include "watchdog/hold_registry.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

namespace redisson::detail {

namespace {

// The callbacks are made only when asked for (rarely); an entry keeps just its lock.
HoldRegistry::LostCallback lost_callback(std::shared_ptr<HoldRegistry::HeldLock> lock,
                                         OwnerId owner) {
  if (!lock) return {};
  return [lock = std::move(lock), owner] { lock->hold_lost(owner); };
}

HoldRegistry::ReleaseAll release_callback(std::shared_ptr<HoldRegistry::HeldLock> lock,
                                          OwnerId owner) {
  if (!lock) return {};
  return [lock = std::move(lock), owner](Done<void> done) {
    lock->release_all(owner, std::move(done));
  };
}

}  // namespace

bool HoldRegistry::Entry::watched() const {
  return std::any_of(holds.begin(), holds.end(), [](const Hold& hold) { return hold.watched; });
}

HoldRegistry::Entry& HoldRegistry::entry_locked(std::string_view name, std::string_view field) {
  const auto it = entries_.find(KeyView{name, field});
  if (it != entries_.end()) return it->second;
  return entries_.emplace(Key{std::string(name), std::string(field)}, Entry{}).first->second;
}

void HoldRegistry::erase_if_idle_locked(std::map<Key, Entry, KeyLess>::iterator it) {
  if (it->second.holds.empty() && !it->second.uncertain) entries_.erase(it);
}

void HoldRegistry::mark_lost_locked(std::string_view name, std::string_view field) {
  if (lost_.find(KeyView{name, field}) == lost_.end()) {
    lost_.insert(Key{std::string(name), std::string(field)});
  }
}

bool HoldRegistry::acquired(std::string_view name, std::string_view field, OwnerId owner,
                            std::chrono::milliseconds lease, const ScriptDef* renew,
                            std::shared_ptr<HeldLock> held, bool reconciled) {
  std::lock_guard lock(mutex_);
  if (!lost_.empty()) {
    if (const auto it = lost_.find(KeyView{name, field}); it != lost_.end()) lost_.erase(it);
  }
  auto& entry = entry_locked(name, field);
  entry.holds.push_back(Hold{lease, renew != nullptr});
  if (renew != nullptr) entry.renew = renew;
  if (held) entry.lock = std::move(held);
  entry.owner = owner;
  if (reconciled) entry.uncertain = false;
  entry.registration = next_registration_++;
  return entry.watched();
}

void HoldRegistry::released(std::string_view name, std::string_view field, Released outcome) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(KeyView{name, field});
  if (outcome.fully) {
    if (it != entries_.end()) entries_.erase(it);
    return;
  }
  if (it == entries_.end()) {
    // The server still counts a hold that the client does not know of.
    entry_locked(name, field).uncertain = true;
    return;
  }
  auto& holds = it->second.holds;
  const auto left = outcome.left.value_or(static_cast<std::int64_t>(holds.size()) - 1);
  while (static_cast<std::int64_t>(holds.size()) > std::max<std::int64_t>(left, 0)) {
    holds.pop_back();
  }
  // Holds remain on the server beyond those the client knows of.
  if (static_cast<std::int64_t>(holds.size()) < std::max<std::int64_t>(left, 1)) {
    it->second.uncertain = true;
  }
  erase_if_idle_locked(it);
}

bool HoldRegistry::not_held(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it == entries_.end()) return false;
  const bool had_holds = !it->second.holds.empty();
  entries_.erase(it);
  if (had_holds) mark_lost_locked(name, field);
  return had_holds;
}

void HoldRegistry::unlock_failed(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it == entries_.end()) return;
  // Nothing of this pair is renewed any more: whatever the server still has ends with its lease.
  it->second.holds.clear();
  it->second.uncertain = true;
  mark_lost_locked(name, field);
}

void HoldRegistry::reply_lost(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  entry_locked(name, field).uncertain = true;
}

void HoldRegistry::forget_all(std::string_view name) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->first.name == name ? entries_.erase(it) : std::next(it);
  }
}

std::vector<HoldRegistry::Abandoned> HoldRegistry::owner_exited(OwnerId owner) {
  std::vector<Abandoned> out;
  // Destroyed after the mutex is let go: an entry keeps its lock kind (see clear()).
  std::vector<std::shared_ptr<HeldLock>> dropped;
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.owner != owner) {
      ++it;
      continue;
    }
    if (it->second.watched()) {
      out.push_back(
          Abandoned{it->first.name, it->first.field, lost_callback(it->second.lock, owner)});
      mark_lost_locked(it->first.name, it->first.field);
    }
    dropped.push_back(std::move(it->second.lock));
    it = entries_.erase(it);
  }
  return out;
}

std::optional<std::int64_t> HoldRegistry::reset_count(std::string_view name, std::string_view field,
                                                      bool unlocked_lately) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  const bool uncertain = it != entries_.end() && it->second.uncertain;
  if (!uncertain && !unlocked_lately) return std::nullopt;
  return static_cast<std::int64_t>(it == entries_.end() ? 0 : it->second.holds.size()) + 1;
}

std::chrono::milliseconds HoldRegistry::newest_lease(std::string_view name, std::string_view field,
                                                     std::chrono::milliseconds otherwise) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it == entries_.end() || it->second.holds.empty()) return otherwise;
  return it->second.holds.back().lease;
}

bool HoldRegistry::was_lost(std::string_view name, std::string_view field) const {
  std::lock_guard lock(mutex_);
  return lost_.find(KeyView{name, field}) != lost_.end();
}

std::vector<HoldRegistry::Renewal> HoldRegistry::renewals() const {
  return renewals_after(nullptr, std::numeric_limits<std::size_t>::max());
}

std::vector<HoldRegistry::Renewal> HoldRegistry::renewals_after(const Renewal* after,
                                                                std::size_t limit) const {
  std::vector<Renewal> out;
  std::lock_guard lock(mutex_);
  auto it = after == nullptr ? entries_.begin()
                             : entries_.upper_bound(KeyView{after->name, after->field});
  for (; it != entries_.end() && out.size() < limit; ++it) {
    const auto& [key, entry] = *it;
    if (entry.renew != nullptr && entry.watched()) {
      out.push_back(Renewal{entry.renew, key.name, key.field, entry.registration});
    }
  }
  return out;
}

std::optional<HoldRegistry::LostCallback> HoldRegistry::renewal_found_gone(const Renewal& renewal) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{renewal.name, renewal.field});
  // Unlocked (or acquired again) since this renewal was sent: its answer is stale.
  if (it == entries_.end() || it->second.registration != renewal.registration) return std::nullopt;
  auto callback = lost_callback(std::move(it->second.lock), it->second.owner);
  entries_.erase(it);
  mark_lost_locked(renewal.name, renewal.field);
  return callback;
}

std::size_t HoldRegistry::watched() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(
      entries_.begin(), entries_.end(), [](const auto& item) { return item.second.watched(); }));
}

std::int64_t HoldRegistry::known(std::string_view name, std::string_view field) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  return it == entries_.end() ? 0 : static_cast<std::int64_t>(it->second.holds.size());
}

std::vector<HoldRegistry::Held> HoldRegistry::renewed_holds() const {
  std::vector<Held> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, entry] : entries_) {
    if (entry.watched() && entry.lock) {
      out.push_back(Held{key.name, key.field, release_callback(entry.lock, entry.owner)});
    }
  }
  return out;
}

void HoldRegistry::clear() {
  std::map<Key, Entry, KeyLess> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(entries_);
  }
  // Destroyed outside the lock: an entry's release keeps its lock kind, whose destruction may
  // reach back into this registry.
}

}  // namespace redisson::detail
