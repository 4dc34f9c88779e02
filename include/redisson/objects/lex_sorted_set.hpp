// redisson::LexSortedSet: strings in lexicographic order in one Redis sorted set, Java
// Redisson's RLexSortedSet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/sorted_set_ops.hpp"

namespace redisson {

namespace detail {
/// A bound of a lexicographic range (ZRANGE BYLEX, ZLEXCOUNT, ZREMRANGEBYLEX) as Redisson writes
/// it: "[" (inclusive) or "(" (exclusive), then the value's bytes.
inline std::string lex_bound(const std::string& value, bool inclusive) {
  return (inclusive ? "[" : "(") + value;
}
}  // namespace detail

/// A set of strings ordered by their bytes (memcmp order, so UTF-8 text sorts by code point),
/// stored in the Redis sorted set `name` with every score 0: the layout of Java Redisson's
/// RLexSortedSet, which always uses StringCodec (members are the strings' bytes as they are),
/// so Java and C++ share one set whatever the client's default codec.
///
/// Cost: each operation is one command, one round trip (ZADD, ZREM, ZSCORE, ZCARD, ZRANGE
/// BYLEX, ZLEXCOUNT, ZREMRANGEBYLEX, ZPOPMIN/ZPOPMAX); ranges are O(log n + returned).
/// values() reads the set in pages of ZSCAN.
///
/// The ordering needs every score to be equal: a member another client added with a score other
/// than 0 (through a ScoredSortedSet on the same name) makes lexicographic ranges undefined, as
/// in Redis. A key of another type is errc::wrong_type and is left untouched. Needs Redis 6.2
/// (ZRANGE BYLEX). A handle: cheap to copy, sends nothing until called, thread-safe.
class LexSortedSet : public Object, public SortedSetOps<LexSortedSet, std::string> {
  friend SortedSetOps<LexSortedSet, std::string>;

 private:
  // Defined first: the operations below deduce their return types from them.
  detail::Blocking blocking(const char* operation) const;
  auto values_of() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::zset_members<std::string>(*codec, reply);
    };
  }

 public:
  /// A handle on the sorted set `name`, always with StringCodec; sends nothing.
  LexSortedSet(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::string(), "LexSortedSet") {}

  // remove, remove_all, contains (ZSCORE), size (ZCARD), first, last (ZRANGE), poll_first,
  // poll_last (ZPOPMIN, ZPOPMAX; with a count, nothing sent below 1), value_range and values()
  // are the sorted set's (SortedSetOps, with ScoredSortedSet).

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const std::string& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<std::string>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_range(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, std::int64_t offset, std::int64_t count,
                   CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range_head(const std::string& to, bool to_inclusive, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range_tail(const std::string& from, bool from_inclusive,
                        CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_head(const std::string& to, bool to_inclusive, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_tail(const std::string& from, bool from_inclusive,
                        CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_range(const std::string& from, bool from_inclusive, const std::string& to,
                          bool to_inclusive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_range_head(const std::string& to, bool to_inclusive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_range_tail(const std::string& from, bool from_inclusive,
                               CompletionToken&& token);
  template <class CompletionToken>
  auto async_range_reversed(const std::string& from, bool from_inclusive, const std::string& to,
                            bool to_inclusive, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range_head_reversed(const std::string& to, bool to_inclusive,
                                 CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range_tail_reversed(const std::string& from, bool from_inclusive,
                                 CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rank(const std::string& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_rev_rank(const std::string& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random(std::int64_t count, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `value` (score 0); true if it was new.
  bool add(const std::string& value);
  /// Adds the values (one ZADD; nothing sent for none); returns how many were new.
  std::int64_t add_all(const std::vector<std::string>& values);
  /// The members from `from` to `to` in order, each bound inclusive or not (ZRANGE BYLEX).
  std::vector<std::string> range(const std::string& from, bool from_inclusive,
                                 const std::string& to, bool to_inclusive) const;
  /// The same, skipping `offset` members and returning at most `count` (negative: all the
  /// rest), as ZRANGE BYLEX LIMIT.
  std::vector<std::string> range(const std::string& from, bool from_inclusive,
                                 const std::string& to, bool to_inclusive, std::int64_t offset,
                                 std::int64_t count) const;
  /// The members up to `to` (from the first).
  std::vector<std::string> range_head(const std::string& to, bool to_inclusive) const;
  /// The members from `from` (to the last).
  std::vector<std::string> range_tail(const std::string& from, bool from_inclusive) const;
  /// How many members lie from `from` to `to` (ZLEXCOUNT).
  std::int64_t count(const std::string& from, bool from_inclusive, const std::string& to,
                     bool to_inclusive) const;
  /// How many members lie up to `to`.
  std::int64_t count_head(const std::string& to, bool to_inclusive) const;
  /// How many members lie from `from` on.
  std::int64_t count_tail(const std::string& from, bool from_inclusive) const;
  /// Removes the members from `from` to `to` (ZREMRANGEBYLEX); returns how many.
  std::int64_t remove_range(const std::string& from, bool from_inclusive, const std::string& to,
                            bool to_inclusive);
  /// Removes the members up to `to`; returns how many.
  std::int64_t remove_range_head(const std::string& to, bool to_inclusive);
  /// Removes the members from `from` on; returns how many.
  std::int64_t remove_range_tail(const std::string& from, bool from_inclusive);
  /// range(), last first (ZRANGE BYLEX REV; Java's rangeReversed).
  std::vector<std::string> range_reversed(const std::string& from, bool from_inclusive,
                                          const std::string& to, bool to_inclusive) const;
  /// range_head(), last first.
  std::vector<std::string> range_head_reversed(const std::string& to, bool to_inclusive) const;
  /// range_tail(), last first.
  std::vector<std::string> range_tail_reversed(const std::string& from, bool from_inclusive) const;
  /// The position of `value` from the first (ZRANK, 0-based); nullopt when it is no member.
  std::optional<std::int64_t> rank(const std::string& value) const;
  /// The position of `value` from the last (ZREVRANK); nullopt when it is no member.
  std::optional<std::int64_t> rev_rank(const std::string& value) const;
  /// Up to `count` (>= 0) distinct members chosen at random (ZRANDMEMBER), left in place.
  std::vector<std::string> random(std::int64_t count) const;
};

}  // namespace redisson

#include "redisson/objects/impl/lex_sorted_set.hpp"

namespace redisson {
// Compiled once, in the library (src/objects/scored_sorted_set.cpp).
extern template class Members<LexSortedSet, std::string>;
extern template class SortedEnds<LexSortedSet, std::string>;
extern template class SortedSetOps<LexSortedSet, std::string>;
}  // namespace redisson
