// redisson::PermitExpirableSemaphore: a semaphore whose permits have ids and leases, Java
// Redisson's RPermitExpirableSemaphore.
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

/// A semaphore whose permits are individual: each acquisition returns a permit id, which is
/// what release() takes back, and may carry a lease after which the permit returns to the
/// pool by itself (so a holder that dies does not keep it forever). Shared with Java
/// Redisson's RPermitExpirableSemaphore (same keys, id format, scores and channel).
///
/// Layout: string key `name` = the available permit count (absent means 0: set it with
/// try_set_permits or add_permits first); sorted set `{name}:timeout` = held permit id
/// (16 raw bytes) -> expiry in epoch ms (922337203685477 for a permit without lease);
/// channel `redisson_sc:{name}` carries the new count (when positive) on every release and
/// reclaim. Permit ids in this API are those 16 bytes as 32 lowercase hex characters, as
/// Redisson shows them.
///
/// Guarantees: at most the configured number of permits are held at once; a permit whose
/// lease ran out is reclaimed by the next acquire, release or available_permits call, by
/// anyone; release() of a permit that is not held (never acquired, already released, or
/// expired) fails with errc::not_owner and changes nothing it should not (an expired permit
/// is reclaimed, which would have happened anyway). Waiters sleep on pub/sub, and until the
/// nearest lease ends or the re-check interval (1 s by default) passes, whichever is first,
/// when no message comes. acquire is safe to retry after a lost reply (the permit id makes it
/// idempotent), and so are release and update_lease.
/// Leases are measured in wall-clock epoch ms of the acquiring client (as Redisson's):
/// keep the clocks of all users synchronized (NTP).
///
/// Cost: acquire and release are one script round trip each; a waiter adds one SUBSCRIBE
/// (shared per channel per client) and one attempt per message, lease end or re-check.
///
/// Negative permits, negative waits and non-positive leases are errc::invalid_argument, as
/// is a permit id that is not 32 hex characters (nothing is sent); a key of another type is
/// errc::wrong_type (nothing changes). A PermitExpirableSemaphore is a cheap handle.
///
/// It is an Object whose operations (delete_object, expire, rename, ...) act on both keys, the
/// count and `{name}:timeout`; delete_object() refuses keys of another type. A renamed handle
/// works under its new name, and the permits it held stay valid.
class PermitExpirableSemaphore : public detail::PermitCount {
 public:
  /// The expiry score of a permit without lease (Redisson's Long.MAX_VALUE / 10000).
  static constexpr std::int64_t kNoExpiry = 922337203685477;

  /// A handle on the semaphore `name`; sends nothing. Throws invalid_argument for an empty name.
  PermitExpirableSemaphore(const Client& client, std::string name);

