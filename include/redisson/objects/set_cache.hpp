// redisson::SetCache<T>: a set whose elements expire one by one, Java Redisson's RSetCache.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/set_algebra.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/keyed_synchronizers.hpp"
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
/// Which members a timed add stores: all of them (set_cache_add.lua), all or none
/// (set_cache_try_add.lua), or those meeting a condition (set_cache_add_if.lua).
enum class SetCacheAdd { every, all_or_none, if_absent, if_exists, if_greater, if_less };
/// Adds members[i] (bytes) to expire after ttls[i] (same sizes) as `how` says; a negative ttl
/// is invalid_argument before anything is sent. The reply: a count (every: absent or expired
/// ones; conditions: stored ones), or 1/0 for all_or_none. No members: 0, nothing sent.
void start_set_cache_timed_add(const ObjectPtr& object, SetCacheAdd how,
                               const std::vector<std::chrono::milliseconds>& ttls,
                               const std::vector<std::string>& members, Done<Reply>& done);
/// set_cache_retain_all.lua over the encoded members to keep.
void start_set_cache_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                                Done<Reply>& done);
/// set_cache_random.lua: up to `count` distinct live members (an array; 0: empty, nothing
/// sent), removed too when `remove`. A negative count is invalid_argument before anything is
/// sent.
void start_set_cache_random(const ObjectPtr& object, std::int64_t count, bool remove,
                            Done<Reply>& done);
/// set_cache_random.lua: one live member (removed too when `remove`), or nil when none is live.
void start_set_cache_random_one(const ObjectPtr& object, bool remove, Done<Reply>& done);
/// set_cache_move.lua: moves the live `member` (bytes) with its expiry to `destination` (on a
/// Cluster in the same hash slot, else invalid_argument before anything is sent).
void start_set_cache_move(const ObjectPtr& object, const std::string& destination,
                          const std::string& member, Done<Reply>& done);
/// set_cache_algebra.lua over this set cache and `names` (on a Cluster all in its hash slot,
/// else invalid_argument before anything is sent); `limit` is the count's (0: none).
void start_set_cache_algebra(const ObjectPtr& object, SetAlgebra operation,
                             const std::vector<std::string>& names, std::int64_t limit,
                             Done<Reply>& done);
