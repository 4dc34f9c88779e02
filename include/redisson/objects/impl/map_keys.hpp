// The bodies of MapKeys's blocking forms (objects/map_keys.hpp).
#pragma once

#include "redisson/objects/map_keys.hpp"

namespace redisson {

template <class Derived, class K, class V>
std::int64_t MapKeys<Derived, K, V>::fast_remove(const std::vector<K>& keys) {
  return self().async_fast_remove(keys, detail::blocking("fast_remove", self().name()));
}

template <class Derived, class K, class V>
bool MapKeys<Derived, K, V>::contains_key(const K& key) const {
  return self().async_contains_key(key, detail::blocking("contains_key", self().name()));
}

template <class Derived, class K, class V>
bool MapKeys<Derived, K, V>::contains_value(const V& value) const {
  return self().async_contains_value(value, detail::blocking("contains_value", self().name()));
}

}  // namespace redisson
