// How a waiter waits: one policy per kind of synchronizer. AcquireMachine (acquire_machine.hpp)
// runs the steps every waiter shares (try, subscribe, sleep until a release or the retry hint,
// give up at the deadline or on cancel); the policy decides what differs between kinds: whether
// to wait on pub/sub or poll, what a release message means, and how long a woken waiter holds
// back before its attempt. acquire_machine.cpp says why each does what it does.
#pragma once

#include <chrono>
#include <cstdint>
#include <variant>

namespace redisson::detail {

/// Every release message wakes the waiter at once (CountDownLatch, PermitExpirableSemaphore, a
/// Semaphore waiter outside the server's order, a lock's single try).
struct LatchPolicy {};

/// Lock: waiters take turns on the server (lock_acquire_in_turn.lua gives a free lock to the
/// longest waiter and tells each failed attempt how many wait ahead); a woken waiter with anyone
/// ahead holds back 500 us so that the head's attempt gets there first.
struct LockTurnsPolicy {
  /// Hold the first attempt back while this client's release on the channel yields to the
  /// waiters it woke (release_yield.hpp). Off for a single try and a holder re-entering.
  bool yield_after_release = false;
};

/// FencedLock, a ReadWriteLock's read side: the first attempt to reach the server wins; once others
/// are known to wait, a woken waiter draws a short random delay (unless it has waited long).
struct FirstComePolicy {
  bool yield_after_release = false;  // as LockTurnsPolicy's
};

/// A ReadWriteLock's write side: first-come as FirstComePolicy, and, while it waits, an entry in
/// the lock's writer order (rwlock_write_acquire.lua) that holds new readers of this library back
/// until the writer has had its turn. The entry lapses unless renewed, so that a writer that died
/// does not keep readers out: each attempt renews it, and the waiter never sleeps longer than
/// `renew_every` between attempts (half the entry's life; see read_write_lock.cpp).
struct WriteSidePolicy {
  bool yield_after_release = false;  // as LockTurnsPolicy's
  std::chrono::milliseconds renew_every{500};
};

/// FairLock: the server hands the lock down its queue and wakes each waiter on its own channel;
/// the wait itself follows the first-come rules (a waiter that lost after a wake-up draws a
/// delay), and a waiter that stops waiting leaves the queue (AcquireLoop's give-up).
struct FairLockPolicy {
  bool yield_after_release = false;  // as LockTurnsPolicy's
};

/// Semaphore waiters in the server's order (semaphore_acquire_in_turn.lua): a release message
/// is the count of free permits; a waiter that knows its place lets a release go by whose count
/// cannot reach it.
struct SemaphorePolicy {
  std::int64_t permits = 1;  // how many this waiter needs (> 0)
};

/// The polling mode's backoff: `initial`, doubling each round up to `max`, jittered.
struct PollBackoff {
  std::chrono::milliseconds initial{1};
  std::chrono::milliseconds max{128};
  /// Sleep exactly the attempt's retry hint instead, when it gives one (a rate limiter's script
  /// says when its window frees up: sooner is waste, later is delay).
  bool follow_hint = false;
};

/// No pub/sub at all: sleep a backoff between attempts (SpinLock; RateLimiter with follow_hint).
struct PollPolicy {
  PollBackoff backoff;
  bool yield_after_release = false;  // as LockTurnsPolicy's
};

using AcquirePolicy = std::variant<LatchPolicy, LockTurnsPolicy, FirstComePolicy, WriteSidePolicy,
                                   FairLockPolicy, SemaphorePolicy, PollPolicy>;

/// Sets the policy's yield_after_release where it has one (the lock kinds).
inline void set_yield_after_release(AcquirePolicy& policy, bool yield) {
  std::visit(
      [yield](auto& kind) {
        if constexpr (requires { kind.yield_after_release; }) kind.yield_after_release = yield;
      },
      policy);
}

/// The policy's yield_after_release (false for the kinds that have none).
inline bool yields_after_release(const AcquirePolicy& policy) {
  return std::visit(
      [](const auto& kind) {
        if constexpr (requires { kind.yield_after_release; }) {
          return kind.yield_after_release;
        } else {
          return false;
        }
      },
      policy);
}

}  // namespace redisson::detail
