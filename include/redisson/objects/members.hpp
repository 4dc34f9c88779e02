// redisson::Members: the blocking forms that remove, test and count the members of a set
// (remove, remove_all, contains, size, empty), shared by Set, ScoredSortedSet and LexSortedSet,
// written once on the set's async forms.
#pragma once

#include <cstdint>
#include <vector>

#include "redisson/detail/operation.hpp"

namespace redisson {

/// Mixed into sets whose members are values compared as bytes by the server (Set,
/// ScoredSortedSet, LexSortedSet): `Derived` has the async forms (async_remove,
/// async_remove_all, async_contains, async_size) and name(); each blocking form here waits for
/// one of them. Costs and errors are Derived's.
template <class Derived, class Value>
class Members {
 public:
  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Removes `value`; true if it was there.
  bool remove(const Value& value);
  /// Removes the values (one command; nothing sent for none); returns how many were there.
  std::int64_t remove_all(const std::vector<Value>& values);
  /// True if `value` is a member.
  bool contains(const Value& value) const;
  /// The number of members.
  std::int64_t size() const;
  /// True if there are no members (the size is 0; a missing key is empty).
  bool empty() const { return size() == 0; }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/members.hpp"
