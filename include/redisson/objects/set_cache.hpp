// redisson::SetCache<T>: a set whose elements expire one by one, Java Redisson's RSetCache.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// The score of an element that never expires, as Redisson writes it (Redis keeps the double
/// 92233720368547760).
inline constexpr std::int64_t kSetCacheNoExpiry = 92233720368547758;
/// The client's clock, ms since the epoch: the time every expiry is measured against (as in
/// Redisson, so clients sharing a set cache need synchronised clocks).
std::int64_t set_cache_now_ms();
/// The score of an element added at `now` for `ttl`: now + ttl, or kSetCacheNoExpiry for a ttl
/// of 0 or one reaching past it. A negative ttl is errc::invalid_argument.
std::int64_t set_cache_expiry(std::chrono::milliseconds ttl, std::int64_t now);
/// set_cache_add.lua: stores `members` (bytes) with the expiry of `ttl`; the reply counts those
/// that were absent or expired. No members: 0, nothing sent.
void start_set_cache_add(const ObjectPtr& object, std::chrono::milliseconds ttl,
                         const std::vector<std::string>& members, Done<Reply>& done);
/// set_cache_remove.lua: removes `members` (bytes); the reply counts those that were live. No
/// members: 0, nothing sent.
void start_set_cache_remove(const ObjectPtr& object, const std::vector<std::string>& members,
                            Done<Reply>& done);
/// ZCOUNT n (now +inf: the live elements.
void start_set_cache_size(const ObjectPtr& object, Done<Reply>& done);
/// One eviction step, set_cache_evict.lua: removes at most `limit` expired elements of the set
/// cache `object`, the earliest first; the reply (an integer) is the number removed. What a
/// client-wide sweeper calls per set cache (the object's codec is not used). A `limit` below 1
/// throws redisson::error(invalid_argument) before sending, leaving `done` untouched.
void start_set_cache_sweep(const ObjectPtr& object, std::int64_t limit, Done<Reply>& done);
/// This client's sweeper of the set (src/objects/sweeper.hpp); null when it is off.
std::shared_ptr<void> set_cache_sweeper(const ObjectPtr& object);
/// Every page of the set (ZSCAN, `page_size` per page) gathered in one flat reply of members
/// and scores.
void start_set_cache_read_all(const ObjectPtr& object, std::int64_t page_size, Done<Reply>& done);
/// A ZSCORE reply read against the client's clock: true when present and not expired.
bool set_cache_live(const Reply& score);
/// A ZSCORE reply as the time left: -2 ms absent or expired, -1 ms never expires.
std::chrono::milliseconds set_cache_time_left(const Reply& score);
/// True if a score read now is that of a live element.
bool set_cache_score_live(double score, std::int64_t now);

/// The live members of a reply of members with scores (a ZSCAN page), decoded as T: an element
/// whose expiry has passed on the client's clock is left out.
template <class T>
std::vector<T> set_cache_live_members(const Codec& codec, const Reply& page) {
  if (!page.is_aggregate()) throw_unexpected_reply("members with scores", page);
  const std::int64_t now = set_cache_now_ms();
  std::vector<T> members;
  const auto& elements = page.elements;
  if (elements.size() % 2 != 0) throw_unexpected_reply("members with scores", page);
  for (std::size_t i = 0; i < elements.size(); i += 2) {
    if (!set_cache_score_live(reply_double(elements[i + 1]), now)) continue;
    if (auto value = decode_reply<T>(codec, elements[i])) members.push_back(std::move(*value));
  }
  return members;
}
}  // namespace detail

/// A set of T whose elements may each have a time to live, in Java Redisson's RSetCache layout
/// (3.52), so a Java service and a C++ service share one set cache:
///
///   n   zset: member = the codec's bytes of a value, score = its expiry time in ms since the
///       epoch, 92233720368547758 when it never expires
///
/// An expired element is invisible at once: contains(), size(), values() and read_all() leave
/// it out, add() counts it as absent and remove() as not there (times are the client's clock, as
/// in Redisson, so clients need synchronised clocks). It stays in Redis until something removes
/// it: this client's sweeper while it has a handle (Config::eviction), evict_expired(), a Java
/// client's eviction task, or remove(). Members are compared as
/// bytes, as in Redisson.
///
/// Cost: each operation is one round trip: add/add_all/remove/remove_all a script (O(log n) per
/// element), contains and remaining_time_to_live ZSCORE, size ZCOUNT, evict_expired a script
/// in O(log n + removed). values() reads the zset in pages of ZSCAN, never one ZRANGE 0 -1.
///
/// A key of another type is errc::wrong_type and is left untouched; a negative time to live is
/// errc::invalid_argument and sends nothing. A handle: cheap to copy, sends nothing until an
/// operation is called, thread-safe.
template <JavaValue T>
class SetCache : public Object {
 public:
  /// A handle on the set cache `name`; sends nothing. `codec` null: the client's default codec.
  SetCache(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "SetCache") {
    keep_background_task(&detail::set_cache_sweeper);
  }

