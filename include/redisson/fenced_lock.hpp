// redisson::FencedLock: a re-entrant lock whose every acquisition returns a fencing token,
// Java Redisson's RFencedLock.
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
using TokenCallback = UniqueFunction<void(std::error_code, std::optional<std::int64_t>)>;
/// Completes with the new token when acquired, nullopt when the wait ran out.
void fenced_lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                         std::optional<std::chrono::milliseconds> wait,
                         std::optional<std::chrono::milliseconds> lease, TokenCallback done);
}  // namespace detail

/// A re-entrant lock (Lock's hash, channel and unlock) plus a counter P(redisson_lock_token, n)
/// incremented by every successful acquisition, re-entrant ones included. The acquisition
/// returns the counter's new value: a fencing token.
///
/// Why: a holder can lose a lock without knowing it (a GC pause or a network partition longer
/// than the lease) and keep writing. If every write to the protected resource carries the
/// writer's token and the resource rejects tokens older than the newest it has seen, a stale
/// holder's writes are refused. Tokens strictly increase across all clients and processes that
/// share the lock (Java Redisson's included), for as long as the counter key lives.
///
/// Guarantees and cost: as Lock's; the acquire script also INCRs the counter (same round trip).
/// The counter has no expiry: it survives unlocks, so tokens never repeat.
///
/// Owners: as Lock (calling thread for the blocking API, explicit ids for the async API).
/// A FencedLock is a cheap handle; copies share their lease bookkeeping.
class FencedLock {
 public:
  /// Prefer Client::get_fenced_lock.
  FencedLock(std::shared_ptr<detail::ClientCore> core, std::string name);

  const std::string& name() const noexcept { return lock_.name(); }

  /// Waits until acquired (watchdog lease); returns the new fencing token.
  std::int64_t lock_and_get_token();
  /// Waits until acquired, with a fixed lease (no renewal); returns the new fencing token.
  std::int64_t lock_and_get_token(std::chrono::milliseconds lease);
  /// Waits up to `wait` (zero: one attempt); the new token, or nullopt when it ran out.
  template <class Rep, class Period>
  std::optional<std::int64_t> try_lock_and_get_token(
      const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  std::optional<std::int64_t> try_lock_and_get_token(
      const std::chrono::duration<Rep, Period>& wait,
      const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease));
  }
  /// The counter's current value: the newest token handed out (0 before the first).
  std::int64_t token() const;

  // ---- Lockable / TimedLockable (the token is still drawn; use token() to read it) ------
  void lock() { lock_and_get_token(); }
  void lock(std::chrono::milliseconds lease) { lock_and_get_token(lease); }
  bool try_lock() { return try_lock_ms(std::chrono::milliseconds{0}, std::nullopt).has_value(); }
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt).has_value();
  }
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease)).has_value();
  }
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_lock_ms(std::max(to_ms(left), std::chrono::milliseconds{0}), std::nullopt)
        .has_value();
  }
  /// Releases one hold of the calling thread; throws not_owner if it holds none.
  void unlock() { lock_.unlock(); }
  /// Deletes the lock whoever holds it and wakes waiters; true if it was held. The counter
  /// stays.
  bool force_unlock() { return lock_.force_unlock(); }

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
  /// Completes with (error_code, token): the new token, or nullopt when `wait` ran out.
  /// `wait` absent: wait forever; zero: one attempt. `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock_and_get_token(std::uint64_t owner,
                                    std::optional<std::chrono::milliseconds> wait,
                                    std::optional<std::chrono::milliseconds> lease,
                                    CompletionToken&& token) {
    return asio::async_initiate<CompletionToken,
                                void(std::error_code, std::optional<std::int64_t>)>(
        [state = lock_.state(), owner, wait, lease](auto handler) {
          detail::fenced_lock_acquire(state, owner, wait, lease,
                                      detail::bind_completion<std::optional<std::int64_t>>(
                                          std::move(handler), detail::lock_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, acquired).
  template <class CompletionToken>
  auto async_try_lock(std::uint64_t owner, std::optional<std::chrono::milliseconds> wait,
                      std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = lock_.state(), owner, wait, lease](auto handler) {
          auto done =
              detail::bind_completion<bool>(std::move(handler), detail::lock_executor(*state));
          detail::fenced_lock_acquire(
              state, owner, wait, lease,
              [done = std::move(done)](std::error_code ec,
                                       std::optional<std::int64_t> token) mutable {
                done(ec, token.has_value());
              });
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
    return lock_.async_unlock(owner, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) {
    return lock_.async_force_unlock(std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code, hold count of `owner`).
  template <class CompletionToken>
  auto async_hold_count(std::uint64_t owner, CompletionToken&& token) {
    return lock_.async_hold_count(owner, std::forward<CompletionToken>(token));
  }

  /// The owner field this lock writes for `owner`: "<client-id>:<owner>".
  std::string owner_field(std::uint64_t owner) const { return lock_.owner_field(owner); }
  /// The counter's key: P(redisson_lock_token, n).
  const std::string& token_key() const noexcept { return token_key_; }

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  std::optional<std::int64_t> try_lock_ms(std::chrono::milliseconds wait,
                                          std::optional<std::chrono::milliseconds> lease);

  Lock lock_;  // the same hash, channel and unlock as Lock's
  std::string token_key_;
};

}  // namespace redisson
