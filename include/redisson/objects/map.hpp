// redisson::Map<K, V>: a map shared through one Redis hash, Java Redisson's RMap.
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/detail/local_cache.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/keyed_synchronizers.hpp"
#include "redisson/objects/map_keys.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// What a Map operation asks of the server, whatever the layout of the map behind it. Its
/// arguments are the encoded bytes named here; it completes with the reply named here.
enum class MapOp {
  get,                 ///< key -> the value, or nil
  put,                 ///< key, value -> the value replaced, or nil
  put_if_absent,       ///< key, value -> nil if stored, else the present value
  put_if_exists,       ///< key, value -> the value replaced, or nil (nothing stored)
  fast_put,            ///< key, value -> 1 if the key was new
  fast_put_if_absent,  ///< key, value -> 1 if stored
  fast_put_if_exists,  ///< key, value -> 1 if stored
  replace_if_equal,    ///< key, expected, "1" + update (replace) or "0" + "" (remove) -> 1/0
  remove,              ///< key -> the value removed, or nil
  fast_remove,         ///< keys... -> how many were there (0, nothing sent, for none)
  contains_key,        ///< key -> 1/0
  contains_value,      ///< value -> 1/0
  size,                ///< -> the number of entries
  get_all,             ///< keys... -> their values in order, nil for absent ones
  put_all,             ///< key, value, key, value... -> anything (not atomic as a whole)
  add_and_get,         ///< key, delta as decimal text -> the new number (integer or text)
  value_size,          ///< key -> the length of its value's bytes (0 when absent)
  read_all_keys,       ///< -> every key
  read_all_values,     ///< -> every value
  read_all_entries,    ///< -> key, value, key, value... (or [key, value] pairs)
  random_keys,         ///< count -> up to count distinct keys picked at random
  random_entries,  ///< count -> up to count distinct entries picked at random, as read_all_entries
};
/// How one kind of map carries the Map operations out: a Map's plain hash commands and
/// scripts, or a MapCache's scripts that also keep (and respect) its expiry sets.
struct MapLayout {
  void (*start)(const ObjectPtr& object, MapOp op, const std::vector<std::string>& args,
                Done<Reply>& done);
  /// The verb of entries()' CollectionScan: "HSCAN", or a MapCache's scan of live entries.
  const char* scan_verb;
};
/// Runs `body` while the calling thread holds the re-entrant Lock `lock_name` (a map entry's
/// lock: Java's map.getLock(key)); the lock is released however `body` ends, and an exception
/// from `body` propagates. Blocking: the lock's round trips, plus its waits when contended.
void run_under_entry_lock(const ObjectPtr& object, std::string lock_name,
                          const std::function<void()>& body);
/// The async form: acquires `lock_name` for an owner of its own (OwnerId::next()), then starts
/// `body`, which calls `finished` once with its status; then releases the lock and completes
/// `done` with the body's status (or the release's failure). A failed acquisition completes
/// `done` without starting `body`.
void start_under_entry_lock(const ObjectPtr& object, std::string lock_name,
                            UniqueFunction<void(UniqueFunction<void(Status)> finished)> body,
                            Done<void> done);
/// Map's layout: HGET, HSET, HSETNX, HDEL, HEXISTS, HLEN, HMGET, HINCRBYFLOAT, HSTRLEN, HKEYS,
/// HVALS, HGETALL, HRANDFIELD and map_*.lua.
extern const MapLayout plain_map_layout;
/// The command plain_map_layout sends for a keyed operation that is one command on the key
/// (`verb name key [value]`: get, fast_put, fast_put_if_absent, contains_key, add_and_get,
/// value_size); null for the others. A plain Map's keyed operations (all of these but
/// add_and_get, whose second argument is not a value) build it on the caller's thread, as a
/// Bucket builds its commands: the layout's indirection (arguments gathered, then copied into
/// the command, behind two type-erased callbacks) cost a fifth of a Map's throughput.
const char* plain_map_verb(MapOp op) noexcept;
/// A reply of map entries decoded with the map's codec: key, value, ... flat (HSCAN, HGETALL,
/// scripts) or [key, value] pairs (RESP3's HRANDFIELD WITHVALUES); nil reads as none.
template <JavaValue K, JavaValue V>
std::vector<std::pair<K, V>> decode_map_entries(const Codec& codec, const Reply& page);
/// add_and_get's delta as the decimal text HINCRBYFLOAT takes.
template <class N>
std::string decimal_delta(N delta);
/// add_and_get's reply (the new value: decimal text or a number) as N.
template <class N>
N reply_number(const Reply& reply);
}  // namespace detail

