// redisson::BasicLock: what every distributed lock of the library offers (Lock, FairLock,
// FencedLock, SpinLock, and each side of a ReadWriteLock).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"
#include "redisson/owner_id.hpp"

namespace redisson {

namespace detail {
class LockKind;
struct LockAccess;
}  // namespace detail

/// The operations every lock of the library has, in three forms: blocking (the calling thread is
/// the owner, so the locks meet the standard's Lockable and TimedLockable requirements and work
/// with std::lock_guard, std::unique_lock and std::scoped_lock), blocking with an error_code, and
/// asynchronous with an explicit OwnerId and any Asio completion token (a callback,
/// asio::use_future, asio::use_awaitable).
///
/// Waits and leases: a wait of zero is one attempt; a negative wait, or a lease that is not
/// positive, is errc::invalid_argument and nothing is sent. Without a lease the client's watchdog
/// renews the hold (Config::lock_watchdog_timeout) until it is released; an explicit lease is
/// never renewed and ends the hold when it runs out.
///
/// unlock() never throws (a guard's destructor calls it): a failure goes to the client's
/// Config::error_handler (by default one line on stderr), and the owner's lost() turns true. Call
/// unlock(std::error_code&) or async_unlock where the caller must know. A failed unlock stops the
/// renewals of that owner's hold, so the lease ends it.
///
/// Async acquisitions honour Asio per-operation cancellation (`co_await (lock.async_lock(owner,
/// use_awaitable) || timer.async_wait(use_awaitable))`, asio::bind_cancellation_slot): after a
/// cancel nothing is held or renewed (a grant that raced the cancel is released), and the
/// completion reports asio::error::operation_aborted.
///
/// A lock object is a cheap handle: copies share the lock's state.
class BasicLock {
 public:
  using milliseconds = std::chrono::milliseconds;

  const std::string& name() const noexcept;

  /// Waits until acquired; the watchdog keeps the lease.
  void lock();
  /// Waits until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(milliseconds lease);
  /// One attempt, no waiting.
  bool try_lock();
  /// Waits up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(detail::saturating_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(detail::saturating_ms(wait), detail::saturating_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = detail::saturating_ms(deadline - Clock::now());
    return try_lock_ms(std::max(left, milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of the calling thread. Never throws: see the class comment.
  void unlock() noexcept;
  /// Releases one hold of the calling thread; `ec` says how it went (errc::not_owner when the
  /// thread held none: the lease ran out, someone deleted the lock, or it was never taken).
  void unlock(std::error_code& ec) noexcept;
  /// Deletes the lock whoever holds it and wakes waiters; true if it was held.
  bool force_unlock();

  /// True while anyone holds it.
  bool is_locked() const;
  bool is_held_by_current_thread() const;
  /// The calling thread's hold count (0 when it does not hold the lock).
  int hold_count() const;
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  milliseconds remaining_lease() const;
  /// True once the calling thread's hold was lost, until it acquires again: the watchdog found
  /// it gone, or an unlock found it gone or failed. A hold with an explicit lease that simply ran
  /// out is not "lost" until an unlock finds it gone (nothing renews it to notice sooner).
  bool lost() const;
  bool lost(OwnerId owner) const;
  /// Called (on the client's I/O thread) with the owner whose hold the watchdog found gone.
  void on_lost(std::function<void(OwnerId owner)> callback);
  /// The hash field this lock writes for `owner`: "<client-id>:<owner>".
  std::string owner_field(OwnerId owner) const;

  // ---- asynchronous, with an explicit owner ----------------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt.
  /// `lease` absent: the watchdog's lease, renewed.
  template <class CompletionToken>
  auto async_try_lock(OwnerId owner, std::optional<milliseconds> wait,
                      std::optional<milliseconds> lease, CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token,
                                  [kind = kind_, owner, wait, lease](
                                      detail::Done<bool> done, detail::CancellationPtr cancel) {
                                    start_acquire(kind, owner, wait, lease, std::move(cancel),
                                                  std::move(done));
                                  });
  }
  /// Waits forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_lock(OwnerId owner, CompletionToken&& token) const {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code); errc::not_owner when `owner` holds nothing.
  template <class CompletionToken>
  auto async_unlock(OwnerId owner, CompletionToken&& token) const {
    return detail::async_op<void>(core(), token, [kind = kind_, owner](detail::Done<void> done) {
      start_release(kind, owner, std::move(done));
    });
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token, [kind = kind_](detail::Done<bool> done) {
      start_force_release(kind, std::move(done));
    });
  }
  /// Completes with (error_code, is_locked).
  template <class CompletionToken>
  auto async_is_locked(CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token, [kind = kind_](detail::Done<bool> done) {
      start_is_locked(kind, std::move(done));
    });
  }
  /// Completes with (error_code, hold count of `owner`).
  template <class CompletionToken>
  auto async_hold_count(OwnerId owner, CompletionToken&& token) const {
    return detail::async_op<std::int64_t>(core(), token,
                                          [kind = kind_, owner](detail::Done<std::int64_t> done) {
                                            start_hold_count(kind, owner, std::move(done));
                                          });
  }

 protected:
  explicit BasicLock(std::shared_ptr<detail::LockKind> kind) noexcept : kind_(std::move(kind)) {}
  const std::shared_ptr<detail::LockKind>& kind() const noexcept { return kind_; }
  const std::shared_ptr<detail::ClientCore>& core() const noexcept;
  /// Acquires and completes with the fencing token (0 for locks without one), or nullopt when
  /// the wait ran out.
  static void start_acquire_token(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                                  std::optional<milliseconds> wait,
                                  std::optional<milliseconds> lease, detail::CancellationPtr cancel,
                                  detail::Done<std::optional<std::int64_t>> done);

 private:
  friend class MultiLock;
  friend class RedLock;
  friend struct detail::LockAccess;

  bool try_lock_ms(milliseconds wait, std::optional<milliseconds> lease);
  // The .cpp side of the async templates.
  static void start_acquire(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                            std::optional<milliseconds> wait, std::optional<milliseconds> lease,
                            detail::CancellationPtr cancel, detail::Done<bool> done);
  static void start_release(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                            detail::Done<void> done);
  static void start_force_release(const std::shared_ptr<detail::LockKind>& kind,
                                  detail::Done<bool> done);
  static void start_is_locked(const std::shared_ptr<detail::LockKind>& kind,
                              detail::Done<bool> done);
  static void start_hold_count(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                               detail::Done<std::int64_t> done);

  std::shared_ptr<detail::LockKind> kind_;
};

}  // namespace redisson
