// redisson::MapKeys: the blocking forms a map and a multimap share (Java Redisson's RMap and
// RMultimap fastRemove, containsKey, containsValue), written once on their async forms.
#pragma once

#include <cstdint>
#include <vector>

#include "redisson/detail/operation.hpp"

namespace redisson {

/// Mixed into Map (and MapCache) and the multimaps: `Derived` has the async forms
/// (async_fast_remove, async_contains_key, async_contains_value) and name(); each blocking form
/// here waits for one of them. Costs and errors are Derived's.
template <class Derived, class K, class V>
class MapKeys {
 public:
  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Removes the keys with their values, without reading them; returns how many were there.
  std::int64_t fast_remove(const std::vector<K>& keys);
  /// True if `key` is present (in a multimap: has values).
  bool contains_key(const K& key) const;
  /// True if some key holds `value` (compared on the server: walks the whole map).
  bool contains_value(const V& value) const;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace redisson

#include "redisson/objects/impl/map_keys.hpp"
