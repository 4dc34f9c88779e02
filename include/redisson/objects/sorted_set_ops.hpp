// redisson::SortedSetOps: the operations ScoredSortedSet and LexSortedSet share because they are
// the same commands on one Redis sorted set (ZREM, ZSCORE, ZCARD, ZRANGE by rank, ZPOPMIN,
// ZPOPMAX, ZSCAN), written once for both.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "redisson/detail/zset.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/members.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/sorted_ends.hpp"

namespace redisson {

/// Mixed into the handles on a Redis sorted set whose members are the codec's bytes of a Value
/// (ScoredSortedSet<T>: Value = T; LexSortedSet: Value = std::string with StringCodec).
/// `Derived` is an Object that names this class a friend (the operations use its object).
/// "First" is the lowest score (for equal scores, the lowest bytes). Each operation is one
/// command, one round trip; a key of another type is errc::wrong_type, bytes the codec cannot
/// read as a Value errc::codec_error. The blocking forms of remove, remove_all, contains and size
/// are Members', those of first, last, poll_first and poll_last SortedEnds'.
template <class Derived, class Value>
class SortedSetOps : public Members<Derived, Value>, public SortedEnds<Derived, Value> {
 public:
  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_remove(const Value& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const std::vector<Value>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const Value& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
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
  template <class CompletionToken>
  auto async_value_range(std::int64_t start, std::int64_t end, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_all(const std::vector<Value>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_retain_all(const std::vector<Value>& values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The values of ranks `start`..`end` inclusive, first first; negative ranks count from the
  /// end (-1 is the last), as ZRANGE.
  std::vector<Value> value_range(std::int64_t start, std::int64_t end) const;
  /// True if every one of `values` is a member (one ZMSCORE; true for none).
  bool contains_all(const std::vector<Value>& values) const;
  /// Keeps only the members that are among `values`, with their scores (one script, as
  /// Redisson; none: deletes the set); true if a member was removed.
  bool retain_all(const std::vector<Value>& values);

  /// The values, read in pages of about `page_size` with ZSCAN as they are iterated, in no
  /// particular order (see CollectionScan for what a scan guarantees). Sends nothing until the
  /// first page is asked.
  CollectionScan<Value> values(std::int64_t page_size = 100) const;
  /// Java's distributedIterator: a ZSCAN whose cursor is kept in Redis under `iterator_name`
  /// (see Set::distributed_values), the values without their scores.
  CollectionScan<Value> distributed_values(std::string iterator_name, std::int64_t page_size,
                                           std::string pattern = {}) const;
  /// As distributed_values(name, page_size) with Redisson's default name
  /// `__redisson_scored_sorted_set_cursor_{name}` (a LexSortedSet's too, as in Redisson).
  CollectionScan<Value> distributed_values(std::int64_t page_size = 10) const;

 private:
  const Derived& handle() const { return static_cast<const Derived&>(*this); }
  const detail::ObjectPtr& object() const { return handle().object_; }
  /// `verb name args...`, the command built when the operation starts (arguments: text or
  /// integers).
  template <class R, class CompletionToken, class Convert, class... Args>
  auto key_command(CompletionToken&& token, Convert convert, const char* verb,
                   const Args&... args) const;
  /// `verb name <value bytes>` (a value the codec cannot write is the completion's error).
  template <class R, class CompletionToken, class Convert>
  auto value_command(CompletionToken&& token, Convert convert, const char* verb,
                     const Value& value) const;
  /// ZRANGE name rank rank: the value there, nullopt when there is none.
  template <class CompletionToken>
  auto value_at_rank(CompletionToken&& token, std::int64_t rank) const;
  /// ZPOPMIN/ZPOPMAX name: the value removed, nullopt when the set was empty.
  template <class CompletionToken>
  auto pop_one(CompletionToken&& token, const char* verb);
  /// ZPOPMIN/ZPOPMAX name count (nothing sent for a count below 1).
  template <class CompletionToken>
  auto pop(CompletionToken&& token, const char* verb, std::int64_t count);
};

}  // namespace redisson

#include "redisson/objects/impl/sorted_set_ops.hpp"
