// The operations every Lockable of the library has, written once: the standard's Lockable and
// TimedLockable calls for the calling thread (lock, try_lock, try_lock_for, try_lock_until) and
// the async twins with an explicit owner, all on one acquisition and one release.
//
// A lock type derives from LockOperations<Self>, befriends it, and supplies:
//   core()                                  the ClientCore its operations run on
//   handle()                                what its start_* functions act on (a shared state)
//   display_name()                          how a blocking call's error names it
//   static start_acquire(handle, owner, wait, lease, CancellationPtr, Done<bool>, ReadSlot*)
//   static start_release(handle, owner, Done<void>, ReadSlot*)
// (the ReadSlot*: a blocking call's slot, or null; read_slot.hpp says who may use it)
// and its own unlock() noexcept, which reports a failure to the client's error handler.
#pragma once

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>
#include <system_error>
#include <utility>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"
#include "redisson/owner_id.hpp"

namespace redisson::detail {

template <class Self>
class LockOperations {
 public:
  using milliseconds = std::chrono::milliseconds;

  /// Waits until acquired; without a lease the watchdog keeps it.
  void lock() { async_lock(OwnerId::current_thread(), blocking("lock", self().display_name())); }
  /// Waits until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(milliseconds lease) {
    async_try_lock(OwnerId::current_thread(), std::nullopt, lease,
                   blocking("lock", self().display_name()));
  }
  /// One attempt, no waiting.
  bool try_lock() { return try_lock_ms(milliseconds{0}, std::nullopt); }
  /// Waits up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(saturating_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(saturating_ms(wait), saturating_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = saturating_ms(deadline - Clock::now());
    return try_lock_ms(std::max(left, milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of the calling thread; `ec` says how it went (errc::not_owner when the
  /// thread held none: the lease ran out, someone deleted the lock, or it was never taken).
  void unlock(std::error_code& ec) noexcept {
    try {
      async_unlock(OwnerId::current_thread(), blocking(ec, "unlock", self().display_name()));
    } catch (const std::exception&) {
      ec = make_error_code(errc::shutdown);  // could not even start (no memory), as unlock()
    }
  }

  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt.
  /// `lease` absent: the watchdog's lease, renewed.
  template <class CompletionToken>
  auto async_try_lock(OwnerId owner, std::optional<milliseconds> wait,
                      std::optional<milliseconds> lease, CompletionToken&& token) const {
    return async_op<bool>(self().core(), token,
                          [handle = self().handle(), owner, wait, lease](
                              Done<bool> done, CancellationPtr cancel, ReadSlot* read) {
                            Self::start_acquire(handle, owner, wait, lease, std::move(cancel),
                                                std::move(done), read);
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
    return async_op<void>(self().core(), token,
                          [handle = self().handle(), owner](Done<void> done, ReadSlot* read) {
                            Self::start_release(handle, owner, std::move(done), read);
                          });
  }

 private:
  bool try_lock_ms(milliseconds wait, std::optional<milliseconds> lease) {
    return async_try_lock(OwnerId::current_thread(), wait, lease,
                          blocking("try_lock", self().display_name()));
  }
  Self& self() noexcept { return static_cast<Self&>(*this); }
  const Self& self() const noexcept { return static_cast<const Self&>(*this); }
};

}  // namespace redisson::detail
