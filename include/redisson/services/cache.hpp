// redisson::Cache<K, V> and CacheManager: named caches with a time to live, a max idle time and
// a size, as Redisson serves Spring Cache and JCache (RedissonSpringCacheManager, RedissonCache):
// on a MapCache (expiry and size kept in Redis) or a LocalCachedMap (a near cache per process).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/local_cached_map.hpp"
#include "redisson/objects/map_cache.hpp"

namespace redisson {

/// Where a Cache keeps its entries.
enum class CacheBackend {
  map_cache,         ///< a MapCache: each entry's time to live and max idle, and the size, in Redis
  local_cached_map,  ///< a LocalCachedMap: reads from a near cache in each process (the time to
                     ///< live, max idle and size are the near cache's; Redis keeps entries)
};

/// One named cache's settings (Redisson's CacheConfig). Zero: none.
struct CacheConfig {
  CacheBackend backend = CacheBackend::map_cache;
  std::chrono::milliseconds time_to_live{0};
  std::chrono::milliseconds max_idle{0};
  std::int64_t max_size = 0;
  /// The near cache's other options (local_cached_map only; its sync strategy, eviction...).
  LocalCachedMapOptions near_cache = {};
};

/// What a Cache handle and its copies did (Spring's and JCache's statistics), counted here.
struct CacheStats {
  std::int64_t hits = 0;      ///< get / get_or_compute answered from the cache
  std::int64_t misses = 0;    ///< get / get_or_compute found nothing
  std::int64_t puts = 0;      ///< values stored (by put, put_if_absent, and loads)
  std::int64_t removals = 0;  ///< evict() calls that removed an entry
};

/// A named cache of K to V in Redis, shared by every process that opens it with the same name
/// and codec (Java's Spring caches of that name too: Redisson stores a Spring cache as the
/// MapCache, or the local cached map, `name`).
///
/// get_or_compute(key, loader) is Redisson's RedissonCache.get(key, valueLoader): a get, and on
/// a miss the key's lock `{name}:<hash of the key's bytes>:lock` (Java's map.getLock(key)) is
/// taken, the value read again, and only if still absent `loader(key)` runs and its value is
/// stored; so one loader runs per key at a time across every process (Java's included). A loader
/// that throws stores nothing, and its exception propagates.
///
/// A handle: cheap to copy (the copies share the statistics), thread-safe.
template <JavaValue K, JavaValue V>
class Cache {
 public:
  Cache(const Client& client, std::string name, CacheConfig config = {}, CodecPtr codec = nullptr)
      : state_(std::make_shared<State>(client, std::move(name), std::move(config),
                                       std::move(codec))) {}

  const std::string& name() const noexcept { return map().name(); }
  const CacheConfig& config() const noexcept { return state_->config; }

  /// The value of `key`, or nullopt (counted as a hit or a miss).
  std::optional<V> get(const K& key) const {
    auto value = state_->local ? state_->local->get(key) : state_->map_cache->get(key);
    count(value ? state_->hits : state_->misses);
    return value;
  }
  /// Stores `value` under `key`, with the cache's time to live and max idle.
  void put(const K& key, const V& value) {
    state_->prepare();
    if (state_->local) {
      state_->local->fast_put(key, value);
    } else {
      state_->map_cache->fast_put(key, value, state_->config.time_to_live, state_->config.max_idle);
    }
    count(state_->puts);
  }
  /// Stores `value` only if `key` is absent; returns nullopt if stored, else the present value.
  std::optional<V> put_if_absent(const K& key, const V& value) {
    state_->prepare();
    auto present = state_->local
                       ? state_->local->put_if_absent(key, value)
                       : state_->map_cache->put_if_absent(key, value, state_->config.time_to_live,
                                                          state_->config.max_idle);
    if (!present) count(state_->puts);
    return present;
  }
  /// Removes `key`; true if it was there (Spring's evictIfPresent, JCache's remove).
  bool evict(const K& key) {
    const bool removed = map().fast_remove({key}) > 0;
    if (removed) count(state_->removals);
    return removed;
  }
  /// Removes every entry (the map is deleted; near caches are cleared).
  void clear() { map().delete_object(); }
  /// The value of `key`, or `loader(key)`'s, stored, when absent; one loader per key at a time
  /// across processes (see the class comment).
  V get_or_compute(const K& key, const std::function<V(const K& key)>& loader) {
    if (auto value = get(key)) return *value;
    state_->prepare();
    bool loaded = false;
    auto make = [&](const K& k) -> std::optional<V> {
      loaded = true;
      return loader(k);
    };
    std::optional<V> value;
    if (state_->local) {
      value = state_->local->compute_if_absent(key, make);
    } else if (state_->config.time_to_live.count() > 0) {
      value = state_->map_cache->compute_if_absent(key, state_->config.time_to_live, make);
    } else {
      value = state_->map_cache->compute_if_absent(key, make);
    }
    if (loaded) count(state_->puts);
    if (!value) throw error(errc::invalid_argument, "Cache " + name() + ": no value for the key");
    return *value;
  }
  /// What this handle and its copies counted.
  CacheStats stats() const {
    CacheStats stats;
    stats.hits = state_->hits.load();
    stats.misses = state_->misses.load();
    stats.puts = state_->puts.load();
    stats.removals = state_->removals.load();
    return stats;
  }
  /// The near cache behind a local_cached_map cache (preload_cache, local_cache_stats, ...);
  /// null for a map_cache one.
  LocalCachedMap<K, V>* near_cache() const { return state_->local ? &*state_->local : nullptr; }
  /// The map behind the cache, for every other Map operation.
  Map<K, V>& map() const {
    return state_->local ? static_cast<Map<K, V>&>(*state_->local)
                         : static_cast<Map<K, V>&>(*state_->map_cache);
  }

