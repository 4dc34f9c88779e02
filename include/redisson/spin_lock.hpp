// redisson::SpinLock: a re-entrant lock whose waiters poll instead of subscribing, Java
// Redisson's RSpinLock.
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
/// Negative or absent: wait forever / watchdog lease.
void spin_lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                       std::optional<std::chrono::milliseconds> wait,
                       std::optional<std::chrono::milliseconds> lease, BoolCallback done);
void spin_lock_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                       VoidCallback done);
void spin_lock_force_release(const std::shared_ptr<LockState>& lock, BoolCallback done);
}  // namespace detail

/// A re-entrant lock with Lock's hash layout and acquire script, but no pub/sub at all: unlock
/// publishes nothing and waiters poll with a jittered exponential backoff (1 ms doubling to
/// 128 ms, never past the holder's remaining lease or the caller's deadline), on the client's
/// I/O thread (timers, no sleeping thread). Shared with Java Redisson's RSpinLock of the same
/// name.
///
/// When to use: where pub/sub is unavailable or costly (a proxy without SUBSCRIBE, very many
/// short-lived lock names, a cluster whose pub/sub fan-out hurts). Otherwise prefer Lock: its
/// waiters wake on the release itself, while a spin waiter notices a release up to one backoff
/// step late and sends one script call per step (about 10 per second per waiter once backed off).
///
/// Guarantees: as Lock's, except waking: a waiter never misses a release for longer than one
/// backoff step, and there is no message to lose.
/// Cost: uncontended lock() and unlock() are one script round trip each; no SUBSCRIBE ever.
///
/// Owners: as Lock (calling thread for the blocking API, explicit ids for the async API).
/// A SpinLock is a cheap handle; copies share their lease bookkeeping.
class SpinLock {
 public:
  /// Prefer Client::get_spin_lock.
  SpinLock(std::shared_ptr<detail::ClientCore> core, std::string name);

  const std::string& name() const noexcept { return lock_.name(); }

  /// Polls until acquired; the watchdog keeps the lease.
  void lock();
  /// Polls until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(std::chrono::milliseconds lease);
  /// One attempt, no waiting.
  bool try_lock();
  /// Polls up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Polls up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease));
  }
  /// Polls until `deadline` (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_lock_ms(std::max(to_ms(left), std::chrono::milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of the calling thread (publishing nothing); throws not_owner if it
  /// holds none.
  void unlock();
  /// Deletes the lock whoever holds it; true if it was held.
  bool force_unlock();

  bool is_locked() const { return lock_.is_locked(); }
  bool is_held_by_current_thread() const { return lock_.is_held_by_current_thread(); }
  int hold_count() const { return lock_.hold_count(); }
  std::chrono::milliseconds remaining_lease() const { return lock_.remaining_lease(); }
  bool lost() const { return lock_.lost(); }
  bool lost(std::uint64_t owner) const { return lock_.lost(owner); }
  void on_lost(std::function<void(std::uint64_t owner)> callback) {
    lock_.on_lost(std::move(callback));
  }

  // ---- asynchronous twins, with an explicit owner id ------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: poll forever; zero: one attempt.
  /// `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock(std::uint64_t owner, std::optional<std::chrono::milliseconds> wait,
                      std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = lock_.state(), owner, wait, lease](auto handler) {
          detail::spin_lock_acquire(
              state, owner, wait, lease,
              detail::bind_completion<bool>(std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Polls forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_lock(std::uint64_t owner, CompletionToken&& token) {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code); errc::not_owner when `owner` holds no hold.
  template <class CompletionToken>
  auto async_unlock(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code)>(
        [state = lock_.state(), owner](auto handler) {
          detail::spin_lock_release(
              state, owner,
              detail::bind_completion(std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = lock_.state()](auto handler) {
          detail::spin_lock_force_release(
              state,
              detail::bind_completion<bool>(std::move(handler), detail::lock_executor(*state)));
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

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  bool try_lock_ms(std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease);

  Lock lock_;  // the same hash as Lock's: queries, leases and the lost state live there
};

}  // namespace redisson
