// redisson::FairLock: a first-come-first-served distributed lock, Java Redisson's RFairLock.
#pragma once

#include <asio/async_result.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "redisson/detail/completion.hpp"
#include "redisson/detail/duration.hpp"
#include "redisson/error.hpp"
#include "redisson/lock.hpp"

namespace redisson {

namespace detail {
class FairLockState;
/// Negative or absent: wait forever / watchdog lease.
void fair_lock_acquire(const std::shared_ptr<FairLockState>& lock, std::uint64_t owner,
                       std::optional<std::chrono::milliseconds> wait,
                       std::optional<std::chrono::milliseconds> lease, BoolCallback done);
void fair_lock_release(const std::shared_ptr<FairLockState>& lock, std::uint64_t owner,
                       VoidCallback done);
void fair_lock_force_release(const std::shared_ptr<FairLockState>& lock, BoolCallback done);
asio::any_io_executor fair_lock_executor(const FairLockState& lock);
}  // namespace detail

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
/// Owners: as Lock (calling thread for the blocking API, explicit ids for the async API).
/// A FairLock is a cheap handle; copies share their lease bookkeeping and wait slot.
class FairLock {
 public:
  /// Redisson's default wait slot (its fair-lock threadWaitTime): 5 minutes.
  static constexpr std::chrono::milliseconds kDefaultWaitSlot{300000};

  /// Prefer Client::get_fair_lock / get_non_reentrant_fair_lock. `wait_slot` must be positive.
  FairLock(std::shared_ptr<detail::ClientCore> core, std::string name, bool reentrant = true,
           std::chrono::milliseconds wait_slot = kDefaultWaitSlot);

  const std::string& name() const noexcept { return lock_.name(); }

  /// How long a queued waiter keeps its place without coming back (see the class comment).
  /// Every process sharing the lock should use the same value. Throws invalid_argument unless
  /// positive. Applies to copies of this handle too.
  void set_wait_slot(std::chrono::milliseconds slot);
  std::chrono::milliseconds wait_slot() const noexcept;

  /// Waits (in arrival order) until acquired; the watchdog keeps the lease.
  void lock();
  /// Waits until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(std::chrono::milliseconds lease);
  /// One attempt, no waiting and no queueing.
  bool try_lock();
  /// Queues and waits up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Queues and waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_lock_ms(std::max(to_ms(left), std::chrono::milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of the calling thread and, on the last, wakes the queue's head; throws
  /// not_owner if the lock exists and the calling thread holds none.
  void unlock();
  /// Deletes the lock whoever holds it and wakes the queue's head; true if it was held.
  bool force_unlock();

  bool is_locked() const { return lock_.is_locked(); }
  bool is_held_by_current_thread() const { return lock_.is_held_by_current_thread(); }
  /// The calling thread's hold count (0 when it does not hold the lock).
  int hold_count() const { return lock_.hold_count(); }
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  std::chrono::milliseconds remaining_lease() const { return lock_.remaining_lease(); }
  /// True once the watchdog found the calling thread's hold gone (until it locks again).
  bool lost() const { return lock_.lost(); }
  bool lost(std::uint64_t owner) const { return lock_.lost(owner); }
  /// Called (on the client's I/O thread) with the owner id whose hold the watchdog found gone.
  void on_lost(std::function<void(std::uint64_t owner)> callback) {
    lock_.on_lost(std::move(callback));
  }

  // ---- asynchronous twins, with an explicit owner id ------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt
  /// without queueing. `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock(std::uint64_t owner, std::optional<std::chrono::milliseconds> wait,
                      std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_, owner, wait, lease](auto handler) {
          detail::fair_lock_acquire(state, owner, wait, lease,
                                    detail::bind_completion<bool>(
                                        std::move(handler), detail::fair_lock_executor(*state)));
        },
        token);
  }
  /// Waits forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_lock(std::uint64_t owner, CompletionToken&& token) {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code); errc::not_owner when the lock exists and `owner` holds none.
  template <class CompletionToken>
  auto async_unlock(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code)>(
        [state = state_, owner](auto handler) {
          detail::fair_lock_release(
              state, owner,
              detail::bind_completion(std::move(handler), detail::fair_lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_](auto handler) {
          detail::fair_lock_force_release(
              state, detail::bind_completion<bool>(std::move(handler),
                                                   detail::fair_lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, hold count of `owner`).
  template <class CompletionToken>
  auto async_hold_count(std::uint64_t owner, CompletionToken&& token) {
    return lock_.async_hold_count(owner, std::forward<CompletionToken>(token));
  }

  /// The owner field this lock writes for `owner`: "<client-id>:<owner>".
  std::string owner_field(std::uint64_t owner) const { return lock_.owner_field(owner); }
  /// The channel `owner` waits on: P(redisson_lock__channel, n) + ":" + owner field.
  std::string waiter_channel(std::uint64_t owner) const;

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  bool try_lock_ms(std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease);

  Lock lock_;  // the same hash as Lock's: queries, leases and the lost state live there
  std::shared_ptr<detail::FairLockState> state_;
};

}  // namespace redisson
