// redisson::TransactionalMapCache<K, V>: a MapCache inside a Transaction (Java Redisson's
// RedissonTransactionalMapCache).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/map_cache.hpp"
#include "redisson/objects/transactional_map.hpp"

namespace redisson {

/// The map cache `name` (MapCache<K, V>'s layout) seen through a Transaction: every
/// TransactionalMap operation, run over the MapCache's scripts (an expired entry is absent), and
/// put with a time to live (and max idle time), which commit() sends as MapCache's put script.
/// The transaction's own view of an entry does not expire before commit().
template <JavaValue K, JavaValue V>
class TransactionalMapCache : public TransactionalMap<K, V> {
  using Base = TransactionalMap<K, V>;

 public:
  TransactionalMapCache(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : Base(transaction, std::move(name), std::move(codec), "TransactionalMapCache",
             &detail::map_cache_hooks, detail::map_cache_layout) {}

  using Base::async_put;
  using Base::put;

  /// Records MapCache's put with `ttl` (0: none) and `max_idle` (0: none), both not negative.
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 std::chrono::milliseconds max_idle, CompletionToken&& token) {
    return this->template call<std::optional<V>>(
        token, detail::TxOp::map_cache_put, this->reader(),
        [key, value, ttl, max_idle](const Codec& codec) {
          const auto ttl_ms = detail::map_cache_ms(ttl, "ttl");
          const auto idle_ms = detail::map_cache_ms(max_idle, "max_idle");
          return std::vector<std::string>{detail::map_key_bytes(codec, key),
                                          detail::map_value_bytes(codec, value),
                                          std::to_string(ttl_ms), std::to_string(idle_ms)};
        });
  }
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 CompletionToken&& token) {
    return async_put(key, value, ttl, std::chrono::milliseconds(0),
                     std::forward<CompletionToken>(token));
  }

  /// Records a put that expires `ttl` after commit() stores it; returns the value it replaces.
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl) {
    return async_put(key, value, ttl, this->blocking("put"));
  }
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl,
                       std::chrono::milliseconds max_idle) {
    return async_put(key, value, ttl, max_idle, this->blocking("put"));
  }
};

}  // namespace redisson