  using Object::async_remaining_time_to_live;
  using Object::remaining_time_to_live;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add(const T& value, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, std::chrono::milliseconds ttl,
                     CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remaining_time_to_live(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all(std::int64_t page_size, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_evict_expired(std::int64_t limit, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // A ttl of 0 means none (as in Redisson); a negative one is invalid_argument.

  /// Adds `value` with no expiry; true if it was absent or expired. A live element's time to
  /// live is replaced all the same (false is answered), as in Redisson.
  bool add(const T& value) { return async_add(value, blocking("add")); }
  /// Adds `value` to expire after `ttl`; true if it was absent or expired. A live element's
  /// time to live is replaced by `ttl` all the same (false is answered), as in Redisson.
  bool add(const T& value, std::chrono::milliseconds ttl) {
    return async_add(value, ttl, blocking("add"));
  }
  /// Adds the values (one script) to expire after `ttl` (0: never); returns how many were absent
  /// or expired.
  std::int64_t add_all(const std::vector<T>& values, std::chrono::milliseconds ttl = {}) {
    return async_add_all(values, ttl, blocking("add_all"));
  }
  /// Removes `value` (also an expired one); true if it was there and live.
  bool remove(const T& value) { return async_remove(value, blocking("remove")); }
  /// Removes the values (one script; expired ones too); returns how many were there and live.
  std::int64_t remove_all(const std::vector<T>& values) {
    return async_remove_all(values, blocking("remove_all"));
  }
  /// True if `value` is present and not expired.
  bool contains(const T& value) const { return async_contains(value, blocking("contains")); }
  /// The time `value` has left: -1 ms when it never expires, -2 ms when it is absent or expired
  /// (as MapCache::remaining_time_to_live(key)).
  std::chrono::milliseconds remaining_time_to_live(const T& value) const {
    return async_remaining_time_to_live(value, blocking("remaining_time_to_live"));
  }
  /// The number of live elements (ZCOUNT over the scores after now); expired elements not yet
  /// removed are not counted.
  std::int64_t size() const { return async_size(blocking("size")); }
  /// Every live element, read in pages of `page_size` with ZSCAN (one round trip per page) and
  /// held in memory together; values() reads one page at a time instead.
  std::vector<T> read_all(std::int64_t page_size = 100) const {
    return async_read_all(page_size, blocking("read_all"));
  }
  /// Removes at most `limit` (>= 1) expired elements, the earliest first; returns how many.
  /// Readers never see expired elements; this only frees their memory.
  std::int64_t evict_expired(std::int64_t limit = 1000) {
    return async_evict_expired(limit, blocking("evict_expired"));
  }

  /// The live elements, read in pages of about `page_size` with ZSCAN as they are iterated (see
  /// CollectionScan for what a scan guarantees); each page is filtered against the client's
  /// clock when it arrives. Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "ZSCAN", page_size, &detail::set_cache_live_members<T>);
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  /// The values' bytes with the object's codec (a codec_error is the completion's).
  static std::vector<std::string> encode_all(const Codec& codec, const std::vector<T>& values) {
    std::vector<std::string> members;
    members.reserve(values.size());
    for (const auto& value : values) members.push_back(detail::encode_value(codec, value));
    return members;
  }
  template <class R, class CompletionToken, class Convert>
  auto add_script(CompletionToken&& token, Convert convert, std::vector<T> values,
                  std::chrono::milliseconds ttl);
  template <class R, class CompletionToken, class Convert>
  auto remove_script(CompletionToken&& token, Convert convert, std::vector<T> values);
  /// ZSCORE n <value bytes>, read by `convert` against the client's clock when it arrives.
  template <class R, class CompletionToken, class Convert>
  auto score_command(CompletionToken&& token, Convert convert, const T& value) const;
};

}  // namespace redisson

#include "redisson/objects/impl/set_cache.hpp"
