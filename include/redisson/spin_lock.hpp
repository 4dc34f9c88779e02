// redisson::SpinLock: a lock whose waiters poll with backoff instead of pub/sub (RSpinLock).
#pragma once

#include <string>

#include "redisson/basic_lock.hpp"

namespace redisson {

class Client;

/// A re-entrant lock with Lock's layout (Java Redisson's RLock and RSpinLock share it) whose
/// waiters poll: a jittered exponential backoff from 1 ms up to 128 ms between attempts, never
/// sleeping past the holder's lease or the caller's deadline. Nothing is published on unlock and
/// nobody subscribes, so it suits deployments where pub/sub is unavailable or costly (many
/// short-lived locks on a cluster); waiters react up to one backoff step late.
///
/// Cost: uncontended lock() and unlock() are one script round trip each; each waiter adds one
/// attempt per backoff step. Every operation, its owners and its error handling: BasicLock.
class SpinLock : public BasicLock {
 public:
  /// A handle on the lock `name`; sends nothing. Throws invalid_argument for an empty name.
  SpinLock(const Client& client, std::string name);
};

}  // namespace redisson
