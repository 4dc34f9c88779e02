// The bodies of SortedEnds's blocking forms (objects/sorted_ends.hpp).
#pragma once

#include "redisson/objects/sorted_ends.hpp"

namespace redisson {

template <class Derived, class Value>
std::optional<Value> SortedEnds<Derived, Value>::first() const {
  return self().async_first(detail::blocking("first", self().name()));
}

template <class Derived, class Value>
std::optional<Value> SortedEnds<Derived, Value>::last() const {
  return self().async_last(detail::blocking("last", self().name()));
}

template <class Derived, class Value>
std::optional<Value> SortedEnds<Derived, Value>::poll_first() {
  return self().async_poll_first(detail::blocking("poll_first", self().name()));
}

template <class Derived, class Value>
std::optional<Value> SortedEnds<Derived, Value>::poll_last() {
  return self().async_poll_last(detail::blocking("poll_last", self().name()));
}

template <class Derived, class Value>
std::vector<Value> SortedEnds<Derived, Value>::poll_first(std::int64_t count) {
  return self().async_poll_first(count, detail::blocking("poll_first", self().name()));
}

template <class Derived, class Value>
std::vector<Value> SortedEnds<Derived, Value>::poll_last(std::int64_t count) {
  return self().async_poll_last(count, detail::blocking("poll_last", self().name()));
}

}  // namespace redisson
