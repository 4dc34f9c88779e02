// redisson::Lock: a re-entrant distributed lock, Java Redisson's RLock in C++.
#pragma once

#include <string>

#include "redisson/basic_lock.hpp"

namespace redisson {

class Client;

/// Tag for the non-re-entrant variants: `Lock lock(client, "name", redisson::non_reentrant);`.
struct NonReentrant {
  explicit NonReentrant() = default;
};
inline constexpr NonReentrant non_reentrant{};

/// A re-entrant lock shared by every process that uses the same name on the same Redis,
/// Java Redisson's included (same keys, scripts' semantics and channel).
///
/// Guarantees: at most one owner holds it while its lease lasts; re-entrant per owner (like
/// std::recursive_mutex); waiters sleep on pub/sub and wake on the release message (or, if
/// that message is lost, when the holder's lease ends); unlock by a non-owner fails and
/// changes nothing; unlock is safe to retry. Without an explicit lease the client's watchdog
/// renews the lease (lockWatchdogTimeout, default 30 s) every third of it while held; if a
/// renewal finds the lock gone, lost() turns true and the on_lost callback runs.
/// The non-re-entrant variant fails a second acquisition by its holder with errc::already_held
/// instead of counting it.
///
/// Cost: uncontended lock() and unlock() are one script round trip each; a waiter adds one
/// SUBSCRIBE (shared per channel per client) and one retry per release.
///
/// Every operation, its owners and its error handling: BasicLock.
class Lock : public BasicLock {
 public:
  /// A handle on the lock `name`; sends nothing. Throws invalid_argument for an empty name.
  Lock(const Client& client, std::string name);
  Lock(const Client& client, std::string name, NonReentrant);
};

}  // namespace redisson
