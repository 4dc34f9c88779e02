// redisson::TransactionalLocalCachedMap<K, V>: a LocalCachedMap's hash inside a Transaction
// (Java Redisson's Transaction.getLocalCachedMap).
#pragma once

#include <string>
#include <utility>

#include "redisson/detail/local_cache.hpp"
#include "redisson/objects/local_cached_map.hpp"
#include "redisson/objects/transactional_map.hpp"

namespace redisson {

/// A TransactionalMap (the same reads, locks and recorded writes) whose writes, at commit, are
/// LocalCachedMap's: each one in the transaction's MULTI/EXEC also publishes its message on
/// `{name}:topic`, so every near cache of the map (Java's and C++'s, the instance it was made
/// from too) drops or updates the written keys exactly when the transaction's writes become
/// visible. Reads go to Redis, as Redisson's transactional map does, and nothing is cached.
///
/// Java's commit also runs a handshake (it disables the keys in every instance before EXEC and
/// enables them after); a C++ commit does not, because its messages are published inside the
/// same EXEC as the writes, which leaves the caches the read race of any write only, and a C++
/// cache drops a read that raced a message it heard.
template <JavaValue K, JavaValue V>
class TransactionalLocalCachedMap : public TransactionalMap<K, V> {
 public:
  /// With the default strategy (invalidate, no updates log): for Transaction::get<T>(name).
  TransactionalLocalCachedMap(const Transaction& transaction, std::string name,
                              CodecPtr codec = nullptr)
      : TransactionalLocalCachedMap(transaction, std::move(name), std::move(codec),
                                    LocalCachedMapOptions{}) {}
  /// The map of `instance`, with its codec and strategies (Java's
  /// getLocalCachedMap(fromInstance)): update messages under `update`, the updates log under
  /// the `load` reconnection strategy.
  TransactionalLocalCachedMap(const Transaction& transaction, const LocalCachedMap<K, V>& instance)
      : TransactionalLocalCachedMap(transaction, instance.name(), instance.codec_ptr(),
                                    instance.options()) {}

 private:
  TransactionalLocalCachedMap(const Transaction& transaction, std::string name, CodecPtr codec,
                              const LocalCachedMapOptions& options)
      : TransactionalMap<K, V>(transaction, std::move(name), std::move(codec),
                               "TransactionalLocalCachedMap", &detail::local_cached_map_hooks,
                               detail::local_cached_map_layout) {
    auto settings = LocalCachedMap<K, V>::to_settings(options);
    settings.cache_locally = false;
    settings.clear_when_map_expires = false;
    detail::configure_local_cache(this->object_, settings);
  }
};

}  // namespace redisson