/// A ZMSCORE reply read against the client's clock: whether each member is live.
std::vector<bool> set_cache_live_each(const Reply& scores);
/// A ZMSCORE reply: true if every member is live (an integer reply: no members were asked).
bool set_cache_all_live(const Reply& scores);
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
/// An expired element is invisible at once: every read (contains, size, values, random, the set
/// algebra...) leaves it out, the adds count it as absent and remove() as not there (times are
/// the client's clock, as in Redisson, so clients need synchronised clocks). It stays in Redis
/// until something removes it: this client's sweeper while it has a handle (Config::eviction),
/// evict_expired(), a Java client's eviction task, or remove(). Members are compared as bytes,
/// as in Redisson.
///
/// Cost: one round trip each: the adds, removes, try_add, move, retain_all, random and the set
/// algebra a script (the last three read every member of the sets they touch), the contains
/// ZSCORE or ZMSCORE, size/empty ZCOUNT, evict_expired a script in O(log n + removed).
/// values() reads the zset in pages of ZSCAN.
///
/// The set algebra (store_union, store_intersection, store_diff, their read_ forms,
/// count_intersection) and move name other set caches: on a Cluster they must share this one's
/// hash slot (one hash tag), else errc::invalid_argument before anything is sent.
///
/// A key of another type is errc::wrong_type and is left untouched; a negative time to live is
/// errc::invalid_argument and sends nothing. A handle: cheap to copy, sends nothing until an
/// operation is called, thread-safe.
template <JavaValue T>
class SetCache : public Object, public KeyedSynchronizers<SetCache<T>, T> {
 public:
  /// Values, each with its own time to live (0: none), as Java's Map<V, Duration> arguments.
  using TimedValues = std::vector<std::pair<T, std::chrono::milliseconds>>;

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
  auto async_add_all_timed(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_absent(const T& value, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_exists(const T& value, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_greater(const T& value, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_less(const T& value, std::chrono::milliseconds ttl, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_absent(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_exist(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_greater(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_less(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_add(const std::vector<T>& values, std::chrono::milliseconds ttl,
                     CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_add_timed(const TimedValues& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_retain_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_all(const std::vector<T>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_each(const std::vector<T>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remaining_time_to_live(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_empty(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_random(CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_random(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_move(const std::string& destination, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_all(std::int64_t page_size, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_union(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_union(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_intersection(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_intersection(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_intersection(std::vector<std::string> names, std::int64_t limit,
                                CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_diff(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_diff(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_evict_expired(std::int64_t limit, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // A ttl of 0 means none (as in Redisson); a negative one is invalid_argument and sends
  // nothing. "Live": present and not expired.

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
  /// Adds each value to expire after its own ttl (one script, Java's addAll(Map)); returns how
  /// many were absent or expired. Live elements get their new ttl all the same. (Not an add_all
  /// overload: add_all({"a", "b"}) would be ambiguous.)
  std::int64_t add_all_timed(const TimedValues& values) {
    return async_add_all_timed(values, blocking("add_all_timed"));
  }
  /// Adds `value` to expire after `ttl` only if it is not live; true if it was added.
  bool add_if_absent(const T& value, std::chrono::milliseconds ttl) {
    return async_add_if_absent(value, ttl, blocking("add_if_absent"));
  }
  /// Sets a live `value`'s ttl to `ttl`; false (nothing changed) if it is not live.
  bool add_if_exists(const T& value, std::chrono::milliseconds ttl) {
    return async_add_if_exists(value, ttl, blocking("add_if_exists"));
  }
  /// Sets a live `value`'s ttl to `ttl` if that makes it expire later; true if it did.
  bool add_if_greater(const T& value, std::chrono::milliseconds ttl) {
    return async_add_if_greater(value, ttl, blocking("add_if_greater"));
  }
  /// Sets a live `value`'s ttl to `ttl` if that makes it expire sooner; true if it did.
  bool add_if_less(const T& value, std::chrono::milliseconds ttl) {
    return async_add_if_less(value, ttl, blocking("add_if_less"));
  }
  /// add_if_absent for each value with its own ttl (one script); returns how many were added.
  std::int64_t add_all_if_absent(const TimedValues& values) {
    return async_add_all_if_absent(values, blocking("add_all_if_absent"));
  }
  /// add_if_exists for each value with its own ttl (one script); returns how many were updated.
  std::int64_t add_all_if_exist(const TimedValues& values) {
    return async_add_all_if_exist(values, blocking("add_all_if_exist"));
  }
  /// add_if_greater for each value with its own ttl (one script); returns how many were updated.
  std::int64_t add_all_if_greater(const TimedValues& values) {
    return async_add_all_if_greater(values, blocking("add_all_if_greater"));
  }
  /// add_if_less for each value with its own ttl (one script); returns how many were updated.
  std::int64_t add_all_if_less(const TimedValues& values) {
    return async_add_all_if_less(values, blocking("add_all_if_less"));
  }
  /// Adds all the values to expire after `ttl` only if none of them is live (one script); true
  /// if they were added, false if nothing changed. No values: false, nothing sent.
  bool try_add(const std::vector<T>& values, std::chrono::milliseconds ttl = {}) {
    return async_try_add(values, ttl, blocking("try_add"));
  }
  /// try_add with a ttl per value (Java's addIfAbsent(Map)).
  bool try_add_timed(const TimedValues& values) {
    return async_try_add_timed(values, blocking("try_add_timed"));
  }
  /// Removes `value` (also an expired one); true if it was there and live.
  bool remove(const T& value) { return async_remove(value, blocking("remove")); }
  /// Removes the values (one script; expired ones too); returns how many were there and live.
  std::int64_t remove_all(const std::vector<T>& values) {
    return async_remove_all(values, blocking("remove_all"));
  }
  /// Removes every element that is not one of `values` (none: all of them), expired ones too;
  /// true if a live element was removed.
  bool retain_all(const std::vector<T>& values) {
    return async_retain_all(values, blocking("retain_all"));
  }
  /// True if `value` is present and not expired.
  bool contains(const T& value) const { return async_contains(value, blocking("contains")); }
  /// True if every one of `values` is live (one ZMSCORE); no values: true, nothing sent.
  bool contains_all(const std::vector<T>& values) const {
    return async_contains_all(values, blocking("contains_all"));
  }
  /// For each of `values`, whether it is live (one ZMSCORE).
  std::vector<bool> contains_each(const std::vector<T>& values) const {
    return async_contains_each(values, blocking("contains_each"));
  }
  /// The time `value` has left: -1 ms when it never expires, -2 ms when it is absent or expired
  /// (as MapCache::remaining_time_to_live(key)).
  std::chrono::milliseconds remaining_time_to_live(const T& value) const {
    return async_remaining_time_to_live(value, blocking("remaining_time_to_live"));
  }
  /// The number of live elements (ZCOUNT over the scores after now); expired elements not yet
  /// removed are not counted.
  std::int64_t size() const { return async_size(blocking("size")); }
  /// True if no element is live.
  bool empty() const { return async_empty(blocking("empty")); }
  /// A live element chosen at random, left in the set; nullopt when none is live.
  std::optional<T> random() const { return async_random(blocking("random")); }
  /// Up to `count` (>= 0) distinct live elements chosen at random, left in the set.
  std::vector<T> random(std::int64_t count) const {
    return async_random(count, blocking("random"));
  }
  /// Removes and returns a live element chosen at random; nullopt when none is live.
  std::optional<T> remove_random() { return async_remove_random(blocking("remove_random")); }
  /// Removes and returns up to `count` (>= 0) distinct live elements chosen at random.
  std::vector<T> remove_random(std::int64_t count) {
    return async_remove_random(count, blocking("remove_random"));
  }
  /// Moves the live `value`, with its expiry, to the set cache `destination` (on a Cluster in
  /// this one's hash slot); true if it was live here. An expired one stays where it is.
  bool move(const std::string& destination, const T& value) {
    return async_move(destination, value, blocking("move"));
  }
  /// Every live element, read in pages of `page_size` with ZSCAN (one round trip per page) and
  /// held in memory together; values() reads one page at a time instead.
  std::vector<T> read_all(std::int64_t page_size = 100) const {
    return async_read_all(page_size, blocking("read_all"));
  }
  /// Replaces this set cache with the union of the live elements of the set caches `names` (not
  /// itself, as Redisson); returns its size. An element in several keeps its latest expiry.
  std::int64_t store_union(std::vector<std::string> names) {
    return async_store_union(std::move(names), blocking("store_union"));
  }
  /// The live elements of this set cache and the set caches `names`.
  std::vector<T> read_union(std::vector<std::string> names) const {
    return async_read_union(std::move(names), blocking("read_union"));
  }
  /// Replaces this set cache with the elements live in every one of `names` (not itself); returns
  /// its size. Each keeps its earliest expiry.
  std::int64_t store_intersection(std::vector<std::string> names) {
    return async_store_intersection(std::move(names), blocking("store_intersection"));
  }
  /// The elements live in this set cache and in every one of `names`.
  std::vector<T> read_intersection(std::vector<std::string> names) const {
    return async_read_intersection(std::move(names), blocking("read_intersection"));
  }
  /// The size of read_intersection(names), counting stopped at `limit` (0: none).
  std::int64_t count_intersection(std::vector<std::string> names, std::int64_t limit = 0) const {
    return async_count_intersection(std::move(names), limit, blocking("count_intersection"));
  }
  /// Replaces this set cache with the live elements of the first of `names` that are live in
  /// none of the others (this one is not read); returns its size.
  std::int64_t store_diff(std::vector<std::string> names) {
    return async_store_diff(std::move(names), blocking("store_diff"));
  }
  /// The live elements of this set cache that are live in none of `names`.
  std::vector<T> read_diff(std::vector<std::string> names) const {
    return async_read_diff(std::move(names), blocking("read_diff"));
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

  // lock_name(value), semaphore_name(value), ...: KeyedSynchronizers' (Java's
  // setCache.getLock(value), ...).

 private:
  friend class KeyedSynchronizers<SetCache<T>, T>;
  /// The bytes Redisson hashes into a member's synchronizer names: the codec's.
  std::string synchronizer_bytes(const T& value) const {
    return detail::encode_value(codec(), value);
  }

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
  /// detail::start_set_cache_timed_add with `values`, encoded when the operation starts.
  template <class R, class CompletionToken, class Convert>
  auto timed_add(CompletionToken&& token, Convert convert, detail::SetCacheAdd how,
                 TimedValues values);
  template <class R, class CompletionToken, class Convert>
  auto remove_script(CompletionToken&& token, Convert convert, std::vector<T> values);
  /// ZSCORE n <value bytes>, read by `convert` against the client's clock when it arrives.
  template <class R, class CompletionToken, class Convert>
  auto score_command(CompletionToken&& token, Convert convert, const T& value) const;
  /// ZMSCORE n <values' bytes> (none: an integer reply, nothing sent), read by `convert`.
  template <class R, class CompletionToken, class Convert>
  auto scores_command(CompletionToken&& token, Convert convert, std::vector<T> values) const;
  /// One of detail::SetAlgebra over this set cache and `names`.
  template <class R, class CompletionToken, class Convert>
  auto algebra(CompletionToken&& token, Convert convert, detail::SetAlgebra operation,
               std::vector<std::string> names, std::int64_t limit = 0) const;
};

}  // namespace redisson

#include "redisson/objects/impl/set_cache.hpp"
