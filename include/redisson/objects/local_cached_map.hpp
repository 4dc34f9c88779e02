// redisson::LocalCachedMap<K, V>: a Map with a near cache in this process, Java Redisson's
// RLocalCachedMap, kept coherent with the other processes' caches through `{name}:topic`.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/detail/local_cache.hpp"
#include "redisson/objects/map.hpp"

namespace redisson {

/// How a write reaches the other instances' caches (Redisson's SyncStrategy).
enum class LocalCacheSync {
  none,        ///< not at all: each cache keeps what it read until it is evicted
  invalidate,  ///< the written keys are dropped from the others' caches (their next get reads)
  update,      ///< the new values are sent to the others' caches (removals are invalidations)
};

/// What a cache does when its subscription to `{name}:topic` comes back after a disconnection,
/// during which it heard nothing (Redisson's ReconnectionStrategy).
enum class LocalCacheReconnection {
  none,   ///< keeps everything: entries written meanwhile by others may be stale
  clear,  ///< drops everything
  load,   ///< drops the entries written meanwhile, read from the map's updates log (every
          ///< writer then logs its writes in `redisson__cache_updates_log:{name}`)
};

/// Which entry makes room when the cache is full (Redisson's EvictionPolicy). Java's SOFT and
/// WEAK hand the choice to the JVM's garbage collector, which C++ has not: use a size.
enum class LocalCacheEviction {
  none,  ///< a size limit drops the oldest entry
  lru,   ///< the least recently used
  lfu,   ///< the least frequently used
};

/// The options of a LocalCachedMap (Redisson's LocalCachedMapOptions). The defaults are
/// Redisson's: invalidate, no reconnection strategy, no eviction, no limits.
struct LocalCachedMapOptions {
  LocalCacheSync sync = LocalCacheSync::invalidate;
  LocalCacheReconnection reconnection = LocalCacheReconnection::none;
  LocalCacheEviction eviction = LocalCacheEviction::none;
  /// The most entries the cache holds (0: no limit).
  std::size_t cache_size = 0;
  /// How long an entry stays cached after it was stored (0: for ever).
  std::chrono::milliseconds time_to_live{0};
  /// How long an entry stays cached without being read (0: for ever).
  std::chrono::milliseconds max_idle{0};
  /// Also cache that a key is absent, so that asking again sends nothing.
  bool store_cache_miss = false;
  /// Drop the whole cache when the map's key expires in Redis (Redisson's default expiration
  /// event policy: a `__keyevent@*:expired` pattern subscription, which hears something only
  /// when the server's notify-keyspace-events has `Ex`).
  bool clear_when_map_expires = true;
  /// How long writers keep their updates log entries under the load strategy, and so how long a
  /// disconnection may last for `load` to apply (longer: the cache is cleared). Redisson's 10
  /// minutes.
  std::chrono::milliseconds updates_log_age = std::chrono::minutes(10);
};

template <JavaValue K, JavaValue V>
class TransactionalLocalCachedMap;

/// A Map<K, V> (every Map operation works on it, through the same hash) whose reads are served
/// from a cache in this process once an entry was read or written here: a hit costs no round
/// trip. The layout of Java Redisson's RLocalCachedMap: writes go to the hash `name` and, in the
/// same script, publish Redisson's message bytes on `{name}:topic` (SPUBLISH on a Cluster with
/// sharded pub/sub, as Redisson does), which every other instance (Java's too) applies to its
/// cache, and the other way round. A plain Map write publishes nothing, so a near cache does
/// not hear of it.
///
/// Each LocalCachedMap made is an instance with a cache of its own (as each Java
/// getLocalCachedMap call is); copies of the handle share it. The cache is filled only while
/// the instance is subscribed: the first operation subscribes (answered from Redis until the
/// server confirmed), and after a disconnection the reconnection strategy says what happens.
/// A read whose reply raced a write that was heard meanwhile is not cached, and a write's value
/// is cached when the write's own message comes back (the messages arrive in the order the
/// server ran the writes), so a cache never keeps a value older than a write it heard of.
///
/// What is cached: the values of get, get_all, contains_key (a hit answers it), the entries
/// written here (a moment after the write returns), and read_all_map / preload_cache. Values other
/// instances wrote come with `update`; with `invalidate` they are read again when next asked. Under
/// `none`, nothing is published and each cache goes stale until its entries expire locally.
///
/// A handle: cheap to copy, thread-safe. The subscription ends with the last copy (or
/// destroy()).
template <JavaValue K, JavaValue V>
class LocalCachedMap : public Map<K, V> {
  using Base = Map<K, V>;

