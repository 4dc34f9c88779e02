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
class LexSortedSet : public Object {
 private:
  // Defined first: the operations below deduce their return types from them.
  detail::Blocking blocking(const char* operation) const;
  auto values_of() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::zset_members<std::string>(*codec, reply);
    };
  }
  auto first_value_of() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::first_of(detail::zset_members<std::string>(*codec, reply));
    };
  }
  auto first_popped_of() const {
    return [codec = object_->codec](const Reply& reply) {
      return detail::first_of(detail::zset_scored_members<std::string>(*codec, reply));
    };
  }
  template <class CompletionToken>
  auto pop(CompletionToken&& token, const char* verb, std::int64_t count);

 public:
  /// A handle on the sorted set `name`, always with StringCodec; sends nothing.
  LexSortedSet(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::string(), "LexSortedSet") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const std::string& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<std::string>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const std::string& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const std::vector<std::string>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const std::string& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
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
  auto async_value_range(std::int64_t start, std::int64_t end, CompletionToken&& token) const;
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
  auto async_first(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll_first(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(std::int64_t count, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `value` (score 0); true if it was new.
  bool add(const std::string& value);
  /// Adds the values (one ZADD; nothing sent for none); returns how many were new.
  std::int64_t add_all(const std::vector<std::string>& values);
  /// Removes `value`; true if it was there.
  bool remove(const std::string& value);
  /// Removes the values (one ZREM; nothing sent for none); returns how many were there.
  std::int64_t remove_all(const std::vector<std::string>& values);
  /// True if `value` is a member (ZSCORE).
  bool contains(const std::string& value) const;
  /// The number of members (ZCARD).
  std::int64_t size() const;
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
  /// The members of ranks `start`..`end` inclusive (negative: from the end), as ZRANGE.
  std::vector<std::string> value_range(std::int64_t start, std::int64_t end) const;
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
  /// The first member; nullopt when the set is empty.
  std::optional<std::string> first() const;
  /// The last member; nullopt when the set is empty.
  std::optional<std::string> last() const;
  /// Removes and returns the first member (ZPOPMIN); nullopt when empty.
  std::optional<std::string> poll_first();
  /// Removes and returns the last member (ZPOPMAX); nullopt when empty.
  std::optional<std::string> poll_last();
  /// Removes and returns up to `count` members from the first (nothing sent below 1).
  std::vector<std::string> poll_first(std::int64_t count);
  /// Removes and returns up to `count` members from the last.
  std::vector<std::string> poll_last(std::int64_t count);

  /// The members, read in pages of about `page_size` with ZSCAN as they are iterated, in no
  /// particular order (see CollectionScan). Sends nothing until the first page is asked.
  CollectionScan<std::string> values(std::int64_t page_size = 100) const {
    return CollectionScan<std::string>(object_, "ZSCAN", page_size,
                                       &detail::zset_scored_members<std::string>);
  }
};

}  // namespace redisson

#include "redisson/objects/impl/lex_sorted_set.hpp"
