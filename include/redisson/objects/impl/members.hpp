// The bodies of Members's blocking forms (objects/members.hpp).
#pragma once

#include "redisson/objects/members.hpp"

namespace redisson {

template <class Derived, class Value>
bool Members<Derived, Value>::remove(const Value& value) {
  return self().async_remove(value, detail::blocking("remove", self().name()));
}

template <class Derived, class Value>
std::int64_t Members<Derived, Value>::remove_all(const std::vector<Value>& values) {
  return self().async_remove_all(values, detail::blocking("remove_all", self().name()));
}

template <class Derived, class Value>
bool Members<Derived, Value>::contains(const Value& value) const {
  return self().async_contains(value, detail::blocking("contains", self().name()));
}

template <class Derived, class Value>
std::int64_t Members<Derived, Value>::size() const {
  return self().async_size(detail::blocking("size", self().name()));
}

}  // namespace redisson
