// redisson::CountDownLatch: a count-down latch shared through Redis, Java Redisson's
// RCountDownLatch.
#pragma once

#include <algorithm>
#include <asio/async_result.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "redisson/detail/completion.hpp"
#include "redisson/detail/duration.hpp"
#include "redisson/error.hpp"

namespace redisson {

namespace detail {
class ClientCore;
struct CountDownLatchState;
using BoolCallback = UniqueFunction<void(std::error_code, bool)>;
using IntCallback = UniqueFunction<void(std::error_code, std::int64_t)>;
using VoidCallback = UniqueFunction<void(std::error_code)>;
/// `wait` absent: wait forever; zero: one check.
void latch_await(const std::shared_ptr<CountDownLatchState>& latch,
                 std::optional<std::chrono::milliseconds> wait, BoolCallback done);
void latch_count_down(const std::shared_ptr<CountDownLatchState>& latch, VoidCallback done);
void latch_try_set_count(const std::shared_ptr<CountDownLatchState>& latch, std::int64_t count,
                         BoolCallback done);
void latch_count(const std::shared_ptr<CountDownLatchState>& latch, IntCallback done);
void latch_delete(const std::shared_ptr<CountDownLatchState>& latch, BoolCallback done);
asio::any_io_executor latch_executor(const CountDownLatchState& latch);
}  // namespace detail

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
class CountDownLatch {
 public:
  /// Prefer Client::get_count_down_latch. Throws invalid_argument for an empty name.
  CountDownLatch(std::shared_ptr<detail::ClientCore> core, std::string name);

  const std::string& name() const noexcept;

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
  /// Deletes the latch (opening it: awaiters return); true if it existed.
  bool delete_object();

  /// How often an awaiter re-checks the count when no message came (default 1 s; shared by
  /// copies of this handle). Longer: less load from many awaiters, more delay after a lost
  /// message or a writer that does not publish. Must be positive.
  void set_recheck_interval(std::chrono::milliseconds interval);
  std::chrono::milliseconds recheck_interval() const noexcept;

  // ---- asynchronous twins ---------------------------------------------------------------
  /// Completes with (error_code, opened). `wait` absent: wait forever; zero: one check.
  template <class CompletionToken>
  auto async_await(std::optional<std::chrono::milliseconds> wait, CompletionToken&& token) {
    return initiate<bool>(std::forward<CompletionToken>(token),
                          [wait](const auto& state, auto done) {
                            detail::latch_await(state, wait, std::move(done));
                          });
  }
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_count_down(CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code)>(
        [state = state_](auto handler) {
          auto executor = detail::latch_executor(*state);
          detail::latch_count_down(state, detail::bind_completion(std::move(handler), executor));
        },
        token);
  }
  /// Completes with (error_code, was_set).
  template <class CompletionToken>
  auto async_try_set_count(std::int64_t count, CompletionToken&& token) {
    return initiate<bool>(std::forward<CompletionToken>(token),
                          [count](const auto& state, auto done) {
                            detail::latch_try_set_count(state, count, std::move(done));
                          });
  }
  /// Completes with (error_code, count).
  template <class CompletionToken>
  auto async_count(CompletionToken&& token) {
    return initiate<std::int64_t>(
        std::forward<CompletionToken>(token),
        [](const auto& state, auto done) { detail::latch_count(state, std::move(done)); });
  }
  /// Completes with (error_code, existed).
  template <class CompletionToken>
  auto async_delete(CompletionToken&& token) {
    return initiate<bool>(std::forward<CompletionToken>(token), [](const auto& state, auto done) {
      detail::latch_delete(state, std::move(done));
    });
  }

 private:
  bool await_ms(std::chrono::milliseconds timeout);

  template <class T, class CompletionToken, class Start>
  auto initiate(CompletionToken&& token, Start start) {
    return asio::async_initiate<CompletionToken, void(std::error_code, T)>(
        [state = state_, start = std::move(start)](auto handler) mutable {
          auto executor = detail::latch_executor(*state);
          start(state, detail::bind_completion<T>(std::move(handler), executor));
        },
        token);
  }

  std::shared_ptr<detail::CountDownLatchState> state_;
};

}  // namespace redisson
