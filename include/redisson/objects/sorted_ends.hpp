// redisson::SortedEnds: the blocking forms that read and remove at the two ends of an ordered
// collection (first, last, poll_first, poll_last), shared by ScoredSortedSet, LexSortedSet and
// TimeSeries, written once on the collection's async forms.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "redisson/detail/operation.hpp"

namespace redisson {

/// Mixed into collections kept in an order (by score, by bytes, by timestamp): `Derived` has
/// the async forms (async_first, async_last, async_poll_first and async_poll_last, each also
/// with a count) and name(); each blocking form here waits for one of them. "First" is the
/// lowest in Derived's order, "last" the highest. Costs and errors are Derived's.
template <class Derived, class Value>
class SortedEnds {
 public:
  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The first value; nullopt when the collection is empty.
  std::optional<Value> first() const;
  /// The last value; nullopt when the collection is empty.
  std::optional<Value> last() const;
  /// Removes and returns the first value; nullopt when empty.
  std::optional<Value> poll_first();
  /// Removes and returns the last value; nullopt when empty.
  std::optional<Value> poll_last();
  /// Removes and returns up to `count` values from the first on, first first (a count below 1
  /// removes nothing; a TimeSeries answers a negative one with errc::invalid_argument).
  std::vector<Value> poll_first(std::int64_t count);
  /// Removes and returns up to `count` values from the last down, last first (a count below 1
  /// as poll_first(count)).
  std::vector<Value> poll_last(std::int64_t count);

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/sorted_ends.hpp"
