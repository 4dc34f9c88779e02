// The bodies of AtomicNumber's blocking forms (objects/atomic_number.hpp).
#pragma once

#include "redisson/objects/atomic_number.hpp"

namespace redisson {

template <class Derived, class Number>
Number AtomicNumber<Derived, Number>::get() const {
  return self().async_get(detail::blocking("get", self().name()));
}

template <class Derived, class Number>
void AtomicNumber<Derived, Number>::set(Number value) {
  self().async_set(value, detail::blocking("set", self().name()));
}

template <class Derived, class Number>
Number AtomicNumber<Derived, Number>::add_and_get(Number delta) {
  return self().async_add_and_get(delta, detail::blocking("add_and_get", self().name()));
}

template <class Derived, class Number>
Number AtomicNumber<Derived, Number>::get_and_add(Number delta) {
  return self().async_get_and_add(delta, detail::blocking("get_and_add", self().name()));
}

template <class Derived, class Number>
Number AtomicNumber<Derived, Number>::get_and_set(Number value) {
  return self().async_get_and_set(value, detail::blocking("get_and_set", self().name()));
}

template <class Derived, class Number>
bool AtomicNumber<Derived, Number>::compare_and_set(Number expect, Number update) {
  return self().async_compare_and_set(expect, update,
                                      detail::blocking("compare_and_set", self().name()));
}

template <class Derived, class Number>
Number AtomicNumber<Derived, Number>::get_and_delete() {
  return self().async_get_and_delete(detail::blocking("get_and_delete", self().name()));
}

template <class Derived, class Number>
bool AtomicNumber<Derived, Number>::set_if_greater(Number threshold, Number value) {
  return self().async_set_if_greater(threshold, value,
                                     detail::blocking("set_if_greater", self().name()));
}

template <class Derived, class Number>
bool AtomicNumber<Derived, Number>::set_if_less(Number threshold, Number value) {
  return self().async_set_if_less(threshold, value, detail::blocking("set_if_less", self().name()));
}

}  // namespace redisson
