// redisson::ScoredSortedSet<T>: values ordered by a score in one Redis sorted set, Java
// Redisson's RScoredSortedSet.
#pragma once

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/detail/blocking_op.hpp"
#include "redisson/detail/element_subscription.hpp"
#include "redisson/detail/zset.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/sortable.hpp"
#include "redisson/objects/sorted_set_ops.hpp"

namespace redisson {

/// A value with its score, as the sorted set holds it.
template <class T>
struct ScoredEntry {
  T value;
  double score = 0;

  bool operator==(const ScoredEntry&) const = default;
};

/// How the sorted-set algebra combines the scores a value has in several sets (Java's
/// RScoredSortedSet.Aggregate): AGGREGATE SUM, MIN or MAX.
enum class ScoreAggregate { sum, min, max };

/// The options of ScoredSortedSet's union and intersection (Java's Aggregate and weights, its
/// SetUnionArgs / SetIntersectionArgs): how scores combine, and a factor per set.
struct ScoredSetCombine {
  ScoreAggregate aggregate = ScoreAggregate::sum;
  /// Empty: every weight 1. Else one per set read, in order: for store_union and store_intersection
  /// one per name; for the read_ forms this set's first, then one per name. Another count is
  /// errc::invalid_argument, nothing sent.
  std::vector<double> weights = {};
};

/// A value's rank (0-based) and score (Java's RankedEntry).
struct RankedEntry {
  std::int64_t rank = 0;
  double score = 0;

