// redisson::Increments: the increment and decrement forms AtomicLong and AtomicDouble share
// (Java Redisson's incrementAndGet, getAndDecrement, ...), written once on the number's
// add_and_get and get_and_add.
#pragma once

#include <utility>

#include "redisson/detail/operation.hpp"

namespace redisson {

/// Mixed into `Number`-valued atomics (`Derived` has async_add_and_get and async_get_and_add
/// and name()). Each form is one add on the server: one round trip, atomic.
template <class Derived, class Number>
class Increments {
 public:
  // ---- asynchronous forms: complete through any Asio completion token with (error_code, N)
  template <class CompletionToken>
  auto async_increment_and_get(CompletionToken&& token);
  template <class CompletionToken>
  auto async_decrement_and_get(CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_increment(CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_decrement(CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds 1; returns the new value.
  Number increment_and_get() {
    return async_increment_and_get(detail::blocking("increment_and_get", self().name()));
  }
  /// Subtracts 1; returns the new value.
  Number decrement_and_get() {
    return async_decrement_and_get(detail::blocking("decrement_and_get", self().name()));
  }
  /// Adds 1; returns the value before.
  Number get_and_increment() {
    return async_get_and_increment(detail::blocking("get_and_increment", self().name()));
  }
  /// Subtracts 1; returns the value before.
  Number get_and_decrement() {
    return async_get_and_decrement(detail::blocking("get_and_decrement", self().name()));
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/increments.hpp"
