// redisson::Lock: a re-entrant distributed lock, Java Redisson's RLock in C++.
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

namespace redisson {

namespace detail {
class ClientCore;
class LockState;
using BoolCallback = UniqueFunction<void(std::error_code, bool)>;
using IntCallback = UniqueFunction<void(std::error_code, std::int64_t)>;
using VoidCallback = UniqueFunction<void(std::error_code)>;
/// Negative or absent: wait forever / watchdog lease.
void lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                  std::optional<std::chrono::milliseconds> wait,
                  std::optional<std::chrono::milliseconds> lease, BoolCallback done);
void lock_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner, VoidCallback done);
void lock_force_release(const std::shared_ptr<LockState>& lock, BoolCallback done);
void lock_hold_count(const std::shared_ptr<LockState>& lock, std::uint64_t owner, IntCallback done);
asio::any_io_executor lock_executor(const LockState& lock);
/// The owner id of the calling thread: small, unique within the process, never reused.
std::uint64_t current_thread_owner_id() noexcept;
}  // namespace detail

/// A re-entrant lock shared by every process that uses the same name on the same Redis,
/// Java Redisson's included (same keys, scripts' semantics and channel).
///
/// Guarantees: at most one owner holds it while its lease lasts; re-entrant per owner (like
/// std::recursive_mutex); waiters sleep on pub/sub and wake on the release message (or, if
/// that message is lost, when the holder's lease ends); unlock by a non-owner fails and
/// changes nothing; unlock is safe to retry. Without an explicit lease the client's watchdog
/// renews the lease (lockWatchdogTimeout, default 30 s) every third of it while held; if a
/// renewal finds the lock gone, lost() turns true and the on_lost callback runs.
///
/// Cost: uncontended lock() and unlock() are one script round trip each; a waiter adds one
/// SUBSCRIBE (shared per channel per client) and one retry per release.
///
/// Owners: the blocking API uses the calling thread (so it meets Lockable/TimedLockable and
/// works with std::unique_lock, std::scoped_lock, std::lock_guard); the async API takes an
/// explicit owner id, because a coroutine may resume on another thread.
/// A Lock is a cheap handle; copies share their lease bookkeeping.
class Lock {
 public:
  /// Prefer Client::get_lock / get_non_reentrant_lock.
  Lock(std::shared_ptr<detail::ClientCore> core, std::string name, bool reentrant = true);

  const std::string& name() const noexcept;

  /// Waits until acquired; the watchdog keeps the lease.
  void lock();
  /// Waits until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(std::chrono::milliseconds lease);
  /// One attempt, no waiting.
  bool try_lock();
  /// Waits up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
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
  /// Releases one hold of the calling thread; throws not_owner if it holds none.
  void unlock();
  /// Deletes the lock whoever holds it and wakes waiters; true if it was held.
  bool force_unlock();

  bool is_locked() const;
  bool is_held_by_current_thread() const;
  /// The calling thread's hold count (0 when it does not hold the lock).
  int hold_count() const;
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  std::chrono::milliseconds remaining_lease() const;
  /// True once the watchdog found the calling thread's hold gone (until it locks again).
  bool lost() const;
  bool lost(std::uint64_t owner) const;
  /// Called (on the client's I/O thread) with the owner id whose hold the watchdog found gone.
  void on_lost(std::function<void(std::uint64_t owner)> callback);

  // ---- asynchronous twins, with an explicit owner id ------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt.
  /// `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock(std::uint64_t owner, std::optional<std::chrono::milliseconds> wait,
                      std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_, owner, wait, lease](auto handler) {
          detail::lock_acquire(
              state, owner, wait, lease,
              detail::bind_completion<bool>(std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Waits forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_lock(std::uint64_t owner, CompletionToken&& token) {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code); errc::not_owner when `owner` holds no hold.
  template <class CompletionToken>
  auto async_unlock(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code)>(
        [state = state_, owner](auto handler) {
          detail::lock_release(
              state, owner,
              detail::bind_completion(std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_](auto handler) {
          detail::lock_force_release(state, detail::bind_completion<bool>(
                                                std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, hold count of `owner`).
  template <class CompletionToken>
  auto async_hold_count(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, std::int64_t)>(
        [state = state_, owner](auto handler) {
          detail::lock_hold_count(state, owner,
                                  detail::bind_completion<std::int64_t>(
                                      std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }

  /// The owner field this lock writes for `owner`: "<client-id>:<owner>".
  std::string owner_field(std::uint64_t owner) const;
  const std::shared_ptr<detail::LockState>& state() const noexcept { return state_; }

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  bool try_lock_ms(std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease);

  std::shared_ptr<detail::LockState> state_;
};

}  // namespace redisson
