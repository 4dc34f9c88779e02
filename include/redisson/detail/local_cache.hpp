// What LocalCachedMap's templates ask of its cache (the bodies: src/services/local_cached_map.cpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

/// How a LocalCachedMap instance's cache has done (counted since the instance was made).
struct LocalCacheStats {
  std::int64_t hits = 0;       ///< reads answered from the cache
  std::int64_t misses = 0;     ///< reads that went to Redis
  std::int64_t evictions = 0;  ///< entries dropped to make room, or expired locally
  std::int64_t size = 0;       ///< entries cached now
};

namespace detail {

/// LocalCachedMapOptions, as the .cpp reads them (the enums as their values).
struct LocalCacheSettings {
  int sync = 1;          // LocalCacheSync
  int reconnection = 0;  // LocalCacheReconnection
  int eviction = 0;      // LocalCacheEviction
  std::size_t cache_size = 0;
  std::chrono::milliseconds time_to_live{0};
  std::chrono::milliseconds max_idle{0};
  bool store_cache_miss = false;
  bool clear_when_map_expires = true;
  std::chrono::milliseconds updates_log_age{600000};
  /// False for a plain Map that only tells the near caches of its writes (Map's NearCaches):
  /// nothing cached, nothing subscribed.
  bool cache_locally = true;
};

/// The object hooks (the updates log as an extra key, the cache as the attached state, delete
/// publishing a clear) and the Map layout (writes publish, reads consult the cache) of a
/// LocalCachedMap.
struct MapLayout;
extern const ObjectHooks local_cached_map_hooks;
extern const MapLayout local_cached_map_layout;

/// Sets the instance's options (once, by the constructor; throws invalid_argument).
void configure_local_cache(const ObjectPtr& object, const LocalCacheSettings& settings);

enum class LocalCacheFind { missing, value, absent };
/// What the cache holds for a key: nothing (ask Redis), a value (its bytes, and the decoded
/// value when a get decoded it before), or "absent" (a cached miss).
struct LocalCacheFound {
  LocalCacheFind kind = LocalCacheFind::missing;
  std::string bytes;
  std::shared_ptr<const void> decoded;
  std::uint64_t stamp = 0;  // the entry's version, for remember_decoded
  std::string key_bytes;
};
/// Looks `key_bytes` up (counting a hit or a miss; subscribing on first use).
LocalCacheFound find_in_local_cache(const ObjectPtr& object, std::string key_bytes);
/// Keeps `decoded` (a V) beside the entry `found` came from, if it is still that version.
void remember_decoded(const ObjectPtr& object, const LocalCacheFound& found,
                      std::shared_ptr<const void> decoded);
/// The cached entries' key and value bytes (cached misses left out).
std::vector<std::pair<std::string, std::string>> local_cache_entries(const ObjectPtr& object);
LocalCacheStats local_cache_stats(const ObjectPtr& object);
void destroy_local_cache(const ObjectPtr& object);
void start_clear_local_caches(const ObjectPtr& object, Done<void> done);
void start_preload_local_cache(const ObjectPtr& object, std::int64_t page, Done<void> done);

template <class K>
K decode_map_key(const Codec& codec, std::string_view bytes) {
  return from_value<K>(codec.map_key_codec().decode(bytes));
}
template <class V>
V decode_map_value(const Codec& codec, std::string_view bytes) {
  return from_value<V>(codec.map_value_codec().decode(bytes));
}

}  // namespace detail
}  // namespace redisson
