// redisson::CountDownLatch: a count-down latch shared through Redis, Java Redisson's
// RCountDownLatch.
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

/// A count-down latch shared by every process that uses the same name on the same Redis,
/// Java Redisson's RCountDownLatch included (same key, channel and messages).
///
/// Layout: the string key `name` holds the count; absent means 0 (open). Channel
/// `redisson_countdownlatch__channel__{name}` (always with braces): "1" when a new count is
/// set or the latch is deleted, "0" when the count reaches zero (the key is then deleted).
///
/// Guarantees: the count changes atomically on the server; await() returns once the count
/// is 0 (or the latch was deleted) and never earlier. Unlike std::latch a latch can be
/// reused: try_set_count succeeds again once it is open. Awaiters subscribe first, then
/// check the count, then sleep until a message, re-checking every set_recheck_interval (1 s by
/// default: a lost message, or a writer that does not publish, costs at most that long). count_down
/// is not retried after a lost reply (the server may or may not have run it); such a failure is
/// reported.
///
/// Cost: count_down, try_set_count and count are one round trip each; an awaiter of a closed
/// latch adds one SUBSCRIBE (shared per channel per client) and one GET per message or
/// re-check.
///
/// Non-positive counts and negative waits are errc::invalid_argument (nothing is sent); a
/// key of another type is errc::wrong_type (nothing changes). A CountDownLatch is a cheap
/// handle; copy it freely.
///
/// It is an Object (delete_object, exists, expire, rename, ...: the count key). delete_object(),
/// also through an Object&, opens the latch as Redisson's does: it deletes the key, publishes "1"
/// so awaiters wake, and refuses a key of another type. A renamed handle works under its new
/// name (and channel).
class CountDownLatch : public detail::Synchronizer {
 public:
  /// A handle on the latch `name`; sends nothing. Throws invalid_argument for an empty name.
  CountDownLatch(const Client& client, std::string name);

  /// Sets the count (positive) if the latch is open (count 0 or absent); true if set.
  bool try_set_count(std::int64_t count);
  /// Decrements the count; reaching 0 opens the latch and wakes every awaiter. Counting
  /// down an open latch does nothing.
  void count_down();
  /// The current count (0 when open).
  std::int64_t count() const;
  /// Waits until the count is 0.
  void await();
  /// Waits up to `timeout` (zero: one check) for the count to reach 0; false on timeout.
  template <class Rep, class Period>
  bool await_for(const std::chrono::duration<Rep, Period>& timeout) {
    return await_ms(detail::saturating_ms(timeout));
  }
  /// Waits until `deadline` (a deadline already passed: one check); false on timeout.
  template <class Clock, class Duration>
  bool await_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = detail::saturating_ms(deadline - Clock::now());
    return await_ms(std::max(left, std::chrono::milliseconds{0}));
  }
  /// True if the count is 0 now (std::latch's spelling); one round trip.
  bool try_wait() const { return count() == 0; }

  // ---- asynchronous twins ---------------------------------------------------------------
  /// Completes with (error_code, opened). `wait` absent: wait forever; zero: one check.
  /// Honours Asio per-operation cancellation: a cancelled await stops waiting and completes
  /// with asio::error::operation_aborted.
  template <class CompletionToken>
  auto async_await(std::optional<std::chrono::milliseconds> wait, CompletionToken&& token) const;
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_count_down(CompletionToken&& token) const;
  /// Completes with (error_code, was_set).
  template <class CompletionToken>
  auto async_try_set_count(std::int64_t count, CompletionToken&& token) const;
  /// Completes with (error_code, count).
  template <class CompletionToken>
  auto async_count(CompletionToken&& token) const;

 private:
  using ObjectPtr = detail::ObjectPtr;

  bool await_ms(std::chrono::milliseconds timeout);
  // The .cpp side of the async templates.
  static void start_await(const ObjectPtr& object, std::optional<std::chrono::milliseconds> wait,
                          const detail::CancellationPtr& cancel, detail::Done<bool> done);
  static void start_count_down(const ObjectPtr& object, detail::Done<void> done);
  static void start_try_set_count(const ObjectPtr& object, std::int64_t count,
                                  detail::Done<bool> done);
  static void start_count(const ObjectPtr& object, detail::Done<std::int64_t> done);
};

}  // namespace redisson

#include "redisson/impl/count_down_latch.hpp"