  bool operator==(const RankedEntry&) const = default;
};

namespace detail {

/// The add-and-rank script (src/objects/lua/scored_sorted_set_add_and_get_rank.lua): ZADD (or
/// ZINCRBY when `increment`), then ZRANK (ZREVRANK when `reverse`) of the member, atomically.
void start_scored_sorted_set_add_and_get_rank(const ObjectPtr& object, double score,
                                              const std::string& member, bool reverse,
                                              bool increment, Done<Reply>& done);
/// scored_sorted_set_rank_entry.lua for members[0]: [rank, score] or nil.
void start_zset_rank_entry(const ObjectPtr& object, const std::vector<std::string>& members,
                           bool reverse, Done<Reply>& done);
/// scored_sorted_set_replace.lua: members[0] replaced by members[1] under its score; 1 or 0.
void start_zset_replace(const ObjectPtr& object, const std::vector<std::string>& members,
                        Done<Reply>& done);

/// The sorted-set algebra: which combination, and what becomes of it.
enum class ZsetAlgebra { union_sets, intersection, diff };
enum class ZsetAlgebraResult { store, values, entries, count };
/// ZUNIONSTORE name n names... (the sets `names` into this one, as Redisson), ZUNION n name
/// names... [WITHSCORES], ZINTERCARD n name names... [LIMIT limit] and the others, with
/// `combine`'s WEIGHTS and AGGREGATE where they apply. On a Cluster all in the set's hash slot;
/// a weight count that does not match, a store from no names or a negative limit are
/// errc::invalid_argument; each before anything is sent.
void start_zset_algebra(const ObjectPtr& object, ZsetAlgebra operation, ZsetAlgebraResult result,
                        const std::vector<std::string>& names, const ScoredSetCombine& combine,
                        std::int64_t limit, Done<Reply>& done);

/// What ZRANGESTORE copies: ranks start..end, or scores min..max (reverse: from the highest,
/// still min..max), with LIMIT offset count.
struct ZsetRangeTo {
  bool reverse = false;
  bool by_score = false;
  std::int64_t start = 0;
  std::int64_t end = 0;
  double min = 0;
  bool min_inclusive = true;
  double max = 0;
  bool max_inclusive = true;
  std::optional<std::pair<std::int64_t, std::int64_t>> limit = std::nullopt;
};
/// ZRANGESTORE destination name ...: on a Cluster the destination must share the set's slot
/// (errc::invalid_argument, nothing sent).
void start_zset_range_to(const ObjectPtr& object, const std::string& destination,
                         const ZsetRangeTo& range, Done<Reply>& done);

/// A score as Redisson sends it: Java's BigDecimal.valueOf(score).toPlainString(). NaN and the
/// infinities are errc::invalid_argument (Java's BigDecimal has neither).
inline std::string score_argument(double score) { return plain_decimal_argument(score); }

/// A bound of a score range (ZRANGE BYSCORE, ZCOUNT, ZREMRANGEBYSCORE) as Redisson writes it:
/// "(" when exclusive, then "-inf"/"+inf" for the infinities or the plain decimal text. A NaN
/// bound is errc::invalid_argument.
inline std::string score_bound(double score, bool inclusive) {
  if (std::isnan(score)) throw_invalid_argument("a score bound must not be NaN");
  std::string bound = inclusive ? "" : "(";
  if (std::isinf(score)) return bound + (score > 0 ? "+inf" : "-inf");
  return bound + score_argument(score);
}

/// The entries of a reply of members with scores (WITHSCORES, ZSCAN).
template <class T>
std::vector<ScoredEntry<T>> zset_entries(const Codec& codec, const Reply& reply) {
  std::vector<ScoredEntry<T>> entries;
  for_each_scored(reply, [&](const Reply& member, const Reply& score) {
    if (auto value = decode_reply<T>(codec, member)) {
      entries.push_back(ScoredEntry<T>{std::move(*value), reply_double(score)});
    }
  });
  return entries;
}

}  // namespace detail

/// A set of T ordered by score, stored in the Redis sorted set `name`: each member the codec's
/// bytes of one value, its score a double. The layout of Java Redisson's RScoredSortedSet, so
/// Java and C++ share one set when they use the same codec; scores are sent as Java sends them
/// (BigDecimal.toPlainString: "1.5", "2.0", "10000000000"). Members are compared as bytes, and
/// members of equal score are ordered by their bytes (the server's order).
///
/// Cost: each operation is one command, one round trip (ZADD, ZINCRBY, ZREM, ZSCORE, ZRANK,
/// ZCARD, ZRANGE, ZPOPMIN/ZPOPMAX, ZCOUNT, ZREMRANGEBY*, ZRANDMEMBER, ZMSCORE, ZRANGESTORE,
/// the set algebra); add_and_get_rank, add_score_and_get_rank, rank_entry, replace and
/// retain_all are one script each.
/// Rank and score lookups are O(log n); ranges O(log n + returned). values() and entries()
/// read the set in pages of ZSCAN, never one ZRANGE 0 -1.
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as a T are errc::codec_error; a NaN or infinite score (which Java's BigDecimal cannot carry)
/// is errc::invalid_argument, nothing sent. Needs Redis 6.2 (ZRANGE BYSCORE, ZADD GT/LT);
/// count_intersection needs 7.0 (ZINTERCARD).
///
/// The set algebra (store_union, store_intersection, store_diff, their read_ forms,
/// count_intersection) and range_to name other sorted sets: on a Cluster they must share this set's
/// hash slot (one hash tag), else errc::invalid_argument before anything is sent. A handle: cheap
/// to copy, sends nothing until called, thread-safe.
template <JavaValue T>
class ScoredSortedSet : public Object,
                        public SortedSetOps<ScoredSortedSet<T>, T>,
                        public Sortable<ScoredSortedSet<T>, T> {
  using Ops = SortedSetOps<ScoredSortedSet<T>, T>;
  friend Ops;

 public:
  // remove, remove_all, contains (ZSCORE, as Redisson), contains_all, retain_all, size (ZCARD),
  // first, last (ZRANGE),
  // poll_first and poll_last without a wait (ZPOPMIN, ZPOPMAX; with a count, nothing sent
  // below 1), value_range and values() are the sorted set's (SortedSetOps, with LexSortedSet).
  // poll_first and poll_last have more overloads here (a wait):
  using Ops::async_poll_first;
  using Ops::async_poll_last;
  using Ops::poll_first;
  using Ops::poll_last;

  /// A handle on the sorted set `name`; sends nothing. `codec` null: the client's default codec.
  ScoredSortedSet(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "ScoredSortedSet") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_add(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_exists(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_greater(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_if_less(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<std::pair<double, T>>& entries, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_and_get_rank(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_and_get_rev_rank(double score, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_score(const T& value, double delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_score(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rank(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rev_rank(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_first_score(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last_score(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll_first(std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_from_any(std::chrono::milliseconds wait,
                                 const std::vector<std::string>& other_sets,
                                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait,
                                const std::vector<std::string>& other_sets,
                                CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                 const std::vector<std::string>& other_sets,
                                 CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                const std::vector<std::string>& other_sets,
                                CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_take_first(CompletionToken&& token);
  template <class CompletionToken>
  auto async_take_last(CompletionToken&& token);
  template <class CompletionToken>
  auto async_value_range_reversed(std::int64_t start, std::int64_t end,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_range(std::int64_t start, std::int64_t end, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_range_reversed(std::int64_t start, std::int64_t end,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_value_range_by_score(double min, bool min_inclusive, double max, bool max_inclusive,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_value_range_by_score(double min, bool min_inclusive, double max, bool max_inclusive,
                                  std::int64_t offset, std::int64_t count,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_range_by_score(double min, bool min_inclusive, double max, bool max_inclusive,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_entry_range_by_score(double min, bool min_inclusive, double max, bool max_inclusive,
                                  std::int64_t offset, std::int64_t count,
                                  CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count(double min, bool min_inclusive, double max, bool max_inclusive,
                   CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_range_by_rank(std::int64_t start, std::int64_t end, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_range_by_score(double min, bool min_inclusive, double max, bool max_inclusive,
                                   CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_absent(const std::vector<std::pair<double, T>>& entries,
                               CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_exist(const std::vector<std::pair<double, T>>& entries,
                              CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_greater(const std::vector<std::pair<double, T>>& entries,
                                CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all_if_less(const std::vector<std::pair<double, T>>& entries,
                             CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_score_and_get_rank(const T& value, double delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_score_and_get_rev_rank(const T& value, double delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_rank_entry(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rev_rank_entry(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll_first_entry(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_entry(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_entries(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_entries(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_random(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random_entries(std::int64_t count, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_replace(const T& old_value, const T& new_value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_range_to(const std::string& destination, std::int64_t start, std::int64_t end,
                      CompletionToken&& token);
  template <class CompletionToken>
  auto async_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                               double max, bool max_inclusive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                               double max, bool max_inclusive, std::int64_t offset,
                               std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_rev_range_to(const std::string& destination, std::int64_t start, std::int64_t end,
                          CompletionToken&& token);
  template <class CompletionToken>
  auto async_rev_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                   double max, bool max_inclusive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_rev_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                   double max, bool max_inclusive, std::int64_t offset,
                                   std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_store_union(std::vector<std::string> names, ScoredSetCombine combine,
                         CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_union(std::vector<std::string> names, ScoredSetCombine combine,
                        CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_union_entries(std::vector<std::string> names, ScoredSetCombine combine,
                                CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_intersection(std::vector<std::string> names, ScoredSetCombine combine,
                                CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_intersection(std::vector<std::string> names, ScoredSetCombine combine,
                               CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_intersection_entries(std::vector<std::string> names, ScoredSetCombine combine,
                                       CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_intersection(std::vector<std::string> names, std::int64_t limit,
                                CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_diff(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_diff(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_diff_entries(std::vector<std::string> names, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `value` with `score`, or sets the score of a present value; true if it was new.
  bool add(double score, const T& value) { return async_add(score, value, blocking("add")); }
  /// Adds `value` only if absent (ZADD NX); true if added.
  bool try_add(double score, const T& value) {
    return async_try_add(score, value, blocking("try_add"));
  }
  /// Sets the score of `value` only if present (ZADD XX CH); true if the score changed.
  bool add_if_exists(double score, const T& value) {
    return async_add_if_exists(score, value, blocking("add_if_exists"));
  }
  /// Adds `value`, or raises its score to `score` when that is greater (ZADD GT CH); true if
  /// it was added or its score changed.
  bool add_if_greater(double score, const T& value) {
    return async_add_if_greater(score, value, blocking("add_if_greater"));
  }
  /// Adds `value`, or lowers its score to `score` when that is less (ZADD LT CH); true if it
  /// was added or its score changed.
  bool add_if_less(double score, const T& value) {
    return async_add_if_less(score, value, blocking("add_if_less"));
  }
  /// Adds each (score, value) (one ZADD; nothing sent for none); returns how many were new.
  std::int64_t add_all(const std::vector<std::pair<double, T>>& entries) {
    return async_add_all(entries, blocking("add_all"));
  }
  /// Adds `value` (or sets its score) and returns its rank, 0 for the lowest score (one script).
  std::int64_t add_and_get_rank(double score, const T& value) {
    return async_add_and_get_rank(score, value, blocking("add_and_get_rank"));
  }
  /// Adds `value` (or sets its score) and returns its rank, 0 for the highest score.
  std::int64_t add_and_get_rev_rank(double score, const T& value) {
    return async_add_and_get_rev_rank(score, value, blocking("add_and_get_rev_rank"));
  }
  /// Adds `delta` to the score of `value` (absent: added with score `delta`); returns the new
  /// score (ZINCRBY).
  double add_score(const T& value, double delta) {
    return async_add_score(value, delta, blocking("add_score"));
  }
  /// The score of `value`, or nullopt when it is not a member.
  std::optional<double> score(const T& value) const {
    return async_score(value, blocking("score"));
  }
  /// The rank of `value`, 0 for the lowest score; nullopt when it is not a member.
  std::optional<std::int64_t> rank(const T& value) const {
    return async_rank(value, blocking("rank"));
  }
  /// The rank of `value`, 0 for the highest score; nullopt when it is not a member.
  std::optional<std::int64_t> rev_rank(const T& value) const {
    return async_rev_rank(value, blocking("rev_rank"));
  }
  /// The lowest score; nullopt when the set is empty.
  std::optional<double> first_score() const { return async_first_score(blocking("first_score")); }
  /// The highest score; nullopt when the set is empty.
  std::optional<double> last_score() const { return async_last_score(blocking("last_score")); }
  /// Removes and returns the value of the lowest score, waiting up to `wait` for one
  /// (BZPOPMIN on a dedicated connection, as BlockingQueue::poll); nullopt when none came.
  std::optional<T> poll_first(std::chrono::milliseconds wait) {
    return async_poll_first(wait, blocking("poll_first"));
  }
  /// As poll_first(wait), at the highest score (BZPOPMAX).
  std::optional<T> poll_last(std::chrono::milliseconds wait) {
    return async_poll_last(wait, blocking("poll_last"));
  }
  /// Removes and returns the value of the lowest score of this set or, when it is empty, of
  /// the first of `other_sets` that has one (one BZPOPMIN over all), waiting up to `wait`: the
  /// set's name and the value, or nullopt. On a Cluster the sets must share a hash slot
  /// (CROSSSLOT otherwise).
  std::optional<std::pair<std::string, T>> poll_first_from_any(
      std::chrono::milliseconds wait, std::vector<std::string> other_sets) {
    return async_poll_first_from_any(wait, std::move(other_sets), blocking("poll_first_from_any"));
  }
  /// As poll_first_from_any at the highest score (BZPOPMAX).
  std::optional<std::pair<std::string, T>> poll_last_from_any(std::chrono::milliseconds wait,
                                                              std::vector<std::string> other_sets) {
    return async_poll_last_from_any(wait, std::move(other_sets), blocking("poll_last_from_any"));
  }
  /// Removes up to `count` (>= 1) entries of the lowest scores from this set or, when it is
  /// empty, from the first of `other_sets` that has some (one BZMPOP MIN COUNT), waiting up to
  /// `wait` (zero: looks once, Java's form without a wait): the set's name and its entries,
  /// lowest first, or nullopt. Java's pollFirstFromAny with a count answers their values, its
  /// pollFirstEntriesFromAny the same as a one-entry map.
  std::optional<std::pair<std::string, std::vector<ScoredEntry<T>>>> poll_first_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_sets) {
    return async_poll_first_from_any(wait, count, std::move(other_sets),
                                     blocking("poll_first_from_any"));
  }
  /// As poll_first_from_any with a count, at the highest scores (BZMPOP MAX).
  std::optional<std::pair<std::string, std::vector<ScoredEntry<T>>>> poll_last_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_sets) {
    return async_poll_last_from_any(wait, count, std::move(other_sets),
                                    blocking("poll_last_from_any"));
  }
  /// Calls `consumer` with every value this client takes at the lowest score from now on: a
  /// BZPOPMIN loop on one of the client's blocking connections whose next pop starts when the
  /// consumer has returned, on the listener threads (as BlockingQueue::subscribe_on_elements).
  /// Returns the id for unsubscribe.
  ListenerId subscribe_on_first_elements(std::function<void(T)> consumer) {
    return detail::subscribe_elements<T>(object_, detail::ElementPop::min_score,
                                         std::move(consumer));
  }
  /// As subscribe_on_first_elements at the highest score (BZPOPMAX).
  ListenerId subscribe_on_last_elements(std::function<void(T)> consumer) {
    return detail::subscribe_elements<T>(object_, detail::ElementPop::max_score,
                                         std::move(consumer));
  }
  /// Stops the subscription `id`; false when it is not one of this client's. No consumer call
  /// starts after it returns; a value popped as it stopped is added back with its score.
  bool unsubscribe(ListenerId id) { return detail::remove_element_subscription(object_, id); }
  /// Removes and returns the value of the lowest score, waiting as long as it takes.
  T take_first() { return async_take_first(blocking("take_first")); }
  /// Removes and returns the value of the highest score, waiting as long as it takes.
  T take_last() { return async_take_last(blocking("take_last")); }
  /// The values of ranks `start`..`end` counted from the highest score (ZRANGE REV).
  std::vector<T> value_range_reversed(std::int64_t start, std::int64_t end) const {
    return async_value_range_reversed(start, end, blocking("value_range_reversed"));
  }
  /// The entries of ranks `start`..`end`, lowest score first (ZRANGE WITHSCORES).
  std::vector<ScoredEntry<T>> entry_range(std::int64_t start, std::int64_t end) const {
    return async_entry_range(start, end, blocking("entry_range"));
  }
  /// The entries of ranks `start`..`end` counted from the highest score.
  std::vector<ScoredEntry<T>> entry_range_reversed(std::int64_t start, std::int64_t end) const {
    return async_entry_range_reversed(start, end, blocking("entry_range_reversed"));
  }
  /// The values whose score lies between `min` and `max` (each bound inclusive or not; the
  /// infinities are open ends), lowest score first (ZRANGE BYSCORE).
  std::vector<T> value_range_by_score(double min, bool min_inclusive, double max,
                                      bool max_inclusive) const {
    return async_value_range_by_score(min, min_inclusive, max, max_inclusive,
                                      blocking("value_range_by_score"));
  }
  /// The same, skipping `offset` values and returning at most `count` (a negative count: all
  /// the rest), as ZRANGE BYSCORE LIMIT.
  std::vector<T> value_range_by_score(double min, bool min_inclusive, double max,
                                      bool max_inclusive, std::int64_t offset,
                                      std::int64_t count) const {
    return async_value_range_by_score(min, min_inclusive, max, max_inclusive, offset, count,
                                      blocking("value_range_by_score"));
  }
  /// The entries whose score lies between `min` and `max`, lowest score first.
  std::vector<ScoredEntry<T>> entry_range_by_score(double min, bool min_inclusive, double max,
                                                   bool max_inclusive) const {
    return async_entry_range_by_score(min, min_inclusive, max, max_inclusive,
                                      blocking("entry_range_by_score"));
  }
  /// The same with LIMIT `offset` `count`.
  std::vector<ScoredEntry<T>> entry_range_by_score(double min, bool min_inclusive, double max,
                                                   bool max_inclusive, std::int64_t offset,
                                                   std::int64_t count) const {
    return async_entry_range_by_score(min, min_inclusive, max, max_inclusive, offset, count,
                                      blocking("entry_range_by_score"));
  }
  /// How many values have a score between `min` and `max` (ZCOUNT).
  std::int64_t count(double min, bool min_inclusive, double max, bool max_inclusive) const {
    return async_count(min, min_inclusive, max, max_inclusive, blocking("count"));
  }
  /// Removes the values of ranks `start`..`end` (ZREMRANGEBYRANK); returns how many.
  std::int64_t remove_range_by_rank(std::int64_t start, std::int64_t end) {
    return async_remove_range_by_rank(start, end, blocking("remove_range_by_rank"));
  }
  /// Removes the values whose score lies between `min` and `max` (ZREMRANGEBYSCORE); returns
  /// how many.
  std::int64_t remove_range_by_score(double min, bool min_inclusive, double max,
                                     bool max_inclusive) {
    return async_remove_range_by_score(min, min_inclusive, max, max_inclusive,
                                       blocking("remove_range_by_score"));
  }

  /// Adds each (score, value) that is absent (one ZADD NX; nothing sent for none); returns how
  /// many were added.
  std::int64_t add_all_if_absent(const std::vector<std::pair<double, T>>& entries) {
    return async_add_all_if_absent(entries, blocking("add_all_if_absent"));
  }
  /// Sets the score of each value that is present (ZADD XX CH); returns how many changed.
  std::int64_t add_all_if_exist(const std::vector<std::pair<double, T>>& entries) {
    return async_add_all_if_exist(entries, blocking("add_all_if_exist"));
  }
  /// Adds each value, or raises its score when the new one is greater (ZADD GT CH); returns
  /// how many were added or changed.
  std::int64_t add_all_if_greater(const std::vector<std::pair<double, T>>& entries) {
    return async_add_all_if_greater(entries, blocking("add_all_if_greater"));
  }
  /// Adds each value, or lowers its score when the new one is less (ZADD LT CH); returns how
  /// many were added or changed.
  std::int64_t add_all_if_less(const std::vector<std::pair<double, T>>& entries) {
    return async_add_all_if_less(entries, blocking("add_all_if_less"));
  }
  /// Adds `delta` to the score of `value` (absent: added with `delta`) and returns its rank, 0
  /// for the lowest score (one script, as Redisson).
  std::int64_t add_score_and_get_rank(const T& value, double delta) {
    return async_add_score_and_get_rank(value, delta, blocking("add_score_and_get_rank"));
  }
  /// The same, returning the rank from the highest score.
  std::int64_t add_score_and_get_rev_rank(const T& value, double delta) {
    return async_add_score_and_get_rev_rank(value, delta, blocking("add_score_and_get_rev_rank"));
  }
  /// The rank (0 for the lowest score) and score of `value`; nullopt when it is not a member.
  /// One script: Redisson's ZRANK WITHSCORE needs Redis 7.2.
  std::optional<RankedEntry> rank_entry(const T& value) const {
    return async_rank_entry(value, blocking("rank_entry"));
  }
  /// The rank (0 for the highest score) and score of `value`; nullopt when it is not a member.
  std::optional<RankedEntry> rev_rank_entry(const T& value) const {
    return async_rev_rank_entry(value, blocking("rev_rank_entry"));
  }
  /// Removes and returns the entry of the lowest score (ZPOPMIN); nullopt when empty.
  std::optional<ScoredEntry<T>> poll_first_entry() {
    return async_poll_first_entry(blocking("poll_first_entry"));
  }
  /// Removes and returns the entry of the highest score (ZPOPMAX); nullopt when empty.
  std::optional<ScoredEntry<T>> poll_last_entry() {
    return async_poll_last_entry(blocking("poll_last_entry"));
  }
  /// Removes and returns up to `count` entries from the lowest score up, first first (ZPOPMIN
  /// count; nothing sent below 1).
  std::vector<ScoredEntry<T>> poll_first_entries(std::int64_t count) {
    return async_poll_first_entries(count, blocking("poll_first_entries"));
  }
  /// Removes and returns up to `count` entries from the highest score down, last first, as
  /// poll_last(count) (ZPOPMAX count; nothing sent below 1).
  std::vector<ScoredEntry<T>> poll_last_entries(std::int64_t count) {
    return async_poll_last_entries(count, blocking("poll_last_entries"));
  }
  /// A value chosen at random, left in place (ZRANDMEMBER); nullopt when the set is empty.
  std::optional<T> random() const { return async_random(blocking("random")); }
  /// Up to `count` (>= 0) distinct values chosen at random, left in place (ZRANDMEMBER count).
  std::vector<T> random(std::int64_t count) const {
    return async_random(count, blocking("random"));
  }
  /// Up to `count` (>= 0) distinct entries chosen at random (ZRANDMEMBER count WITHSCORES).
  std::vector<ScoredEntry<T>> random_entries(std::int64_t count) const {
    return async_random_entries(count, blocking("random_entries"));
  }
  /// Replaces `old_value` by `new_value` under the same score (one script, Redisson's); true if
  /// `old_value` was a member.
  bool replace(const T& old_value, const T& new_value) {
    return async_replace(old_value, new_value, blocking("replace"));
  }
  /// Stores the entries of ranks `start`..`end` in the sorted set `destination`, replacing it
  /// (ZRANGESTORE; on a Cluster in this set's slot); returns how many.
  std::int64_t range_to(const std::string& destination, std::int64_t start, std::int64_t end) {
    return async_range_to(destination, start, end, blocking("range_to"));
  }
  /// Stores the entries whose score lies between `min` and `max` in `destination` (ZRANGESTORE
  /// BYSCORE); returns how many.
  std::int64_t range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                 double max, bool max_inclusive) {
    return async_range_to_by_score(destination, min, min_inclusive, max, max_inclusive,
                                   blocking("range_to_by_score"));
  }
  /// The same with LIMIT `offset` `count`.
  std::int64_t range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                 double max, bool max_inclusive, std::int64_t offset,
                                 std::int64_t count) {
    return async_range_to_by_score(destination, min, min_inclusive, max, max_inclusive, offset,
                                   count, blocking("range_to_by_score"));
  }
  /// As range_to, ranks counted from the highest score (ZRANGESTORE REV).
  std::int64_t rev_range_to(const std::string& destination, std::int64_t start, std::int64_t end) {
    return async_rev_range_to(destination, start, end, blocking("rev_range_to"));
  }
  /// As range_to_by_score, from the highest score down (ZRANGESTORE max min BYSCORE REV: the
  /// bounds are still given min first, unlike Java's revRangeTo, which sends them as given).
  std::int64_t rev_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                     double max, bool max_inclusive) {
    return async_rev_range_to_by_score(destination, min, min_inclusive, max, max_inclusive,
                                       blocking("rev_range_to_by_score"));
  }
  /// The same with LIMIT `offset` `count` (counted from the highest score).
  std::int64_t rev_range_to_by_score(const std::string& destination, double min, bool min_inclusive,
                                     double max, bool max_inclusive, std::int64_t offset,
                                     std::int64_t count) {
    return async_rev_range_to_by_score(destination, min, min_inclusive, max, max_inclusive, offset,
                                       count, blocking("rev_range_to_by_score"));
  }
  /// Replaces this set by the union of the sorted sets `names` (ZUNIONSTORE, as Redisson: this
  /// set's own members count only if its name is among `names`; Java's union, a C++ keyword);
  /// returns its new size.
  std::int64_t store_union(std::vector<std::string> names, ScoredSetCombine combine = {}) {
    return async_store_union(std::move(names), std::move(combine), blocking("store_union"));
  }
  /// The union of this set and the sets `names` (ZUNION); nothing is written.
  std::vector<T> read_union(std::vector<std::string> names, ScoredSetCombine combine = {}) const {
    return async_read_union(std::move(names), std::move(combine), blocking("read_union"));
  }
  /// The same with the combined scores (ZUNION WITHSCORES), lowest first.
  std::vector<ScoredEntry<T>> read_union_entries(std::vector<std::string> names,
                                                 ScoredSetCombine combine = {}) const {
    return async_read_union_entries(std::move(names), std::move(combine),
                                    blocking("read_union_entries"));
  }
  /// Replaces this set by the intersection of the sorted sets `names` (ZINTERSTORE, as
  /// Redisson: this set is one of them only if named); returns its new size.
  std::int64_t store_intersection(std::vector<std::string> names, ScoredSetCombine combine = {}) {
    return async_store_intersection(std::move(names), std::move(combine),
                                    blocking("store_intersection"));
  }
  /// The intersection of this set and the sets `names` (ZINTER); nothing is written.
  std::vector<T> read_intersection(std::vector<std::string> names,
                                   ScoredSetCombine combine = {}) const {
    return async_read_intersection(std::move(names), std::move(combine),
                                   blocking("read_intersection"));
  }
  /// The same with the combined scores (ZINTER WITHSCORES), lowest first.
  std::vector<ScoredEntry<T>> read_intersection_entries(std::vector<std::string> names,
                                                        ScoredSetCombine combine = {}) const {
    return async_read_intersection_entries(std::move(names), std::move(combine),
                                           blocking("read_intersection_entries"));
  }
  /// The size of the intersection of this set and the sets `names` (ZINTERCARD), counting up
  /// to `limit` (0: no limit); nothing is written.
  std::int64_t count_intersection(std::vector<std::string> names, std::int64_t limit = 0) const {
    return async_count_intersection(std::move(names), limit, blocking("count_intersection"));
  }
  /// Replaces this set by the members of the first of `names` that are in none of the others
  /// (ZDIFFSTORE, as Redisson); returns its new size.
  std::int64_t store_diff(std::vector<std::string> names) {
    return async_store_diff(std::move(names), blocking("store_diff"));
  }
  /// The members of this set that are in none of the sets `names` (ZDIFF); nothing is written.
  std::vector<T> read_diff(std::vector<std::string> names) const {
    return async_read_diff(std::move(names), blocking("read_diff"));
  }
  /// The same with their scores (ZDIFF WITHSCORES), lowest first.
  std::vector<ScoredEntry<T>> read_diff_entries(std::vector<std::string> names) const {
    return async_read_diff_entries(std::move(names), blocking("read_diff_entries"));
  }

  /// The entries (value and score), read in pages of ZSCAN as values() is.
  CollectionScan<ScoredEntry<T>> entries(std::int64_t page_size = 100) const {
    return CollectionScan<ScoredEntry<T>>(object_, "ZSCAN", page_size, &detail::zset_entries<T>);
  }

 protected:
  /// For a type that is a sorted set underneath (Geo): `kind` names it in errors and listeners.
  ScoredSortedSet(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : Object(client, std::move(name), std::move(codec), kind) {}

 private:
  /// BZPOPMIN/BZPOPMAX name <wait> on a dedicated connection: [name, member, score] or nil.
  template <class R, class CompletionToken>
  auto blocking_pop(CompletionToken&& token, const char* verb,
                    std::optional<std::chrono::milliseconds> wait, const char* operation);
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  std::string member(const T& value) const { return detail::encode_value(codec(), value); }

  static std::optional<std::int64_t> optional_integer(const Reply& reply) {
    if (reply.is_null()) return std::nullopt;
    return detail::reply_integer(reply);
  }
  static std::optional<double> first_score_of(const Reply& reply) {
    std::optional<double> score;
    detail::for_each_scored(reply, [&](const Reply&, const Reply& text) {
      if (!score) score = detail::reply_double(text);
    });
    return score;
  }
  auto values_decoder() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::zset_members<T>(*codec, reply);
    };
  }
  auto entries_decoder() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::zset_entries<T>(*codec, reply);
    };
  }
  /// BZPOPMIN/BZPOPMAX over this set and `others`: [set, member, score] or nil.
  template <class CompletionToken>
  auto pop_from_any(CompletionToken&& token, const char* verb,
                    const std::vector<std::string>& others, std::chrono::milliseconds wait,
                    const char* operation);
  /// BZMPOP <wait> n name others... MIN|MAX COUNT count: [set, [[member, score]...]] or nil.
  template <class CompletionToken>
  auto multi_pop_from_any(CompletionToken&& token, const char* end, std::int64_t count,
                          const std::vector<std::string>& others, std::chrono::milliseconds wait,
                          const char* operation);

  /// `verb name ...` with the arguments `add(command)` appends, built on the caller's thread (a
  /// value the codec cannot write or a bad score is the completion's error).
  template <class R, class CompletionToken, class Convert, class Add>
  auto with_args(CompletionToken&& token, Convert convert, const char* verb, Add add) const;
  /// ZRANGE name min max BYSCORE [LIMIT offset count] [`with_scores`].
  template <class R, class CompletionToken, class Convert>
  auto range_by_score(CompletionToken&& token, Convert convert, double min, bool min_inclusive,
                      double max, bool max_inclusive,
                      std::optional<std::pair<std::int64_t, std::int64_t>> offset_count,
                      std::string_view with_scores) const;
  /// `verb name <value bytes>`.
  template <class R, class CompletionToken, class Convert>
  auto member_command(CompletionToken&& token, Convert convert, const char* verb,
                      const T& value) const;
  /// ZADD name [flags...] score member: an integer reply, 1 when added (or changed, with CH).
  template <class CompletionToken>
  auto zadd(CompletionToken&& token, std::initializer_list<std::string_view> flags, double score,
            const T& value);
  template <class CompletionToken>
  auto add_and_rank(CompletionToken&& token, double score, const T& value, bool reverse,
                    bool increment);
  /// ZADD name [flags...] score member score member ...: how many were added (or changed).
  template <class CompletionToken>
  auto zadd_all(CompletionToken&& token, std::vector<std::string> flags,
                const std::vector<std::pair<double, T>>& entries);
  template <class CompletionToken>
  auto rank_entry_of(CompletionToken&& token, const T& value, bool reverse) const;
  /// One of detail::ZsetAlgebra over this set and `names`.
  template <class R, class CompletionToken, class Convert>
  auto algebra(CompletionToken&& token, Convert convert, detail::ZsetAlgebra operation,
               detail::ZsetAlgebraResult result, std::vector<std::string> names,
               ScoredSetCombine combine, std::int64_t limit = 0) const;
  template <class CompletionToken>
  auto range_to_of(CompletionToken&& token, const std::string& destination,
                   detail::ZsetRangeTo range);
};

}  // namespace redisson

#include "redisson/objects/impl/scored_sorted_set.hpp"
