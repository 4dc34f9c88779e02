// redisson::AtomicNumber: the blocking forms AtomicLong and AtomicDouble share,
// written once on the number's async forms, with the increments (Increments) on
// top.
#pragma once

#include "redisson/objects/increments.hpp"

namespace redisson {

/// Mixed into AtomicLong (Number = std::int64_t) and AtomicDouble (Number =
/// double): `Derived` has the async forms (async_get, async_set,
/// async_add_and_get, async_get_and_add, async_get_and_set,
/// async_compare_and_set, async_get_and_delete) and name(); each blocking form
/// here waits for one of them. Costs and errors are Derived's.
template <class Derived, class Number>
class AtomicNumber : public Increments<Derived, Number> {
 public:
  // ---- blocking forms: wait for the async form; throw redisson::error
  // ---------------------
  /// The value (0 when the key does not exist).
  Number get() const;
  /// Stores `value`.
  void set(Number value);
  /// Adds `delta`; returns the new value.
  Number add_and_get(Number delta);
  /// Adds `delta`; returns the value before.
  Number get_and_add(Number delta);
  /// Stores `value`; returns the value before.
  Number get_and_set(Number value);
  /// Stores `update` if the value equals `expect` (a missing key counts as 0);
  /// true if it did.
  bool compare_and_set(Number expect, Number update);
  /// Deletes the key; returns the value it had (0 when there was none).
  Number get_and_delete();

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/atomic_number.hpp"
