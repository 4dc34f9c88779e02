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
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
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
  auto pop(CompletionToken&& token, const char* verb, std::int64_t count) {
    return detail::async_started<std::vector<std::string>>(
        object_, token,
        [verb, count](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_zset_pop(object, verb, count, done);
        },
        [codec = object_->codec](const Reply& reply) {
          return detail::zset_scored_members<std::string>(*codec, reply);
        });
  }

 public:
  /// A handle on the sorted set `name`, always with StringCodec; sends nothing.
  LexSortedSet(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::string(), "LexSortedSet") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const std::string& value, CompletionToken&& token) {
    return on_key<bool>(token, &detail::reply_flag, "ZADD", std::int64_t{0}, value);
  }
  template <class CompletionToken>
  auto async_add_all(const std::vector<std::string>& values, CompletionToken&& token) {
    return detail::async_started<std::int64_t>(
        object_, token,
        [values](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          std::vector<std::string> args;
          args.reserve(values.size() * 2);
          for (const auto& value : values) {
            args.emplace_back("0");
            args.push_back(value);
          }
          detail::start_with_arguments(object, "ZADD", args, done);
        },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_remove(const std::string& value, CompletionToken&& token) {
    return on_key<bool>(token, &detail::reply_flag, "ZREM", value);
  }
  template <class CompletionToken>
  auto async_remove_all(const std::vector<std::string>& values, CompletionToken&& token) {
    return detail::async_started<std::int64_t>(
        object_, token,
        [values](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_with_arguments(object, "ZREM", values, done);
        },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_contains(const std::string& value, CompletionToken&& token) const {
    return on_key<bool>(
        token, [](const Reply& reply) { return !reply.is_null(); }, "ZSCORE", value);
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZCARD");
  }
  template <class CompletionToken>
  auto async_range(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, CompletionToken&& token) const {
    return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                            detail::lex_bound(from, from_inclusive),
                                            detail::lex_bound(to, to_inclusive), "BYLEX");
  }
  template <class CompletionToken>
  auto async_range(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, std::int64_t offset, std::int64_t count,
                   CompletionToken&& token) const {
    return on_key<std::vector<std::string>>(
        token, values_of(), "ZRANGE", detail::lex_bound(from, from_inclusive),
        detail::lex_bound(to, to_inclusive), "BYLEX", "LIMIT", offset, count);
  }
  template <class CompletionToken>
  auto async_range_head(const std::string& to, bool to_inclusive, CompletionToken&& token) const {
    return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE", "-",
                                            detail::lex_bound(to, to_inclusive), "BYLEX");
  }
  template <class CompletionToken>
  auto async_range_tail(const std::string& from, bool from_inclusive,
                        CompletionToken&& token) const {
    return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE",
                                            detail::lex_bound(from, from_inclusive), "+", "BYLEX");
  }
  template <class CompletionToken>
  auto async_value_range(std::int64_t start, std::int64_t end, CompletionToken&& token) const {
    return on_key<std::vector<std::string>>(token, values_of(), "ZRANGE", start, end);
  }
  template <class CompletionToken>
  auto async_count(const std::string& from, bool from_inclusive, const std::string& to,
                   bool to_inclusive, CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT",
                                detail::lex_bound(from, from_inclusive),
                                detail::lex_bound(to, to_inclusive));
  }
  template <class CompletionToken>
  auto async_count_head(const std::string& to, bool to_inclusive, CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT", "-",
                                detail::lex_bound(to, to_inclusive));
  }
  template <class CompletionToken>
  auto async_count_tail(const std::string& from, bool from_inclusive,
                        CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZLEXCOUNT",
                                detail::lex_bound(from, from_inclusive), "+");
  }
  template <class CompletionToken>
  auto async_remove_range(const std::string& from, bool from_inclusive, const std::string& to,
                          bool to_inclusive, CompletionToken&& token) {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX",
                                detail::lex_bound(from, from_inclusive),
                                detail::lex_bound(to, to_inclusive));
  }
  template <class CompletionToken>
  auto async_remove_range_head(const std::string& to, bool to_inclusive, CompletionToken&& token) {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX", "-",
                                detail::lex_bound(to, to_inclusive));
  }
  template <class CompletionToken>
  auto async_remove_range_tail(const std::string& from, bool from_inclusive,
                               CompletionToken&& token) {
    return on_key<std::int64_t>(token, &detail::reply_integer, "ZREMRANGEBYLEX",
                                detail::lex_bound(from, from_inclusive), "+");
  }
  template <class CompletionToken>
  auto async_first(CompletionToken&& token) const {
    return on_key<std::optional<std::string>>(token, first_value_of(), "ZRANGE", std::int64_t{0},
                                              std::int64_t{0});
  }
  template <class CompletionToken>
  auto async_last(CompletionToken&& token) const {
    return on_key<std::optional<std::string>>(token, first_value_of(), "ZRANGE", std::int64_t{-1},
                                              std::int64_t{-1});
  }
  template <class CompletionToken>
  auto async_poll_first(CompletionToken&& token) {
    return on_key<std::optional<std::string>>(token, first_popped_of(), "ZPOPMIN");
  }
  template <class CompletionToken>
  auto async_poll_last(CompletionToken&& token) {
    return on_key<std::optional<std::string>>(token, first_popped_of(), "ZPOPMAX");
  }
  template <class CompletionToken>
  auto async_poll_first(std::int64_t count, CompletionToken&& token) {
    return pop(token, "ZPOPMIN", count);
  }
  template <class CompletionToken>
  auto async_poll_last(std::int64_t count, CompletionToken&& token) {
    return pop(token, "ZPOPMAX", count);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `value` (score 0); true if it was new.
  bool add(const std::string& value) { return async_add(value, blocking("add")); }
  /// Adds the values (one ZADD; nothing sent for none); returns how many were new.
  std::int64_t add_all(const std::vector<std::string>& values) {
    return async_add_all(values, blocking("add_all"));
  }
  /// Removes `value`; true if it was there.
  bool remove(const std::string& value) { return async_remove(value, blocking("remove")); }
  /// Removes the values (one ZREM; nothing sent for none); returns how many were there.
  std::int64_t remove_all(const std::vector<std::string>& values) {
    return async_remove_all(values, blocking("remove_all"));
  }
  /// True if `value` is a member (ZSCORE).
  bool contains(const std::string& value) const {
    return async_contains(value, blocking("contains"));
  }
  /// The number of members (ZCARD).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// The members from `from` to `to` in order, each bound inclusive or not (ZRANGE BYLEX).
  std::vector<std::string> range(const std::string& from, bool from_inclusive,
                                 const std::string& to, bool to_inclusive) const {
    return async_range(from, from_inclusive, to, to_inclusive, blocking("range"));
  }
  /// The same, skipping `offset` members and returning at most `count` (negative: all the
  /// rest), as ZRANGE BYLEX LIMIT.
  std::vector<std::string> range(const std::string& from, bool from_inclusive,
                                 const std::string& to, bool to_inclusive, std::int64_t offset,
                                 std::int64_t count) const {
    return async_range(from, from_inclusive, to, to_inclusive, offset, count, blocking("range"));
  }
  /// The members up to `to` (from the first).
  std::vector<std::string> range_head(const std::string& to, bool to_inclusive) const {
    return async_range_head(to, to_inclusive, blocking("range_head"));
  }
  /// The members from `from` (to the last).
  std::vector<std::string> range_tail(const std::string& from, bool from_inclusive) const {
    return async_range_tail(from, from_inclusive, blocking("range_tail"));
  }
  /// The members of ranks `start`..`end` inclusive (negative: from the end), as ZRANGE.
  std::vector<std::string> value_range(std::int64_t start, std::int64_t end) const {
    return async_value_range(start, end, blocking("value_range"));
  }
  /// How many members lie from `from` to `to` (ZLEXCOUNT).
  std::int64_t count(const std::string& from, bool from_inclusive, const std::string& to,
                     bool to_inclusive) const {
    return async_count(from, from_inclusive, to, to_inclusive, blocking("count"));
  }
  /// How many members lie up to `to`.
  std::int64_t count_head(const std::string& to, bool to_inclusive) const {
    return async_count_head(to, to_inclusive, blocking("count_head"));
  }
  /// How many members lie from `from` on.
  std::int64_t count_tail(const std::string& from, bool from_inclusive) const {
    return async_count_tail(from, from_inclusive, blocking("count_tail"));
  }
  /// Removes the members from `from` to `to` (ZREMRANGEBYLEX); returns how many.
  std::int64_t remove_range(const std::string& from, bool from_inclusive, const std::string& to,
                            bool to_inclusive) {
    return async_remove_range(from, from_inclusive, to, to_inclusive, blocking("remove_range"));
  }
  /// Removes the members up to `to`; returns how many.
  std::int64_t remove_range_head(const std::string& to, bool to_inclusive) {
    return async_remove_range_head(to, to_inclusive, blocking("remove_range_head"));
  }
  /// Removes the members from `from` on; returns how many.
  std::int64_t remove_range_tail(const std::string& from, bool from_inclusive) {
    return async_remove_range_tail(from, from_inclusive, blocking("remove_range_tail"));
  }
  /// The first member; nullopt when the set is empty.
  std::optional<std::string> first() const { return async_first(blocking("first")); }
  /// The last member; nullopt when the set is empty.
  std::optional<std::string> last() const { return async_last(blocking("last")); }
  /// Removes and returns the first member (ZPOPMIN); nullopt when empty.
  std::optional<std::string> poll_first() { return async_poll_first(blocking("poll_first")); }
  /// Removes and returns the last member (ZPOPMAX); nullopt when empty.
  std::optional<std::string> poll_last() { return async_poll_last(blocking("poll_last")); }
  /// Removes and returns up to `count` members from the first (nothing sent below 1).
  std::vector<std::string> poll_first(std::int64_t count) {
    return async_poll_first(count, blocking("poll_first"));
  }
  /// Removes and returns up to `count` members from the last.
  std::vector<std::string> poll_last(std::int64_t count) {
    return async_poll_last(count, blocking("poll_last"));
  }

  /// The members, read in pages of about `page_size` with ZSCAN as they are iterated, in no
  /// particular order (see CollectionScan). Sends nothing until the first page is asked.
  CollectionScan<std::string> values(std::int64_t page_size = 100) const {
    return CollectionScan<std::string>(object_, "ZSCAN", page_size,
                                       &detail::zset_scored_members<std::string>);
  }
};

}  // namespace redisson
