#include "watchdog/hold_ledger.hpp"

#include <iterator>

namespace redisson::detail {

HoldLedger::Entry& HoldLedger::entry_locked(std::string_view name, std::string_view field) {
  const auto it = entries_.find(KeyView{name, field});
  if (it != entries_.end()) return it->second;
  return entries_.emplace(Key{std::string(name), std::string(field)}, Entry{}).first->second;
}

std::optional<std::int64_t> HoldLedger::reset_count(std::string_view name,
                                                    std::string_view field) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it == entries_.end() || !it->second.uncertain) return std::nullopt;
  return it->second.held + 1;
}

void HoldLedger::acquired(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  ++entry_locked(name, field).held;
}

void HoldLedger::reconciled(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it != entries_.end()) it->second.uncertain = false;
}

void HoldLedger::reply_lost(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  entry_locked(name, field).uncertain = true;
}

void HoldLedger::released(std::string_view name, std::string_view field, bool fully) {
  std::lock_guard lock(mutex_);
  if (fully) {
    const auto it = entries_.find(KeyView{name, field});
    if (it != entries_.end()) entries_.erase(it);
    return;
  }
  auto& entry = entry_locked(name, field);
  if (entry.held > 0) --entry.held;
  // The server still counts a hold that the client does not know of.
  if (entry.held == 0) entry.uncertain = true;
}

void HoldLedger::forget(std::string_view name, std::string_view field) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  if (it != entries_.end()) entries_.erase(it);
}

void HoldLedger::forget_all(std::string_view name) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->first.name == name ? entries_.erase(it) : std::next(it);
  }
}

std::int64_t HoldLedger::known(std::string_view name, std::string_view field) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(KeyView{name, field});
  return it == entries_.end() ? 0 : it->second.held;
}

}  // namespace redisson::detail