  /// Waits for a permit that never expires; returns its id.
  std::string acquire();
  /// Waits for a permit that returns to the pool after `lease` (positive); returns its id.
  std::string acquire(std::chrono::milliseconds lease);
  /// One attempt for a permit without lease; its id, or nullopt when none is free.
  std::optional<std::string> try_acquire();
  /// Waits up to `wait` (zero: one attempt) for a permit with the given lease.
  std::optional<std::string> try_acquire(std::chrono::milliseconds wait,
                                         std::chrono::milliseconds lease);
  /// Waits up to `wait` (zero: one attempt) for a permit without lease.
  template <class Rep, class Period>
  std::optional<std::string> try_acquire_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_acquire_ms(detail::saturating_ms(wait), std::nullopt);
  }
  /// Waits up to `wait` for a permit that returns to the pool after `lease`.
  template <class Rep, class Period, class Rep2, class Period2>
  std::optional<std::string> try_acquire_for(const std::chrono::duration<Rep, Period>& wait,
                                             const std::chrono::duration<Rep2, Period2>& lease) {
    return try_acquire_ms(detail::saturating_ms(wait), detail::saturating_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt) for a permit without
  /// lease.
  template <class Clock, class Duration>
  std::optional<std::string> try_acquire_until(
      const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_acquire_ms(std::max(detail::saturating_ms(left), std::chrono::milliseconds{0}),
                          std::nullopt);
  }

  /// Returns the permit `permit_id` to the pool (waking waiters). Throws errc::not_owner
  /// when it is not held: never acquired, already released, or its lease ran out.
  void release(const std::string& permit_id);
  /// As release(), but reports a permit that is not held as false instead of throwing.
  bool try_release(const std::string& permit_id);
  /// Gives the held permit `permit_id` a new lease counted from now; false when it is not
  /// held (unknown, released, or already expired: an expired permit is not revived).
  bool update_lease(const std::string& permit_id, std::chrono::milliseconds lease);

  /// The available permit count, after reclaiming expired permits (0 when absent).
  std::int64_t available_permits();
  /// How many permits are held, after reclaiming expired ones (Redisson's acquiredPermits).
  std::int64_t acquired_permits();
  /// The total permit count: available + held, after reclaiming expired ones (Redisson's
  /// getPermits; 0 when the semaphore was never set up).
  std::int64_t permits();
  /// Sets the total permit count to `total` (>= 0): the available count becomes `total` minus
  /// the permits held (it may go negative until they are released), and waiters re-check.
  void set_permits(std::int64_t total);
  /// The lease left to the held permit `permit_id`: -1 ms when it has none; nullopt when it is
  /// not held (unknown, released, or its lease ran out; Redisson's getLeaseTime throws then).
  std::optional<std::chrono::milliseconds> lease_time(const std::string& permit_id);

  // ---- asynchronous twins ---------------------------------------------------------------
  /// Completes with (error_code, permit id or nullopt when not acquired in time).
  /// `wait` absent: wait forever; zero: one attempt. `lease` absent: the permit never expires.
  /// Honours Asio per-operation cancellation: a cancelled acquire stops waiting, holds no
  /// permit (a grant that raced the cancel is released) and completes with
  /// asio::error::operation_aborted.
  template <class CompletionToken>
  auto async_acquire(std::optional<std::chrono::milliseconds> wait,
                     std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) const;
  /// Completes with (error_code); errc::not_owner when the permit is not held.
  template <class CompletionToken>
  auto async_release(std::string permit_id, CompletionToken&& token) const;
  /// Completes with (error_code, released).
  template <class CompletionToken>
  auto async_try_release(std::string permit_id, CompletionToken&& token) const;
  /// Completes with (error_code, updated).
  template <class CompletionToken>
  auto async_update_lease(std::string permit_id, std::chrono::milliseconds lease,
                          CompletionToken&& token) const;
  /// Completes with (error_code, available permits).
  template <class CompletionToken>
  auto async_available_permits(CompletionToken&& token) const;
  /// Completes with (error_code, held permits).
  template <class CompletionToken>
  auto async_acquired_permits(CompletionToken&& token) const;
  /// Completes with (error_code, total permits).
  template <class CompletionToken>
  auto async_permits(CompletionToken&& token) const;
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_set_permits(std::int64_t total, CompletionToken&& token) const;
  /// Completes with (error_code, lease left or nullopt when not held).
  template <class CompletionToken>
  auto async_lease_time(std::string permit_id, CompletionToken&& token) const;

 private:
  using ObjectPtr = detail::ObjectPtr;
  using OptionalMs = std::optional<std::chrono::milliseconds>;

  std::optional<std::string> try_acquire_ms(std::chrono::milliseconds wait, OptionalMs lease);
  // The .cpp side of the async templates.
  static void start_acquire(const ObjectPtr& object, OptionalMs wait, OptionalMs lease,
                            const detail::CancellationPtr& cancel,
                            detail::Done<std::optional<std::string>> done);
  static void start_release(const ObjectPtr& object, const std::string& permit_id,
                            detail::Done<void> done);
  static void start_try_release(const ObjectPtr& object, const std::string& permit_id,
                                detail::Done<bool> done);
  static void start_update_lease(const ObjectPtr& object, const std::string& permit_id,
                                 std::chrono::milliseconds lease, detail::Done<bool> done);
  static void start_available_permits(const ObjectPtr& object, detail::Done<std::int64_t> done);
  static void start_count_permits(const ObjectPtr& object, const char* which,
                                  detail::Done<std::int64_t> done);
  static void start_set_permits(const ObjectPtr& object, std::int64_t total,
                                detail::Done<void> done);
  static void start_lease_time(const ObjectPtr& object, const std::string& permit_id,
                               detail::Done<std::optional<std::chrono::milliseconds>> done);
};

}  // namespace redisson

#include "redisson/impl/permit_expirable_semaphore.hpp"