 public:
  /// An instance of the near cache of the map `name`; sends nothing until used. `codec` null:
  /// the client's default codec. Bad options (a negative duration) are invalid_argument.
  LocalCachedMap(const Client& client, std::string name, LocalCachedMapOptions options = {},
                 CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "LocalCachedMap",
             &detail::local_cached_map_hooks, detail::local_cached_map_layout),
        options_(options) {
    detail::configure_local_cache(this->object_, to_settings(options));
  }

  /// The options this instance was made with.
  const LocalCachedMapOptions& options() const noexcept { return options_; }

  // ---- asynchronous forms ------------------------------------------------------------------
  template <class CompletionToken>
  auto async_clear_local_cache(CompletionToken&& token) {
    return this->template run<void>(token, &detail::start_clear_local_caches);
  }
  template <class CompletionToken>
  auto async_preload_cache(std::int64_t count, CompletionToken&& token) {
    return this->template run<void>(token, &detail::start_preload_local_cache, count);
  }

  // ---- blocking forms ----------------------------------------------------------------------
  /// The value of `key`: from the cache when it holds it (no round trip), else from Redis (and
  /// then cached).
  std::optional<V> get(const K& key) const {
    auto found =
        detail::find_in_local_cache(this->object_, detail::map_key_bytes(this->codec(), key));
    if (found.kind == detail::LocalCacheFind::absent) return std::nullopt;
    if (found.kind == detail::LocalCacheFind::value) {
      if (found.decoded) return *static_cast<const V*>(found.decoded.get());
      auto value =
          std::make_shared<const V>(detail::decode_map_value<V>(this->codec(), found.bytes));
      detail::remember_decoded(this->object_, found, value);
      return *value;
    }
    return Base::get(key);
  }
  /// Clears this instance's cache and every other instance's (Java's clearLocalCache: a `00`
  /// message; waits up to 40 s for the other instances to say they cleared, as Redisson
  /// does). The map itself is left alone.
  void clear_local_cache() {
    async_clear_local_cache(detail::blocking("clear_local_cache", this->name()));
  }
  /// Reads the map's entries (HSCAN, pages of `count`) into the cache (Java's preloadCache);
  /// `count` is the page size. Waits for the instance's subscription first (it fills only a
  /// subscribed cache): after it returns, the cache is live.
  void preload_cache(std::int64_t count = 100) {
    async_preload_cache(count, detail::blocking("preload_cache", this->name()));
  }
  /// The keys cached now (Java's cachedKeySet; entries cached as absent are left out).
  std::set<K> cached_key_set() const {
    std::set<K> keys;
    for (const auto& [key, value] : detail::local_cache_entries(this->object_)) {
      keys.insert(detail::decode_map_key<K>(this->codec(), key));
    }
    return keys;
  }
  /// The values cached now (Java's cachedValues).
  std::vector<V> cached_values() const {
    std::vector<V> values;
    for (const auto& [key, value] : detail::local_cache_entries(this->object_)) {
      values.push_back(detail::decode_map_value<V>(this->codec(), value));
    }
    return values;
  }
  /// The entries cached now (Java's getCachedMap and cachedEntrySet).
  std::map<K, V> cached_map() const {
    std::map<K, V> entries;
    for (const auto& [key, value] : detail::local_cache_entries(this->object_)) {
      entries.emplace(detail::decode_map_key<K>(this->codec(), key),
                      detail::decode_map_value<V>(this->codec(), value));
    }
    return entries;
  }
  /// How the cache has done since this instance was made.
  LocalCacheStats local_cache_stats() const { return detail::local_cache_stats(this->object_); }
  /// Ends this instance's subscription and empties its cache (Java's destroy); the handle stays
  /// usable as a plain Map afterwards, uncached. Idempotent.
  void destroy() { detail::destroy_local_cache(this->object_); }

 private:
  template <JavaValue, JavaValue>
  friend class TransactionalLocalCachedMap;

  static detail::LocalCacheSettings to_settings(const LocalCachedMapOptions& options) {
    detail::LocalCacheSettings settings;
    settings.sync = static_cast<int>(options.sync);
    settings.reconnection = static_cast<int>(options.reconnection);
    settings.eviction = static_cast<int>(options.eviction);
    settings.cache_size = options.cache_size;
    settings.time_to_live = options.time_to_live;
    settings.max_idle = options.max_idle;
    settings.store_cache_miss = options.store_cache_miss;
    settings.clear_when_map_expires = options.clear_when_map_expires;
    settings.updates_log_age = options.updates_log_age;
    return settings;
  }

  LocalCachedMapOptions options_;
};

}  // namespace redisson
