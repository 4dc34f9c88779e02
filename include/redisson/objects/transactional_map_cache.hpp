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
/// put, put_if_absent, fast_put and fast_put_if_absent with a time to live (and max idle time),
/// which commit() sends as MapCache's put script in the same mode (Redisson's
/// RedissonTransactionalMapCache has the same four).
/// The transaction's own view of an entry does not expire before commit().
template <JavaValue K, JavaValue V>
class TransactionalMapCache : public TransactionalMap<K, V> {
  using Base = TransactionalMap<K, V>;

 public:
  TransactionalMapCache(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : Base(transaction, std::move(name), std::move(codec), "TransactionalMapCache",
             &detail::map_cache_hooks, detail::map_cache_layout) {}

  using Base::async_fast_put;
  using Base::async_fast_put_if_absent;
  using Base::async_put;
  using Base::async_put_if_absent;
  using Base::fast_put;
  using Base::fast_put_if_absent;
  using Base::put;
  using Base::put_if_absent;

  // The writes with a time to live (0: none) and a max idle time (0: none), both not negative:
  // each records MapCache's put script in its mode for commit(), the entry expiring `ttl` after
  // commit() stores it.
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 std::chrono::milliseconds max_idle, CompletionToken&& token) {
    return write<std::optional<V>>(token, "put", this->reader(), key, value, ttl, max_idle);
  }
  template <class CompletionToken>
  auto async_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                 CompletionToken&& token) {
    return async_put(key, value, ttl, std::chrono::milliseconds(0),
                     std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                           std::chrono::milliseconds max_idle, CompletionToken&& token) {
    return write<std::optional<V>>(token, "if_absent", this->reader(), key, value, ttl, max_idle);
  }
  template <class CompletionToken>
  auto async_fast_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                      std::chrono::milliseconds max_idle, CompletionToken&& token) {
    return write<bool>(token, "fast", &detail::reply_flag, key, value, ttl, max_idle);
  }
  template <class CompletionToken>
  auto async_fast_put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                                std::chrono::milliseconds max_idle, CompletionToken&& token) {
    return write<bool>(token, "fast_if_absent", &detail::reply_flag, key, value, ttl, max_idle);
  }

  /// Records a put that expires `ttl` after commit() stores it; returns the value it replaces.
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl) {
    return async_put(key, value, ttl, this->blocking("put"));
  }
  std::optional<V> put(const K& key, const V& value, std::chrono::milliseconds ttl,
                       std::chrono::milliseconds max_idle) {
    return async_put(key, value, ttl, max_idle, this->blocking("put"));
  }
  /// Records a put-if-absent with a time to live; returns nullopt if `key` is absent (as the
  /// transaction sees it), else the present value (then nothing changes at commit).
  std::optional<V> put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                                 std::chrono::milliseconds max_idle = {}) {
    return async_put_if_absent(key, value, ttl, max_idle, this->blocking("put_if_absent"));
  }
  /// Records a put with a time to live; true if `key` is new (as the transaction sees it).
  bool fast_put(const K& key, const V& value, std::chrono::milliseconds ttl,
                std::chrono::milliseconds max_idle = {}) {
    return async_fast_put(key, value, ttl, max_idle, this->blocking("fast_put"));
  }
  /// Records a put-if-absent with a time to live; true if `key` is absent (as the transaction
  /// sees it).
  bool fast_put_if_absent(const K& key, const V& value, std::chrono::milliseconds ttl,
                          std::chrono::milliseconds max_idle = {}) {
    return async_fast_put_if_absent(key, value, ttl, max_idle,
                                    this->blocking("fast_put_if_absent"));
  }

 private:
  template <class R, class Token, class Convert>
  auto write(Token&& token, const char* mode, Convert convert, const K& key, const V& value,
             std::chrono::milliseconds ttl, std::chrono::milliseconds max_idle) {
    return this->template call<R>(token, detail::TxOp::map_cache_put, std::move(convert),
                                  [key, value, ttl, max_idle, mode](const Codec& codec) {
                                    const auto ttl_ms = detail::map_cache_ms(ttl, "ttl");
                                    const auto idle_ms = detail::map_cache_ms(max_idle, "max_idle");
                                    return std::vector<std::string>{
                                        detail::map_key_bytes(codec, key),
                                        detail::map_value_bytes(codec, value),
                                        std::to_string(ttl_ms), std::to_string(idle_ms), mode};
                                  });
  }
};

}  // namespace redisson
