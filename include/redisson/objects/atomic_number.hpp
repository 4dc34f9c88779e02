// redisson::AtomicNumber: the blocking forms AtomicLong and AtomicDouble share,
// written once on the number's async forms, with the increments (Increments) on
// top.
#pragma once

#include <string>

#include "redisson/detail/object_op.hpp"
#include "redisson/objects/increments.hpp"

namespace redisson {
namespace detail {
/// set_if_greater / set_if_less: atomic_set_if.lua with the threshold and the value as the
/// decimal text the counter stores. Completes with the script's 1/0.
void start_atomic_set_if(const ObjectPtr& object, bool greater, const std::string& threshold,
                         const std::string& value, Done<Reply>& done);
}  // namespace detail

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
  /// Sets `value` only if the current value (0 when absent) is greater than `threshold` (one
  /// script); true if it did.
  bool set_if_greater(Number threshold, Number value);
  /// Sets `value` only if the current value (0 when absent) is less than `threshold`.
  bool set_if_less(Number threshold, Number value);

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/atomic_number.hpp"
