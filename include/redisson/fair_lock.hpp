// redisson::FairLock: a first-come-first-served distributed lock, Java Redisson's RFairLock.
#pragma once

#include <chrono>
#include <string>

#include "redisson/basic_lock.hpp"
#include "redisson/lock.hpp"

namespace redisson {

class Client;

/// A re-entrant lock that serves waiters in the order they arrived, shared with Java Redisson's
/// RFairLock of the same name (same hash, queue list, deadline sorted set and channels).
///
/// Guarantees: everything Lock guarantees, plus order: a waiter that queued first gets the lock
/// first. Each waiter sleeps on its own channel and an unlock wakes only the queue's head (no
/// thundering herd). A waiter that stops coming back (crashed, killed) keeps its place for one
/// wait slot (default 5 minutes, set_wait_slot) past the waiter ahead of it, then is dropped; a
/// waiter that gives up (try_lock_for timed out) leaves at once and the waiters behind it move
/// up one slot, so deadlines never drift. Deadlines are the clients' wall-clock times: keep the
/// clients' clocks in sync (NTP) to within a small part of the slot.
///
/// Differences from Lock: try_lock() (no wait) never queues: it succeeds only when the lock is
/// free and nobody is queued. unlock() of a fair lock that no longer exists (its lease ran out,
/// it was force-unlocked) succeeds, as in Java Redisson; the watchdog's lost() says whether a
/// hold vanished. An acquisition that fails with an error (connection lost) tries to leave the
/// queue too; if that fails as well, its entry expires after its slot.
///
/// Cost: uncontended lock() and unlock() are one script round trip each (the scripts touch the
/// hash, the queue and the sorted set); a waiter adds one SUBSCRIBE of its own channel, one
/// retry per wake-up, and one script call to leave the queue when it gives up. Scripts that
/// move everyone up one slot are O(queue length).
///
/// Every operation, its owners and its error handling: BasicLock. A FairLock is a cheap handle;
/// copies share their wait slot.
class FairLock : public BasicLock {
 public:
  /// Redisson's default wait slot (its fair-lock threadWaitTime): 5 minutes.
  static constexpr milliseconds kDefaultWaitSlot{300000};

  /// A handle on the lock `name` with the client's Config::fair_lock_wait_timeout as its wait
  /// slot; sends nothing. Throws invalid_argument for an empty name.
  FairLock(const Client& client, std::string name);
  FairLock(const Client& client, std::string name, NonReentrant);
  /// With a wait slot of its own (it must be positive).
  FairLock(const Client& client, std::string name, milliseconds wait_slot);

  /// How long a queued waiter keeps its place without coming back (see the class comment).
  /// Every process sharing the lock should use the same value. Throws invalid_argument unless
  /// positive. Applies to copies of this handle too.
  void set_wait_slot(milliseconds slot);
  milliseconds wait_slot() const noexcept;

  /// The channel `owner` waits on: P(redisson_lock__channel, n) + ":" + owner field.
  std::string waiter_channel(OwnerId owner) const;
};

}  // namespace redisson
