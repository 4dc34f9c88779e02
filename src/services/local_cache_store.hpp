// The entries of one LocalCachedMap instance's cache, keyed by the map-key codec's bytes of each
// key (what a get has in hand, so a hit hashes nothing costly), and findable by Redisson's key
// hash (what the other instances' messages name), with the instance's limits: a size (making
// room by LRU, LFU or age), a time to live and a max idle.
// No I/O, no locking (the owner locks), no clock of its own (each call is told the time, and
// only needs it when a time limit is set), so its policy is tested without a server and without
// sleeping.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
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
    std::optional<std::string> value;  // nullopt: a cached miss
    std::shared_ptr<const void> decoded;
    std::uint64_t stamp = 0;  // changes whenever the entry is stored again
    Clock::time_point stored;
    Clock::time_point used;
    std::uint64_t uses = 0;
  };

  explicit LocalCacheStore(Limits limits) : limits_(limits) {}

  /// Whether the limits need the time (a time to live or a max idle): callers may pass any
  /// time point otherwise.
  bool timed() const noexcept {
    return limits_.time_to_live.count() > 0 || limits_.max_idle.count() > 0;
  }
  /// The live entry of `key` (its bytes), counted as used now; null when there is none (an
  /// expired one is dropped and counted as an eviction).
  const Entry* find(const std::string& key, Clock::time_point now);
  /// Stores an entry (replacing the one of `key`), making room first when full. `hash` is the
  /// key's Redisson hash.
  void put(const LocalCacheKeyHash& hash, std::string key, std::optional<std::string> value,
           Clock::time_point now);
  /// Sets the decoded value of `key`'s entry if it is still version `stamp`.
  void set_decoded(const std::string& key, std::uint64_t stamp,
                   std::shared_ptr<const void> decoded);
  /// Drops the entry whose key has this hash; false when there is none.
  bool erase(const LocalCacheKeyHash& hash);
  void clear();
  std::size_t size() const noexcept { return entries_.size(); }
  std::int64_t evictions() const noexcept { return evictions_; }
  /// Calls `visit` with each live entry's key bytes and entry (expired ones are left out).
  void for_each(Clock::time_point now,
                const std::function<void(const std::string& key, const Entry&)>& visit) const;

 private:
  struct HashOfKeyHash {
    std::size_t operator()(const LocalCacheKeyHash& hash) const noexcept;
  };
  // The order in which entries make room: (rank, sequence, key) lowest first. The rank is the
  // use count under LFU, 0 otherwise; the sequence is the last use (LRU) or the store. The key
  // points into entries_ (its nodes do not move).
  using Order = std::set<std::tuple<std::uint64_t, std::uint64_t, const std::string*>>;
  struct Slot {
    Entry entry;
    LocalCacheKeyHash hash{};
    Order::iterator place;
  };
  using Entries = std::unordered_map<std::string, Slot>;

  bool expired(const Entry& entry, Clock::time_point now) const;
  void drop(Entries::iterator at);
  Order::iterator place(const std::string* key, const Entry& entry);

  Limits limits_;
  Entries entries_;
  std::unordered_map<LocalCacheKeyHash, const std::string*, HashOfKeyHash> by_hash_;
  Order order_;
  std::uint64_t sequence_ = 0;
  std::uint64_t stamps_ = 0;
  std::int64_t evictions_ = 0;
};

}  // namespace redisson::detail