/// Whether a Map's writes tell the near caches of the map (Java's RLocalCachedMap instances and
/// LocalCachedMap) what changed, on `{name}:topic` with Redisson's messages.
enum class NearCaches {
  ignore,      ///< publish nothing (a plain RMap's writes): near caches of the map go stale
  invalidate,  ///< each write drops the written keys from every near cache
  update,      ///< each write sends the new values to every near cache (removals invalidate)
};

/// A map of K to V stored in the hash `name`: each key is a field holding the map-key codec's
/// bytes, each value the map-value codec's (a composite codec gives them different codecs;
/// others use the same one for both). The layout of Java Redisson's RMap, so a Java service and
/// a C++ service share one map when they use the same codec.
///
/// Cost: each operation is one round trip: one command (HGET, HSET, HSETNX, HDEL, HEXISTS,
/// HLEN, HMGET, HINCRBYFLOAT, HSTRLEN, HRANDFIELD) or one script for the operations that answer
/// the value they replace or compare values (put, put_if_absent, put_if_exists, replace, remove).
/// put_all sends one HSET per 1,000 entries, pipelined. entries() reads the map in pages of
/// HSCAN; the read_all_* snapshots read it in one reply (HKEYS, HVALS, HGETALL), so the whole map
/// is in memory at once, on the server and here. contains_value() compares on the server, O(size).
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as K or V are errc::codec_error. Values are compared as encoded bytes (replace(k, expected,
/// update), remove(k, expected), contains_value): with Kryo or JSON a HashMap/HashSet value
/// compares equal only with the same iteration order, which the codecs reproduce.
///
/// compute, compute_if_absent, compute_if_present and merge are Redisson's: they hold the entry's
/// lock (lock_name(key), Java's map.getLock(key), so Java and C++ callers exclude each other)
/// while they get the value, call the function here and write the result: one lock and one
/// unlock script, a get, and a write, so four round trips; they exclude only callers that take
/// the same lock, not plain puts. Blocking: the calling thread owns the lock (re-entrant with
/// its other holds) and runs the function; if it throws, nothing is written, the lock is released
/// and the exception propagates. Async (async_compute, ...): the operation owns the lock (an
/// OwnerId of its own) and the function runs on the client's I/O thread, so it must be quick and
/// must not block on the client; if it throws, nothing is written, the lock is released and the
/// operation completes with errc::function_failed. replace_all is java.util.concurrent's
/// ConcurrentMap default: a scan of the entries and, per entry, a replace(key, old, new) retried
/// while the value changed meanwhile.
///
/// MapCache<K, V> is a Map too: every operation below works on it, over its own layout.
///
/// A handle: cheap to copy, sends nothing until an operation is called, thread-safe.
template <JavaValue K, JavaValue V>
class Map : public Object,
            public MapKeys<Map<K, V>, K, V>,
            public KeyedSynchronizers<Map<K, V>, K> {
 public:
  /// A handle on the map `name`; sends nothing. `codec` null: the client's default codec.
  Map(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Map(client, std::move(name), std::move(codec), "Map", nullptr, detail::plain_map_layout) {}
  /// A handle whose writes also tell the map's near caches (`near_caches`): each write is one
  /// script that writes the hash and publishes Redisson's message, as an RLocalCachedMap's write
  /// does, so Java services caching the map see C++ writes. Nothing is cached here (that is
  /// LocalCachedMap). delete_object() then clears the near caches too.
  Map(const Client& client, std::string name, NearCaches near_caches, CodecPtr codec = nullptr)
      : Map(client, std::move(name), std::move(codec), "Map",
            near_caches == NearCaches::ignore ? nullptr : &detail::local_cached_map_hooks,
            near_caches == NearCaches::ignore ? detail::plain_map_layout
                                              : detail::local_cached_map_layout) {
    if (near_caches == NearCaches::ignore) return;
    detail::LocalCacheSettings settings;
    settings.sync = near_caches == NearCaches::update ? 2 : 1;
    settings.cache_locally = false;
    settings.clear_when_map_expires = false;
    detail::configure_local_cache(object_, settings);
  }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_put_if_absent(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_put_if_exists(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_replace(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_put(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_put_if_absent(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_put_if_exists(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_replace(const K& key, const V& expected, const V& update, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const K& key, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const K& key, const V& expected, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_remove(const std::vector<K>& keys, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains_key(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_value(const V& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_all(const std::vector<K>& keys, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_put_all(const std::map<K, V>& entries, CompletionToken&& token);
  /// The value must be stored as decimal text (a LongCodec/DoubleCodec/StringCodec value codec,
  /// as in Redisson); otherwise the server refuses (server_error).
  template <class N, class CompletionToken>
  requires std::is_arithmetic_v<N>
  auto async_add_and_get(const K& key, N delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_replace(const K& key, const V& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_empty(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_value_size(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_map(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_key_set(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all_values(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random_keys(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random_entries(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_or_default(const K& key, const V& fallback, CompletionToken&& token) const;
  // The compute family (see the class comment): complete with (error_code, std::optional<V>).
  template <class CompletionToken>
  auto async_compute(
      const K& key,
      std::function<std::optional<V>(const K& key, const std::optional<V>& value)> remap,
      CompletionToken&& token);
  template <class CompletionToken>
  auto async_compute_if_absent(const K& key, std::function<std::optional<V>(const K& key)> make,
                               CompletionToken&& token);
  template <class CompletionToken>
  auto async_compute_if_present(const K& key,
                                std::function<std::optional<V>(const K& key, const V& value)> remap,
                                CompletionToken&& token);
  template <class CompletionToken>
  auto async_merge(const K& key, const V& value,
                   std::function<std::optional<V>(const V& old_value, const V& value)> remap,
                   CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // fast_remove (HDEL), contains_key (HEXISTS) and contains_value are MapKeys'.
  /// The value of `key`, or nullopt when absent.
  std::optional<V> get(const K& key) const { return async_get(key, blocking("get")); }
  /// Stores `value` under `key`; returns the value it replaced.
  std::optional<V> put(const K& key, const V& value) {
    return async_put(key, value, blocking("put"));
  }
  /// Stores `value` only if `key` is absent; returns nullopt if stored, else the present value.
  std::optional<V> put_if_absent(const K& key, const V& value) {
    return async_put_if_absent(key, value, blocking("put_if_absent"));
  }
  /// Stores `value` only if `key` is present; returns the value it replaced (nullopt: absent,
  /// nothing stored).
  std::optional<V> put_if_exists(const K& key, const V& value) {
    return async_put_if_exists(key, value, blocking("put_if_exists"));
  }
  /// Java's Map.replace(key, value): put_if_exists.
  std::optional<V> replace(const K& key, const V& value) {
    return async_replace(key, value, blocking("replace"));
  }
  /// Stores `value` without reading the old one; true if `key` was new.
  bool fast_put(const K& key, const V& value) {
    return async_fast_put(key, value, blocking("fast_put"));
  }
  /// Stores `value` only if `key` is absent (HSETNX); true if stored.
  bool fast_put_if_absent(const K& key, const V& value) {
    return async_fast_put_if_absent(key, value, blocking("fast_put_if_absent"));
  }
  /// Stores `value` only if `key` is present; true if stored.
  bool fast_put_if_exists(const K& key, const V& value) {
    return async_fast_put_if_exists(key, value, blocking("fast_put_if_exists"));
  }
  /// Stores `update` only if `key` holds `expected` (compared as encoded bytes); true if it did.
  bool replace(const K& key, const V& expected, const V& update) {
    return async_replace(key, expected, update, blocking("replace"));
  }
  /// Removes `key`; returns the value it had.
  std::optional<V> remove(const K& key) { return async_remove(key, blocking("remove")); }
  /// Removes `key` only if it holds `expected`; true if it did.
  bool remove(const K& key, const V& expected) {
    return async_remove(key, expected, blocking("remove"));
  }
  /// The number of entries (HLEN).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// The values of those `keys` that are present (HMGET), by key.
  std::map<K, V> get_all(const std::vector<K>& keys) const {
    return async_get_all(keys, blocking("get_all"));
  }
  /// Stores every entry (HSET, 1,000 entries per command, pipelined): not atomic as a whole.
  void put_all(const std::map<K, V>& entries) { async_put_all(entries, blocking("put_all")); }
  /// Adds `delta` to the number stored under `key` (absent: 0); returns the new value.
  template <class N>
  requires std::is_arithmetic_v<N> N add_and_get(const K& key, N delta) {
    return async_add_and_get(key, delta, blocking("add_and_get"));
  }
  /// Java's fastReplace: fast_put_if_exists (a MapCache entry keeps its time to live).
  bool fast_replace(const K& key, const V& value) {
    return async_fast_replace(key, value, blocking("fast_replace"));
  }
  /// True if the map has no entries: size() == 0 (so, like size(), on a MapCache it counts
  /// expired entries not yet swept, as Redisson's isEmpty).
  bool empty() const { return async_empty(blocking("empty")); }
  /// The length of the encoded bytes of `key`'s value (HSTRLEN); 0 when absent (on a MapCache:
  /// or expired; the value's own bytes, without the entry's packing).
  std::int64_t value_size(const K& key) const {
    return async_value_size(key, blocking("value_size"));
  }
  /// Every entry, read at once (HGETALL; on a MapCache the live ones). Java's readAllMap and
  /// readAllEntrySet: a std::map iterates as the entry set.
  std::map<K, V> read_all_map() const { return async_read_all_map(blocking("read_all_map")); }
  /// Every key, read at once (HKEYS; on a MapCache those of live entries).
  std::set<K> read_all_key_set() const {
    return async_read_all_key_set(blocking("read_all_key_set"));
  }
  /// Every value, read at once, in the server's order (HVALS; on a MapCache those of live entries).
  std::vector<V> read_all_values() const {
    return async_read_all_values(blocking("read_all_values"));
  }
  /// Up to `count` distinct keys picked at random (HRANDFIELD; on a MapCache, picks that land on
  /// expired entries are left out, so fewer may come back). A negative count is invalid_argument.
  std::set<K> random_keys(std::int64_t count) const {
    return async_random_keys(count, blocking("random_keys"));
  }
  /// Up to `count` distinct entries picked at random, as random_keys() picks them.
  std::map<K, V> random_entries(std::int64_t count) const {
    return async_random_entries(count, blocking("random_entries"));
  }
  /// The value of `key`, or `fallback` when absent (java.util.Map's getOrDefault: one get).
  V get_or_default(const K& key, const V& fallback) const {
    return async_get_or_default(key, fallback, blocking("get_or_default"));
  }

  // ---- read-modify-write under the entry's lock; blocking: the calling thread owns it -----
  /// compute's function: the key and its value (nullopt: absent) -> the new value (nullopt:
  /// remove the entry).
  using Remapping = std::function<std::optional<V>(const K& key, const std::optional<V>& value)>;
  /// Stores what `remap(key, value)` returns, or removes the entry when it returns nullopt;
  /// returns the new value.
  std::optional<V> compute(const K& key, const Remapping& remap) {
    return compute_storing(key, remap, [this](const K& k, const V& v) { fast_put(k, v); });
  }
  /// If `key` is absent, stores what `make(key)` returns (nullopt: nothing); returns the value
  /// the key then has. A present key is answered by a get, without the lock or the function.
  std::optional<V> compute_if_absent(const K& key,
                                     const std::function<std::optional<V>(const K& key)>& make) {
    return compute_if_absent_storing(
        key, make, [this](const K& k, const V& v) { return put_if_absent(k, v); });
  }
  /// If `key` is present, stores what `remap(key, value)` returns, or removes the entry when it
  /// returns nullopt; returns the new value (nullopt: absent, or removed).
  std::optional<V> compute_if_present(
      const K& key, const std::function<std::optional<V>(const K& key, const V& value)>& remap);
  /// Stores `value` if `key` is absent, else what `remap(old, value)` returns (nullopt: removes
  /// the entry); returns the new value.
  std::optional<V> merge(
      const K& key, const V& value,
      const std::function<std::optional<V>(const V& old_value, const V& value)>& remap);
  /// Replaces each entry's value with `remap(key, value)`, entry by entry (entries() and
  /// replace(key, old, new), retried for an entry whose value changed meanwhile; an entry removed
  /// meanwhile stays removed). Not atomic as a whole; takes no locks.
  void replace_all(const std::function<V(const K& key, const V& value)>& remap);

  /// The entries, read in pages of about `page_size` with HSCAN as they are iterated (see
  /// CollectionScan for what a scan guarantees). Sends nothing until the first page is asked.
  CollectionScan<std::pair<K, V>> entries(std::int64_t page_size = 100) const {
    return CollectionScan<std::pair<K, V>>(object_, layout_->scan_verb, page_size, &decode_entries);
  }
  /// The keys, scanned as entries() scans (Java's keySet() view iterates the same way).
  CollectionScan<K> keys(std::int64_t page_size = 100) const {
    return CollectionScan<K>(object_, layout_->scan_verb, page_size, &decode_keys);
  }
  /// The values, scanned as entries() scans (Java's values() view iterates the same way).
  CollectionScan<V> values(std::int64_t page_size = 100) const {
    return CollectionScan<V>(object_, layout_->scan_verb, page_size, &decode_values);
  }
  // lock_name(key), semaphore_name(key), ...: KeyedSynchronizers' (Java's map.getLock(key), ...).

 protected:
  /// For MapCache: its kind, its hooks (the keys besides the hash), and the layout its
  /// operations run on.
  Map(const Client& client, std::string name, CodecPtr codec, const char* kind,
      const detail::ObjectHooks* hooks, const detail::MapLayout& layout)
      : Object(client, std::move(name), std::move(codec), kind, hooks), layout_(&layout) {}

  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  /// compute() and compute_if_absent() with `store(key, value)` / `store_if_absent(key, value)`
  /// (which answers the value already present) as their write: MapCache's forms with a time to
  /// live pass theirs.
  template <class Store>
  std::optional<V> compute_storing(const K& key, const Remapping& remap, Store store);
  template <class StoreIfAbsent>
  std::optional<V> compute_if_absent_storing(
      const K& key, const std::function<std::optional<V>(const K& key)>& make,
      StoreIfAbsent store_if_absent);

 private:
  static std::vector<std::pair<K, V>> decode_entries(const Codec& codec, const Reply& page);
  static std::vector<K> decode_keys(const Codec& codec, const Reply& page);
  static std::vector<V> decode_values(const Codec& codec, const Reply& page);
  /// Completes `token` with (error_code, std::optional<V>) after `step(map, result, finished)`
  /// ran holding the entry lock of `key` (detail::start_under_entry_lock): the step sets
  /// `*result` and calls `finished` once.
  template <class Step, class CompletionToken>
  auto async_under_entry_lock(const K& key, Step step, CompletionToken&& token);
  /// Runs `body` holding the entry lock of `key` (detail::run_under_entry_lock).
  void under_entry_lock(const K& key, const std::function<void()>& body) const {
    detail::run_under_entry_lock(object_, this->lock_name(key), body);
  }
  friend class KeyedSynchronizers<Map<K, V>, K>;
  /// The bytes Redisson hashes into a key's synchronizer names: the map-key codec's.
  std::string synchronizer_bytes(const K& key) const { return detail::map_key_bytes(codec(), key); }
  /// `op` with no arguments.
  template <class R, class CompletionToken, class Convert>
  auto whole(CompletionToken&& token, Convert convert, detail::MapOp op) const;
  /// `op` with `count` (checked: not negative) as its argument.
  template <class R, class CompletionToken, class Convert>
  auto random_pick(CompletionToken&& token, Convert convert, detail::MapOp op,
                   std::int64_t count) const;
  /// Reply conversions: keys as a set; entries (flat or in pairs) as a map.
  auto key_set_reader() const;
  auto map_reader() const;
  /// Runs `op` on the layout, its arguments made by `encode(codec)` as the operation starts
  /// (a codec_error is the completion's).
  template <class R, class CompletionToken, class Convert, class Encode>
  auto run_on_layout(CompletionToken&& token, Convert convert, detail::MapOp op,
                     Encode encode) const;
  /// `op` with the key's bytes and, when given, the value's.
  template <class R, class CompletionToken, class Convert>
  auto keyed(CompletionToken&& token, Convert convert, detail::MapOp op, const K& key,
             std::optional<V> value = std::nullopt) const;
  /// `op` with the keys' bytes.
  template <class R, class CompletionToken, class Convert>
  auto with_keys(CompletionToken&& token, Convert convert, detail::MapOp op,
                 const std::vector<K>& keys) const;
  template <class CompletionToken>
  auto compare(CompletionToken&& token, const K& key, const V& expected,
               std::optional<V> update) const;

  const detail::MapLayout* layout_;
};

}  // namespace redisson

#include "redisson/objects/impl/map.hpp"