 private:
  struct State {
    State(const Client& client, std::string name, CacheConfig config_in, CodecPtr codec)
        : config(std::move(config_in)) {
      if (config.time_to_live.count() < 0 || config.max_idle.count() < 0 || config.max_size < 0) {
        throw error(errc::invalid_argument,
                    "Cache " + name + ": time_to_live, max_idle and max_size must not be negative");
      }
      if (config.backend == CacheBackend::local_cached_map) {
        auto options = config.near_cache;
        options.time_to_live = config.time_to_live;
        options.max_idle = config.max_idle;
        options.cache_size = static_cast<std::size_t>(config.max_size);
        local.emplace(client, std::move(name), options, std::move(codec));
      } else {
        map_cache.emplace(client, std::move(name), std::move(codec));
      }
    }
    /// Sets a MapCache's max size before its first write (as Redisson's cache manager does when
    /// it makes the cache); once per handle family.
    void prepare() {
      if (!map_cache || config.max_size == 0) return;
      std::call_once(sized, [this] { map_cache->set_max_size(config.max_size); });
    }

    CacheConfig config;
    std::optional<MapCache<K, V>> map_cache;
    std::optional<LocalCachedMap<K, V>> local;
    std::once_flag sized;
    std::atomic<std::int64_t> hits{0};
    std::atomic<std::int64_t> misses{0};
    std::atomic<std::int64_t> puts{0};
    std::atomic<std::int64_t> removals{0};
  };

  static void count(std::atomic<std::int64_t>& counter) {
    counter.fetch_add(1, std::memory_order_relaxed);
  }

  std::shared_ptr<State> state_;
};

/// Named caches, each with its CacheConfig (Redisson's RedissonSpringCacheManager): a name not
/// configured gets `default_config`, as Spring's dynamic caches do. Opening a cache sends
/// nothing; the same name gives handles on the same cache. The manager keeps a pointer to
/// `client`, which must outlive it (the caches it opened need not).
class CacheManager {
 public:
  explicit CacheManager(const Client& client, std::map<std::string, CacheConfig> configs = {},
                        CacheConfig default_config = {}, CodecPtr codec = nullptr)
      : client_(&client),
        configs_(std::move(configs)),
        default_(std::move(default_config)),
        codec_(std::move(codec)) {}

  /// The cache `name`, with its configuration.
  template <JavaValue K, JavaValue V>
  Cache<K, V> cache(const std::string& name) const {
    const auto at = configs_.find(name);
    return Cache<K, V>(*client_, name, at == configs_.end() ? default_ : at->second, codec_);
  }
  /// The configured names (Spring's getCacheNames).
  std::vector<std::string> cache_names() const {
    std::vector<std::string> names;
    for (const auto& [name, config] : configs_) names.push_back(name);
    return names;
  }

 private:
  const Client* client_;
  std::map<std::string, CacheConfig> configs_;
  CacheConfig default_;
  CodecPtr codec_;
};

}  // namespace redisson
