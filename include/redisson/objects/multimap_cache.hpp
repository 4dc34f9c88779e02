// redisson::SetMultimapCache<K, V> and ListMultimapCache<K, V>: multimaps whose keys can expire
// one by one, Java Redisson's RSetMultimapCache and RListMultimapCache.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/duration.hpp"
#include "redisson/objects/multimap.hpp"

namespace redisson {

namespace detail {

/// The reads of one key that see its expiry (multimap_cache_read.lua).
enum class MultimapCacheRead { contains_key, contains_entry, get_all };

/// expire_key (multimap_cache_expire_key.lua) with `ttl` from now (<= 0: never expires): 1 when
/// the multimap has the key.
void start_multimap_cache_expire_key(const ObjectPtr& object, MultimapKind kind,
                                     const std::string& key_bytes, std::chrono::milliseconds ttl,
                                     Done<Reply>& done);
/// `read` of one key, as of now: an integer 1/0, or get_all's values.
void start_multimap_cache_read(const ObjectPtr& object, MultimapKind kind, MultimapCacheRead read,
                               const std::string& key_bytes, const std::string& value,
                               Done<Reply>& done);
/// contains_value over the keys that have not expired: an integer 1/0.
void start_multimap_cache_contains_value(const ObjectPtr& object, MultimapKind kind,
                                         const std::string& value, Done<Reply>& done);
/// This client's sweeper of the multimap cache (src/objects/sweeper.hpp); null when it is off.
std::shared_ptr<void> multimap_cache_sweeper(const ObjectPtr& object);

}  // namespace detail

/// A SetMultimap (Kind = set) or ListMultimap (Kind = list) whose keys can expire one by one:
/// Java Redisson's RSetMultimapCache / RListMultimapCache layout, the multimap's plus the zset
/// S(name, "redisson_set_multimap_ttl") (or `..._list_...`) of each key's expiry in ms since the
/// epoch, so Java and C++ services share one cache. Every multimap operation is there.
///
/// What sees an expiry at once, as in Redisson: contains_key, contains_value, contains_entry and
/// get_all (an expired key reads as absent). The rest (size, key_size, keys, read_all_*) count an
/// expired key until it is removed: by this client's sweeper while it has a handle
/// (Config::eviction, as MapCache's; Java's eviction task does the same), with its values. A key
/// put again after it left the multimap starts without an expiry. delete_object, expire,
/// rename, ... reach the expiry zset too. values(key), a page-by-page scan that could not see
/// the expiry, is not offered: get_all reads a key whole.
template <JavaValue K, JavaValue V, detail::MultimapKind Kind>
class MultimapCacheBase : public MultimapBase<K, V, Kind> {
  using Base = MultimapBase<K, V, Kind>;

 public:
  /// A handle on the multimap cache `name`; sends nothing but starts (or joins) this client's
  /// sweeper of it. `codec` null: the client's default codec.
  MultimapCacheBase(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec),
             Kind == detail::MultimapKind::set ? "SetMultimapCache" : "ListMultimapCache") {
    this->keep_background_task(&detail::multimap_cache_sweeper);
  }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class Rep, class Period, class CompletionToken>
  auto async_expire_key(const K& key, std::chrono::duration<Rep, Period> ttl,
                        CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains_key(const K& key, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_value(const V& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_entry(const K& key, const V& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_get_all(const K& key, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Makes `key` expire `ttl` from now (its values with it; zero or less: never, clearing an
  /// expiry); false when the multimap has no such key (nothing changes).
  template <class Rep, class Period>
  bool expire_key(const K& key, std::chrono::duration<Rep, Period> ttl) {
    return async_expire_key(key, ttl, this->blocking("expire_key"));
  }
  /// True when `key` has values and has not expired.
  bool contains_key(const K& key) const {
    return async_contains_key(key, this->blocking("contains_key"));
  }
  /// True when a key that has not expired holds `value` (walks every key on the server).
  bool contains_value(const V& value) const {
    return async_contains_value(value, this->blocking("contains_value"));
  }
  /// True when `key` holds `value` and has not expired.
  bool contains_entry(const K& key, const V& value) const {
    return async_contains_entry(key, value, this->blocking("contains_entry"));
  }
  /// The values of `key` (a list's in order), in one script; none when it expired.
  std::vector<V> get_all(const K& key) const {
    return async_get_all(key, this->blocking("get_all"));
  }
  /// Not offered: a page-by-page scan cannot see the key's expiry (get_all reads it whole).
  void values(const K& key, std::int64_t page_size = 100) const = delete;

 private:
  template <class R, class CompletionToken, class Convert>
  auto read(CompletionToken&& token, Convert convert, detail::MultimapCacheRead what, const K& key,
            std::optional<V> value) const;
};

/// SetMultimap with keys that expire: Java Redisson's RSetMultimapCache.
///
///   SetMultimapCache<std::string, std::string> sessions(client, "sessions");
///   sessions.put("user:1", "tab-a");
///   sessions.expire_key("user:1", std::chrono::minutes(30));
template <JavaValue K, JavaValue V>
using SetMultimapCache = MultimapCacheBase<K, V, detail::MultimapKind::set>;

/// ListMultimap with keys that expire: Java Redisson's RListMultimapCache.
template <JavaValue K, JavaValue V>
using ListMultimapCache = MultimapCacheBase<K, V, detail::MultimapKind::list>;

}  // namespace redisson

#include "redisson/objects/impl/multimap_cache.hpp"
