#include "services/local_cache_store.hpp"

#include <cstring>
#include <utility>

namespace redisson::detail {

std::size_t LocalCacheStore::HashOfKeyHash::operator()(
    const LocalCacheKeyHash& hash) const noexcept {
  // The key hash is HighwayHash output already: any 8 of its bytes are well mixed.
  std::size_t value = 0;
  std::memcpy(&value, hash.data(), sizeof value);
  return value;
}

bool LocalCacheStore::expired(const Entry& entry, Clock::time_point now) const {
  if (limits_.time_to_live.count() > 0 && now - entry.stored >= limits_.time_to_live) return true;
  return limits_.max_idle.count() > 0 && now - entry.used >= limits_.max_idle;
}

LocalCacheStore::Order::iterator LocalCacheStore::place(const std::string* key,
                                                        const Entry& entry) {
  const std::uint64_t rank = limits_.eviction == Eviction::lfu ? entry.uses : 0;
  return order_.emplace(rank, ++sequence_, key).first;
}

void LocalCacheStore::drop(Entries::iterator at) {
  order_.erase(at->second.place);
  by_hash_.erase(at->second.hash);
  entries_.erase(at);
}

const LocalCacheStore::Entry* LocalCacheStore::find(const std::string& key, Clock::time_point now) {
  const auto at = entries_.find(key);
  if (at == entries_.end()) return nullptr;
  if (expired(at->second.entry, now)) {
    drop(at);
    ++evictions_;
    return nullptr;
  }
  auto& slot = at->second;
  slot.entry.used = now;
  ++slot.entry.uses;
  if (limits_.eviction != Eviction::oldest) {
    order_.erase(slot.place);
    slot.place = place(&at->first, slot.entry);
  }
  return &slot.entry;
}

void LocalCacheStore::put(const LocalCacheKeyHash& hash, std::string key,
                          std::optional<std::string> value, Clock::time_point now) {
  if (const auto at = entries_.find(key); at != entries_.end()) drop(at);
  while (limits_.max_size > 0 && entries_.size() >= limits_.max_size && !order_.empty()) {
    drop(entries_.find(*std::get<2>(*order_.begin())));
    ++evictions_;
  }
  const auto [at, added] = entries_.try_emplace(std::move(key));
  auto& slot = at->second;
  slot.entry.value = std::move(value);
  slot.entry.stamp = ++stamps_;
  slot.entry.stored = now;
  slot.entry.used = now;
  slot.hash = hash;
  slot.place = place(&at->first, slot.entry);
  // Two keys with one hash (not expected of a 128-bit hash): the older entry goes.
  if (const auto other = by_hash_.find(hash); other != by_hash_.end()) {
    drop(entries_.find(*other->second));
  }
  by_hash_.emplace(hash, &at->first);
}

void LocalCacheStore::set_decoded(const std::string& key, std::uint64_t stamp,
                                  std::shared_ptr<const void> decoded) {
  const auto at = entries_.find(key);
  if (at != entries_.end() && at->second.entry.stamp == stamp) {
    at->second.entry.decoded = std::move(decoded);
  }
}

bool LocalCacheStore::erase(const LocalCacheKeyHash& hash) {
  const auto at = by_hash_.find(hash);
  if (at == by_hash_.end()) return false;
  drop(entries_.find(*at->second));
  return true;
}

void LocalCacheStore::clear() {
  entries_.clear();
  by_hash_.clear();
  order_.clear();
}

void LocalCacheStore::for_each(
    Clock::time_point now,
    const std::function<void(const std::string& key, const Entry&)>& visit) const {
  for (const auto& [key, slot] : entries_) {
    if (!expired(slot.entry, now)) visit(key, slot.entry);
  }
}

}  // namespace redisson::detail
