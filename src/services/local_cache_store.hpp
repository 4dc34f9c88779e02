// The entries of one LocalCachedMap instance's cache, keyed by Redisson's key hash, with the
// instance's limits: a size (making room by LRU, LFU or age), a time to live and a max idle.
// No I/O, no locking (the owner locks), no clock of its own (each call is told the time), so its
// policy is tested without a server and without sleeping.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "services/local_cache_messages.hpp"

namespace redisson::detail {

class LocalCacheStore {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Eviction { oldest, lru, lfu };
  struct Limits {
    Eviction eviction = Eviction::oldest;
    std::size_t max_size = 0;  // 0: none
    std::chrono::milliseconds time_to_live{0};
    std::chrono::milliseconds max_idle{0};
  };
  struct Entry {
    std::string key;                   // the map-key codec's bytes
    std::optional<std::string> value;  // nullopt: a cached miss
    std::shared_ptr<const void> decoded;
    std::uint64_t stamp = 0;  // changes whenever the entry is stored again
    Clock::time_point stored;
    Clock::time_point used;
    std::uint64_t uses = 0;
  };

  explicit LocalCacheStore(Limits limits) : limits_(limits) {}

  /// The live entry of `hash`, counted as used now; null when there is none (an expired one is
  /// dropped and counted as an eviction).
  const Entry* find(const LocalCacheKeyHash& hash, Clock::time_point now);
  /// Stores an entry (replacing the one of `hash`), making room first when full.
  void put(const LocalCacheKeyHash& hash, std::string key, std::optional<std::string> value,
           Clock::time_point now);
  /// Sets the decoded value of `hash`'s entry if it is still version `stamp`.
  void set_decoded(const LocalCacheKeyHash& hash, std::uint64_t stamp,
                   std::shared_ptr<const void> decoded);
  bool erase(const LocalCacheKeyHash& hash);
  void clear();
  std::size_t size() const noexcept { return entries_.size(); }
  std::int64_t evictions() const noexcept { return evictions_; }
  /// Calls `visit` with each live entry (expired ones are left out, not dropped).
  void for_each(Clock::time_point now, const std::function<void(const Entry&)>& visit) const;

 private:
  struct HashOfKeyHash {
    std::size_t operator()(const LocalCacheKeyHash& hash) const noexcept;
  };
  // The order in which entries make room: (rank, sequence) -> hash, lowest first. The rank is
  // the use count under LFU, 0 otherwise; the sequence is the last use (LRU) or the store.
  using Order = std::set<std::tuple<std::uint64_t, std::uint64_t, LocalCacheKeyHash>>;
  struct Slot {
    Entry entry;
    Order::iterator place;
  };

  bool expired(const Entry& entry, Clock::time_point now) const;
  void drop(std::unordered_map<LocalCacheKeyHash, Slot, HashOfKeyHash>::iterator at);
  Order::iterator place(const LocalCacheKeyHash& hash, const Entry& entry);

  Limits limits_;
  std::unordered_map<LocalCacheKeyHash, Slot, HashOfKeyHash> entries_;
  Order order_;
  std::uint64_t sequence_ = 0;
  std::uint64_t stamps_ = 0;
  std::int64_t evictions_ = 0;
};

}  // namespace redisson::detail
