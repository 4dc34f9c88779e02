// redisson::KeyedSynchronizers: Redisson's names for the synchronizers of one key of a map or
// one member of a set (Java's map.getLock(key), set.getSemaphore(value), ...), shared by Map,
// MapCache, Set and the multimaps.
#pragma once

#include <string>
#include <string_view>

namespace redisson {
namespace detail {
/// Redisson's getLockByMapKey / getLockByValue: `{n}:<hash128toBase64(bytes)>:kind` (suffixName
/// rules), kind "lock", "fairlock", "rw_lock", "semaphore", "countdownlatch",
/// "permitexpirablesemaphore".
std::string map_lock_name(const std::string& name, std::string_view key_bytes,
                          std::string_view kind = "lock");
}  // namespace detail

/// The names, from the collection's name and the codec's bytes of `key` (Derived's
/// synchronizer_bytes: the map-key codec's for a map key, the codec's for a set member): a
/// `redisson::Lock(client, map.lock_name(key))` is the lock Java's map.getLock(key) returns, and
/// so on. Nothing is sent.
template <class Derived, class Key>
class KeyedSynchronizers {
 public:
  /// The name of Java's getLock(key): a redisson::Lock.
  std::string lock_name(const Key& key) const { return name_for(key, "lock"); }
  /// The name of Java's getFairLock(key): a redisson::FairLock.
  std::string fair_lock_name(const Key& key) const { return name_for(key, "fairlock"); }
  /// The name of Java's getReadWriteLock(key): a redisson::ReadWriteLock.
  std::string read_write_lock_name(const Key& key) const { return name_for(key, "rw_lock"); }
  /// The name of Java's getSemaphore(key): a redisson::Semaphore.
  std::string semaphore_name(const Key& key) const { return name_for(key, "semaphore"); }
  /// The name of Java's getCountDownLatch(key): a redisson::CountDownLatch.
  std::string count_down_latch_name(const Key& key) const {
    return name_for(key, "countdownlatch");
  }
  /// The name of Java's getPermitExpirableSemaphore(key): a redisson::PermitExpirableSemaphore.
  std::string permit_expirable_semaphore_name(const Key& key) const {
    return name_for(key, "permitexpirablesemaphore");
  }

 private:
  std::string name_for(const Key& key, std::string_view kind) const {
    const auto& self = static_cast<const Derived&>(*this);
    return detail::map_lock_name(self.name(), self.synchronizer_bytes(key), kind);
  }
};

}  // namespace redisson
