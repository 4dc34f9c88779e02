// redisson::MapCache<K, V>: a map whose entries expire one by one, Java Redisson's RMapCache.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/map.hpp"

namespace redisson {

/// Which of Redisson's MapCache entry events a listener hears (Java's EntryCreatedListener, ...).
enum class MapCacheEventKind { created, updated, removed, expired };

/// One entry event of a MapCache: its key and value; for `updated`, the new value, with the
/// value it replaced in `old_value`.
template <class K, class V>
struct MapCacheEvent {
  MapCacheEventKind kind;
  K key;
  V value;
  std::optional<V> old_value;

  friend bool operator==(const MapCacheEvent&, const MapCacheEvent&) = default;
};

namespace detail {
/// Subscribes to the map cache's channel of `kind` (redisson_map_cache_<kind>:{n}) in the
/// client's registry of topic listeners, then sets has-listeners in {n}:redisson_options, as
/// Java's addListener does; completes with the listener's id. `on_parts` runs on the listener
/// threads with each message's parts (key, value[, old value]); a message of another shape, and
/// anything `on_parts` throws, goes to Config::error_handler.
void start_map_cache_listen(const ObjectPtr& object, MapCacheEventKind kind,
                            std::function<void(const std::vector<std::string>& parts)> on_parts,
                            Done<ListenerId> done);

/// The MapCache scripts (src/objects/lua/map_cache_*.lua), run on the five keys of the map.
enum class MapCacheScript {
  put,
  get,
  remove,
  remaining_ttl,
  set_max_size,
  sweep,
  expire_entries,
  get_ttl_only
};
/// Starts `script` with ARGV = now (the client's clock, ms since the epoch), then `args`, then
/// the event channels the script publishes on (set_max_size: `args` only). For put, `args` = ttl
/// ms, max idle ms, key bytes, value bytes, mode, and the durations become the deadlines now + ttl,
/// now + max idle (0: none). For expire_entries, `args` = ttl ms, max idle ms, 'always' or
/// 'if_not_set', the keys' bytes; for get_ttl_only, the keys' bytes (no keys: an empty reply,
/// nothing sent). For sweep, `args` = the most entries to remove, the seconds to hold
/// Redisson's once-per-interval latch (0: ignore it).
void start_map_cache_script(const ObjectPtr& object, MapCacheScript script,
                            const std::vector<std::string>& args, Done<Reply>& done);
/// The keys besides the hash: redisson__timeout__set:{n}, redisson__idle__set:{n},
/// redisson__map_cache__last_access__set:{n}, {n}:redisson_options.
std::vector<std::string> map_cache_keys(const std::string& name);
inline constexpr ObjectHooks map_cache_hooks{.extra_keys = &map_cache_keys};
/// This client's sweeper of the map cache (src/objects/sweeper.hpp); null when it is off.
std::shared_ptr<void> map_cache_sweeper(const ObjectPtr& object);
/// A time to live or max idle time as the scripts' milliseconds; negative is invalid_argument.
std::int64_t map_cache_ms(std::chrono::milliseconds duration, const char* what);
/// The Map operations over a MapCache's layout: the MapCache scripts, which treat an expired
/// entry as absent, move idle deadlines on reads, keep a bounded map's LRU/LFU scores and publish
/// the entry events; entries() scans live entries only (map_cache_scan.lua).
extern const MapLayout map_cache_layout;
}  // namespace detail

/// Which entries a bounded MapCache evicts first (Redisson's EvictionMode).
enum class EvictionMode {
  lru,  ///< the least recently used (scores: last access time)
  lfu   ///< the least often used (scores: access counts)
};

/// A map of K to V whose entries may each have a time to live and a max idle time, in Java
/// Redisson's RMapCache layout (3.52), so a Java service and a C++ service share one map cache:
///
///   n                                           hash: field = key bytes, value = struct 'dLc0':
///                                               max idle ms as an 8-byte LE double (0: none),
///                                               8-byte LE length, the value's bytes
///   redisson__timeout__set:{n}                  zset: key bytes scored by the expiry time, ms
///   redisson__idle__set:{n}                     zset: key bytes scored by last access + max idle
///   redisson__map_cache__last_access__set:{n}   zset: LRU/LFU bookkeeping of a bounded map
///   {n}:redisson_options                        hash: max-size, mode, has-listeners
///
/// It is a Map<K, V> (as Java's RMapCache is an RMap): every Map operation works on it, run by the
/// MapCache scripts, plus the forms with a time to live and a max idle time below. An expired entry
/// is invisible at once: every read (get, get_all, contains_key, contains_value, value_size,
/// entries(), read_all_*, random_*, the value a put or remove answers) checks both zsets on the
/// server (times are the client's clock, as in Redisson, so clients need synchronised clocks).
/// Expired entries stay in Redis until a sweeper removes them: this client's (Config::eviction: one
/// per client and map cache while a handle exists, Redisson's schedule and once-per-interval latch,
/// publishing expired events), a Java client's, or evict_expired(); size() and empty() count them
/// until then. Reading an entry with a max idle time (get, get_all, contains_key, read_all_*,
/// random_*) moves its idle deadline. Writes publish Redisson's created/updated/removed events when
/// a listener has registered (has-listeners). A map bounded by set_max_size() (here or by Java)
/// keeps LRU/LFU scores on reads and writes, and a put evicts the lowest-scored entries beyond the
/// bound. A put without a time to live (Map's put, fast_put, put_if_absent, ...) stores an entry
/// that never expires.
///
/// expire_entry() and its kin change the expiry of entries already there (Redisson's expireEntry
/// family: the new time to live and max idle time count from now, 0 removes that limit); the
/// *_with_ttl_only reads check only the time to live, and neither check nor move the max idle
/// time. compute() and compute_if_absent() also come with a time to live for what they store.
///
/// Cost: every operation is one script, one round trip, O(log n) in the zsets, except size() and
/// empty() (HLEN), contains_value() and read_all_* (a script that walks the hash, O(n)), and
/// put_all() (one put script per entry, pipelined: not atomic as a whole). delete_object(),
/// expire() and rename() act on all five keys.
///
/// A handle: cheap to copy, sends nothing until an operation is called, thread-safe.
template <JavaValue K, JavaValue V>
class MapCache : public Map<K, V> {
  using Base = Map<K, V>;

