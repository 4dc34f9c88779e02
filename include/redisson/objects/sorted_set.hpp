// redisson::SortedSet<T, Compare>: Java Redisson's RSortedSet, a Redis list kept sorted and
// without duplicates (detail::SortedList).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/sorted_list.hpp"

namespace redisson {

/// A set of T in ascending `Compare` order, no two elements equal by it: Java Redisson's
/// RSortedSet on the Redis list `name`, with its keys (the RLock `redisson_sortedset_lock:{name}`
/// around every write, the comparator name in `redisson_sortedset_comparator:{name}`). Not a
/// ScoredSortedSet: the order is the Compare on decoded values, not a score.
///
/// `comparator_name` as PriorityQueue's. Reads take no lock; add, remove and the polls take it.
/// Costs: detail::SortedList.
template <JavaValue T, class Compare = std::less<T>>
class SortedSet : public detail::SortedList<T, Compare> {
  using Base = detail::SortedList<T, Compare>;

 public:
  /// A handle on the set `name`; sends nothing. `codec` null: the client's default codec.
  SortedSet(const Client& client, std::string name, CodecPtr codec = nullptr,
            Compare compare = Compare(), std::string comparator_name = {})
      : Base(client, std::move(name), std::move(codec), "SortedSet",
             detail::ComparatorKey::prefixed, std::move(compare), std::move(comparator_name)) {}

  /// Inserts `value` at its place unless the Compare finds an equal element; true if added.
  bool add(const T& value) { return this->insert(value, true); }
  /// Java's distributedIterator: LRANGE windows (in order) whose next index is kept in Redis
  /// under `iterator_name` (see List::distributed_values); read without the lock, as Redisson.
  CollectionScan<T> distributed_values(std::string iterator_name, std::int64_t page_size) const {
    return this->distributed_windows(std::move(iterator_name), page_size);
  }
  /// As distributed_values(name, page_size) with Redisson's default name
  /// `__redisson_sorted_set_cursor_{name}`.
  CollectionScan<T> distributed_values(std::int64_t page_size = 10) const {
    return this->distributed_windows(detail::distributed_cursor_key("sorted_set", this->name()),
                                     page_size);
  }
  /// add() of each value in turn; true if any was added.
  bool add_all(const std::vector<T>& values) { return this->insert_all(values, true); }
  /// True if the Compare finds an element equal to `value` (a binary search, no lock).
  bool contains(const T& value) const { return this->search(value) >= 0; }
  /// True if contains() each of `values` (true for none).
  bool contains_all(const std::vector<T>& values) const {
    for (const auto& value : values) {
      if (!contains(value)) return false;
    }
    return true;
  }
  /// The least element; nullopt when empty.
  std::optional<T> first() const { return this->get(0); }
  /// The greatest element; nullopt when empty.
  std::optional<T> last() const { return this->get(-1); }
  /// Takes the least element; nullopt when empty.
  std::optional<T> poll_first() { return this->locked_pop("LPOP", "poll_first"); }
  /// Takes up to `count` (>= 1) of the least elements, least first.
  std::vector<T> poll_first(std::int64_t count) {
    return this->locked_pop("LPOP", count, "poll_first");
  }
  /// Takes the greatest element; nullopt when empty.
  std::optional<T> poll_last() { return this->locked_pop("RPOP", "poll_last"); }
  /// Takes up to `count` (>= 1) of the greatest elements, greatest first.
  std::vector<T> poll_last(std::int64_t count) {
    return this->locked_pop("RPOP", count, "poll_last");
  }
  /// Names the order of the set while it is empty (one script; Java writes
  /// "<class>:<signature>"); true if it was set, false when the set has elements.
  bool try_set_comparator(const std::string& comparator_name) {
    return this->template started<bool>(
        this->blocking("try_set_comparator"), &detail::reply_flag,
        &detail::start_sorted_list_try_set_comparator,
        detail::sorted_list_comparator_key(this->name(), detail::ComparatorKey::prefixed),
        comparator_name);
  }

 private:
  // The lock-free list writes would break the order Java relies on, and contains_all here
  // compares by the Compare: hidden.
  using Base::async_contains_all;
  using Base::async_remove;
  using Base::async_remove_all;
  using Base::async_retain_all;
};

}  // namespace redisson
