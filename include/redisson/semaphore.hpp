// redisson::Semaphore: a counting semaphore shared through Redis, Java Redisson's RSemaphore.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/detail/synchronizer_base.hpp"
#include "redisson/error.hpp"

namespace redisson {

class Client;

/// A counting semaphore shared by every process that uses the same name on the same Redis,
/// Java Redisson's RSemaphore included (same key, channel and messages).
///
/// Layout: the string key `name` holds the available permit count (absent means 0: set it
/// with try_set_permits or add_permits first); releases publish the new count on
/// `redisson_sc:{name}` (when positive: a count <= 0 wakes nobody).
///
/// Guarantees: permits are taken and returned atomically on the server, so at most the
/// available count is ever handed out; acquire(n) takes n permits at once or none. Waiters
/// sleep on pub/sub. A waiter (not a single try) is written into an order of this library's
/// waiters, `redisson_semaphore_waiters:{name}` and `redisson_semaphore_waiters_seen:{name}`
/// (Java ignores them; they vanish when nobody waits), and each failed attempt tells it how many
/// wait before it and how many permits were free: a release whose count of free permits cannot
/// reach it is let go by without an attempt (a waiter one permit short of its turn checks 2 ms
/// later unless another release comes first). A waiting acquire that is not in the order yet
/// takes only the permits beyond one per waiter in it, so it does not overtake them; among the
/// waiters in the order, and for single tries and Java Redisson's waiters, the permits go to
/// whoever asks first. A lost message, or a writer that does
/// not publish, delays a waiter by at most one re-check interval (1 s by default, see
/// set_recheck_interval). Permits are not owned: anyone may release, and a holder that dies
/// never releases (use PermitExpirableSemaphore when that matters). A release whose reply was
/// lost (a broken connection, a restarting server) is sent again with the same request id, up
/// to Config::retry_attempts times: a latch key `redisson_release_latch:{name}:<id>` (ours, not
/// Redisson's; it expires by itself) makes a release that did run answer the retry without
/// adding its permits twice. An acquire attempt is retried the same way, with its own latch
/// `redisson_acquire_latch:{name}:<id>` written only when it takes permits, so a lost reply
/// neither loses the permits nor takes them twice. A server that is still
/// loading its data (LOADING) has run nothing, so every script is sent again until the command
/// timeout.
///
/// Cost: an uncontended acquire or release is one script round trip (a release, and an acquire
/// that takes permits, writes its latch too: one more SET inside the script); a waiter adds one
/// SUBSCRIBE (shared per channel per client) and one attempt per release message that can reach
/// it, or re-check.
///
/// The blocking API has the shape of std::counting_semaphore (acquire, try_acquire,
/// try_acquire_for, try_acquire_until, release); every call has an async twin. Negative
/// permit counts and negative waits are errc::invalid_argument (nothing is sent); a key of
/// another type is errc::wrong_type (nothing changes). Acquiring or releasing 0 permits
/// succeeds at once without a round trip. A Semaphore is a cheap handle; copy it freely.
///
/// It is an Object (delete_object, exists, expire, rename, ...: the count key). delete_object()
/// refuses a key of another type; waiters keep waiting (0 permits). A renamed handle works under
/// its new name.
namespace detail {
struct SemaphoreAccess;
}  // namespace detail

class Semaphore : public detail::PermitCount {
 public:
  /// A handle on the semaphore `name`; sends nothing. Throws invalid_argument for an empty name.
  Semaphore(const Client& client, std::string name);

  /// Waits until `permits` permits are available and takes them.
  void acquire(std::int64_t permits = 1);
  /// Takes `permits` permits if available now; one round trip, no waiting.
  bool try_acquire(std::int64_t permits = 1);
  /// Waits up to `wait` for `permits` permits (zero: one attempt).
  template <class Rep, class Period>
  bool try_acquire_for(const std::chrono::duration<Rep, Period>& wait, std::int64_t permits = 1) {
    return try_acquire_ms(detail::saturating_ms(wait), permits);
  }
  /// Waits until `deadline` for `permits` permits (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_acquire_until(const std::chrono::time_point<Clock, Duration>& deadline,
                         std::int64_t permits = 1) {
    const auto left = detail::saturating_ms(deadline - Clock::now());
    return try_acquire_ms(std::max(left, std::chrono::milliseconds{0}), permits);
  }
  /// Returns `permits` permits and publishes the new count (waking waiters).
  void release(std::int64_t permits = 1);

  /// Takes every available permit; returns how many (a negative count is reset to 0 and
  /// returned as it was, like java.util.concurrent.Semaphore#drainPermits).
  std::int64_t drain_permits();
  /// The available permit count (0 when the semaphore does not exist).
  std::int64_t available_permits() const;

  // ---- asynchronous twins ---------------------------------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt.
  /// Honours Asio per-operation cancellation: a cancelled acquire stops waiting, holds no
  /// permits (a grant that raced the cancel is released) and completes with
  /// asio::error::operation_aborted.
  template <class CompletionToken>
  auto async_acquire(std::int64_t permits, std::optional<std::chrono::milliseconds> wait,
                     CompletionToken&& token) const;
  /// Waits forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_acquire(std::int64_t permits, CompletionToken&& token) const;
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_release(std::int64_t permits, CompletionToken&& token) const;
  /// Completes with (error_code, permits drained).
  template <class CompletionToken>
  auto async_drain_permits(CompletionToken&& token) const;
  /// Completes with (error_code, available permits).
  template <class CompletionToken>
  auto async_available_permits(CompletionToken&& token) const;

 private:
  using ObjectPtr = detail::ObjectPtr;
  friend struct detail::SemaphoreAccess;  // waits on a semaphore named by the library

  bool try_acquire_ms(std::chrono::milliseconds wait, std::int64_t permits);
  // The .cpp side of the async templates.
  static void start_acquire(const ObjectPtr& object, std::int64_t permits,
                            std::optional<std::chrono::milliseconds> wait,
                            const detail::CancellationPtr& cancel, detail::Done<bool> done);
  static void start_release(const ObjectPtr& object, std::int64_t permits, detail::Done<void> done);
  static void start_drain_permits(const ObjectPtr& object, detail::Done<std::int64_t> done);
  static void start_available_permits(const ObjectPtr& object, detail::Done<std::int64_t> done);
};

}  // namespace redisson

#include "redisson/impl/semaphore.hpp"