 public:
  /// A handle on the map cache `name`; sends nothing. `codec` null: the client's default codec.
  MapCache(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "MapCache", &detail::map_cache_hooks,
             detail::map_cache_layout) {
    this->keep_background_task(&detail::map_cache_sweeper);
  }

  // Map's forms (no time to live), beside the forms with one below.
  using Base::async_fast_put;
  using Base::async_put;
  using Base::async_put_if_absent;
  using Base::fast_put;
  using Base::put;
  using Base::put_if_absent;
  // Object's (the map's own time to live), beside the entry's below.
  using Object::async_remaining_time_to_live;
  using Object::remaining_time_to_live;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                      std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                           std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remaining_time_to_live(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set_max_size(std::int64_t max_size, EvictionMode mode, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_set_max_size(std::int64_t max_size, EvictionMode mode, CompletionToken&& token);
  template <class CompletionToken>
  auto async_evict_expired(std::int64_t limit, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_listener(MapCacheEventKind kind,
                          std::function<void(const MapCacheEvent<K, V>&)> listener,
                          CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_entry(const K& key, std::chrono::milliseconds ttl,
                          std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_entries(const std::vector<K>& keys, std::chrono::milliseconds ttl,
                            std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_entry_if_not_set(const K& key, std::chrono::milliseconds ttl,
                                     std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_expire_entries_if_not_set(const std::vector<K>& keys, std::chrono::milliseconds ttl,
                                       std::chrono::milliseconds max_idle, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_with_ttl_only(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_all_with_ttl_only(const std::vector<K>& keys, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // A ttl or max_idle of 0 means none (as in Redisson); a negative one is invalid_argument.

  /// Stores `value` under `key` for `ttl`; returns the live value it replaced.
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl) {
    return async_put(key, value, ttl, this->blocking("put"));
  }
  /// Stores `value` for `ttl`, or until it has not been read for `max_idle`, whichever comes
  /// first; returns the live value it replaced.
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl,
                       std::chrono::milliseconds max_idle) {
    return async_put(key, value, ttl, max_idle, this->blocking("put"));
  }
  /// Stores `value` like put() without answering the old one; true if `key` was absent or
  /// expired.
  bool fast_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                std::chrono::milliseconds max_idle = {}) {
    return async_fast_put(key, value, ttl, max_idle, this->blocking("fast_put"));
  }
  /// Stores `value` only if `key` is absent or expired; returns nullopt if stored, else the
  /// live value (left as it is).
  std::optional<V> put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                                 std::chrono::milliseconds max_idle = {}) {
    return async_put_if_absent(key, value, ttl, max_idle, this->blocking("put_if_absent"));
  }
  /// The time `key` has left: -1 ms when it never expires, -2 ms when it is absent or expired
  /// (as Redisson's remainTimeToLive(key)).
  std::chrono::milliseconds remaining_time_to_live(const K& key) const {
    return async_remaining_time_to_live(key, this->blocking("remaining_time_to_live"));
  }
  /// Bounds the map to `max_size` entries (0: unbounded): later puts evict beyond it. Entries
  /// already beyond it stay until the next put.
  void set_max_size(std::int64_t max_size, EvictionMode mode = EvictionMode::lru) {
    (void)async_set_max_size(max_size, mode, this->blocking("set_max_size"));
  }
  /// set_max_size() only if no max size is set yet; true if it set it.
  bool try_set_max_size(std::int64_t max_size, EvictionMode mode = EvictionMode::lru) {
    return async_try_set_max_size(max_size, mode, this->blocking("try_set_max_size"));
  }
  /// Calls `listener` for every `kind` event of this map cache, from any client, Java or C++,
  /// until remove_listener(id). Like Java's addListener it sets has-listeners in
  /// `{n}:redisson_options`, after which every writer publishes events (the flag stays when the
  /// listener is removed, as in Redisson). `listener` runs on the client's listener threads, as
  /// a topic listener does (one listener's events in order, one at a time). An event this codec
  /// cannot read, and an exception from `listener`, go to Config::error_handler. Returns once
  /// the server confirmed the subscription. Events are PUBLISHed, so on a Cluster with sharded
  /// pub/sub they do not arrive. The object events (ObjectEvent: put, removed, deleted,
  /// expired) are add_listener's other overload.
  ListenerId add_listener(MapCacheEventKind kind,
                          std::function<void(const MapCacheEvent<K, V>&)> listener) {
    return async_add_listener(kind, std::move(listener), this->blocking("add_listener"));
  }
  using Object::add_listener;
  using Object::async_add_listener;
  /// Removes up to `limit` (1..5000) expired entries from each of the TTL and idle sets now,
  /// as the sweeper does (publishing expired events); returns how many went.
  std::int64_t evict_expired(std::int64_t limit = 100) {
    return async_evict_expired(limit, this->blocking("evict_expired"));
  }
  /// Gives the live entry `key` the time to live `ttl` and max idle time `max_idle` from now (0:
  /// none; the value stays); true if it did (false: absent or expired). Java's expireEntry and
  /// updateEntryExpiration.
  bool expire_entry(const K& key, std::chrono::milliseconds ttl,
                    std::chrono::milliseconds max_idle = {}) {
    return async_expire_entry(key, ttl, max_idle, this->blocking("expire_entry"));
  }
  /// expire_entry() for each of `keys`, in one script; returns how many it changed.
  std::int64_t expire_entries(const std::vector<K>& keys, std::chrono::milliseconds ttl,
                              std::chrono::milliseconds max_idle = {}) {
    return async_expire_entries(keys, ttl, max_idle, this->blocking("expire_entries"));
  }
  /// expire_entry() only if the entry has neither a time to live nor a max idle deadline; true
  /// if it did.
  bool expire_entry_if_not_set(const K& key, std::chrono::milliseconds ttl,
                               std::chrono::milliseconds max_idle = {}) {
    return async_expire_entry_if_not_set(key, ttl, max_idle,
                                         this->blocking("expire_entry_if_not_set"));
  }
  /// expire_entry_if_not_set() for each of `keys`, in one script; returns how many it changed.
  std::int64_t expire_entries_if_not_set(const std::vector<K>& keys, std::chrono::milliseconds ttl,
                                         std::chrono::milliseconds max_idle = {}) {
    return async_expire_entries_if_not_set(keys, ttl, max_idle,
                                           this->blocking("expire_entries_if_not_set"));
  }
  /// The value of `key` unless absent or past its time to live; its max idle time is neither
  /// checked nor moved, nor its LRU/LFU score (Java's getWithTTLOnly).
  std::optional<V> get_with_ttl_only(const K& key) const {
    return async_get_with_ttl_only(key, this->blocking("get_with_ttl_only"));
  }
  /// get_with_ttl_only() for each of `keys`, in one script: the present ones, by key.
  std::map<K, V> get_all_with_ttl_only(const std::vector<K>& keys) const {
    return async_get_all_with_ttl_only(keys, this->blocking("get_all_with_ttl_only"));
  }
  // Map's compute and compute_if_absent (no time to live), beside the forms with one below.
  using Base::compute;
  using Base::compute_if_absent;
  /// Map's compute(), storing the new value for `ttl` (fast_put(key, value, ttl)).
  std::optional<V> compute(const K& key, std::chrono::milliseconds ttl,
                           const typename Base::Remapping& remap) {
    detail::map_cache_ms(ttl, "ttl");
    return this->compute_storing(key, remap,
                                 [this, ttl](const K& k, const V& v) { fast_put(k, v, ttl); });
  }
  /// Map's compute_if_absent(), storing the new value for `ttl` (put_if_absent(key, value, ttl)).
  std::optional<V> compute_if_absent(const K& key, std::chrono::milliseconds ttl,
                                     const std::function<std::optional<V>(const K& key)>& make) {
    detail::map_cache_ms(ttl, "ttl");
    return this->compute_if_absent_storing(
        key, make, [this, ttl](const K& k, const V& v) { return put_if_absent(k, v, ttl); });
  }

 private:
  /// A script whose ARGV (after now) `encode(codec)` makes when the operation starts.
  template <class R, class CompletionToken, class Convert, class Encode>
  auto script(CompletionToken&& token, Convert convert, detail::MapCacheScript which,
              Encode encode) const;
  template <class CompletionToken>
  auto max_size_script(CompletionToken&& token, std::int64_t max_size, EvictionMode mode,
                       const char* how);
  /// map_cache_expire_entries.lua in `mode` ('always' or 'if_not_set') on `keys`.
  template <class R, class CompletionToken, class Convert>
  auto expire_script(CompletionToken&& token, Convert convert, const char* mode,
                     std::vector<K> keys, std::chrono::milliseconds ttl,
                     std::chrono::milliseconds max_idle);
  /// map_cache_put.lua with mode 'put', 'fast' or 'if_absent'.
  template <class R, class CompletionToken, class Convert>
  auto put_script(CompletionToken&& token, Convert convert, const char* mode, const K& key,
                  const V& value, std::chrono::milliseconds ttl,
                  std::chrono::milliseconds max_idle);
};

}  // namespace redisson

#include "redisson/objects/impl/map_cache.hpp"
