// The waiting loop shared by every synchronizer, as a state machine with no I/O in it (the way
// Boost.Redis writes its protocol logic): events go in (an attempt's reply, a release message,
// the timer, a cancel request), each with the time it happened, and the next action comes out
// (attempt, subscribe, sleep until T, give up, finish). AcquireLoop performs the actions on the
// client's I/O thread; tests feed events with a made-up clock.
//
// The loop (Redisson's way):
//
//   try once -> acquired? done.   (uncontended: one round trip, no subscription)
//   (when the channel is still subscribed from a recent wait, listen before this first try
//   instead: the try then cannot miss a release, and no second try is needed)
//   subscribe to the release channel, wait for the confirmation, try again
//   sleep until a release message or the retry hint (the holder's lease), try again, ...
//
// A message that arrives while an attempt is in flight forces an immediate retry, so a
// release between our attempt and its reply is never slept through. After a reconnect of the
// pub/sub connection the loop re-checks at once (messages may have been lost meanwhile).
// A lost message costs at most one retry hint; a hint is never unbounded.
//
// Cancellation: the loop stops at once when it is waiting, or right after the attempt in flight;
// it then gives up as at its deadline (a fair waiter leaves the queue) and finishes cancelled.
// An attempt in flight that took the lock finishes as acquired: the caller gives that back.
//
// Yielding (the lock policies' yield_after_release): when this client fully released the lock
// moments ago and its release woke waiters in other clients, the first attempt waits until the
// yield window ends (release_yield.hpp), never past the deadline, so that a woken waiter takes
// the lock first; cancellation stops that wait as any. How a woken waiter holds back before its
// attempt is the policy's (wake_delay() in the .cpp says why).
//
// Polling (PollPolicy, spin locks and rate limiters): no subscription at all; after each failed
// attempt the loop sleeps a jittered exponential backoff (1 ms doubling up to 128 ms by default,
// never past the retry hint or the deadline); or, with PollBackoff::follow_hint, exactly the
// retry hint (never past the deadline).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "redisson/detail/status.hpp"
#include "sync/acquire_policy.hpp"
#include "sync/own_releases.hpp"
#include "sync/release_yield.hpp"

namespace redisson::detail {

struct AttemptResult {
  bool acquired = false;
  /// How long a waiter may sleep before retrying; negative: unknown (re-check after
  /// AcquireMachine::Settings::unknown_hint).
  std::chrono::milliseconds retry_after{-1};
  /// How many waiters the server has in line before this one (lock_acquire_in_turn.lua);
  /// negative: it keeps no order.
  std::int64_t ahead = -1;
  /// The free permits the attempt found (a semaphore's in-turn script); negative: unknown.
  std::int64_t available = -1;
};

/// What the machine asks its driver to do next.
struct AcquireAction {
  enum class Kind {
    none,         // nothing now: wait for the next event (an armed timer stays armed)
    attempt,      // send one attempt (stop the timer); report replied()
    subscribe,    // subscribe to the release channel; report subscribed()
    sleep_until,  // (re)arm the timer for `until`; report timer_fired()
    give_up,      // stop the timer, leave what the wait joined (a queue), then report gave_up()
    finish,       // stop the timer, stop listening, report the outcome
  };
  Kind kind = Kind::none;
  /// attempt: when the channel is subscribed and confirmed already (a recent wait's lingering
  /// subscription), listen before sending and report listening().
  bool listen = false;
  Clock::time_point until{};  // sleep_until
  Status status;              // finish: the error (empty: none)
  bool cancelled = false;     // finish: the caller's cancel request ended the wait
  bool acquired = false;      // finish
};

class AcquireMachine {
 public:
  /// A uniform draw in [low, high] (the jitter source; tests give a fixed one).
  using Draw = std::function<std::int64_t(std::int64_t low, std::int64_t high)>;

  struct Settings {
    AcquirePolicy policy;
    Clock::time_point deadline = Clock::time_point::max();  // max(): wait forever
    /// The retry hint when an attempt gives none.
    std::chrono::milliseconds unknown_hint{1000};
  };

  /// A wait that began at `started`. Without `draw`, a thread-local pseudo-random one.
  AcquireMachine(Settings settings, Clock::time_point started, Draw draw = nullptr);

  /// The wait begins; `yield` is this client's open release-yield window on the channel (asked
  /// only when yields_after_release()).
  AcquireAction start(Clock::time_point now, std::optional<ReleaseYield::Window> yield);
  /// The driver joined the channel's confirmed subscription for an attempt{listen}; `own` is
  /// this client's release whose message is still on its way (asked only when counts_permits()).
  void listening(std::optional<OwnReleases::Pending> own);
  AcquireAction replied(Clock::time_point now, Status status, const AttemptResult& result);
  /// The subscription asked for by a subscribe action is confirmed (or failed: `ec`).
  AcquireAction subscribed(Clock::time_point now, std::error_code ec);
  /// A release message on the channel, with its payload.
  AcquireAction message(Clock::time_point now, std::string_view payload);
  /// The pub/sub connection was interrupted or restored: messages may have been lost.
  AcquireAction recheck(Clock::time_point now);
  AcquireAction timer_fired(Clock::time_point now);
  AcquireAction cancel();
  /// The give-up asked for has finished.
  AcquireAction gave_up();

  bool polls() const noexcept { return std::holds_alternative<PollPolicy>(settings_.policy); }
  bool yields_after_release() const;
  /// A semaphore waiter: release messages are counts of free permits it judges.
  bool counts_permits() const noexcept { return permits_wanted() > 0; }
  bool finished() const noexcept { return finished_; }
  Clock::time_point started() const noexcept { return started_; }

 private:
  std::int64_t permits_wanted() const noexcept;
  bool server_orders_waiters() const noexcept;
  AcquireAction try_once();
  AcquireAction subscribe(std::chrono::microseconds delay);
  AcquireAction sleep(Clock::time_point now, std::chrono::milliseconds hint);
  AcquireAction sleep_until(Clock::time_point when);
  std::chrono::milliseconds next_backoff(std::chrono::milliseconds hint);
  bool place_known(Clock::time_point now) const;
  bool release_reaches(std::int64_t count);
  bool one_permit_short(std::int64_t count) const;
  AcquireAction wake(Clock::time_point now);
  std::chrono::microseconds wake_delay(Clock::time_point now);
  AcquireAction give_up_then_finish(Status status, bool cancelled);
  AcquireAction finish(Status status, bool acquired, bool cancelled = false);

  Settings settings_;
  Clock::time_point started_;
  Draw draw_;
  Clock::time_point wake_at_;                    // the armed timer's time, while sleeping
  std::chrono::microseconds subscribe_delay_{};  // after the confirmation: sleep, then attempt
  int backoff_round_ = 0;
  std::int64_t ahead_ = -1;  // the last failed attempt's AttemptResult::ahead (less those served)
  Clock::time_point ahead_learnt_;
  std::int64_t permits_seen_ = -1;  // free permits: the last attempt's, then each release's count
  std::vector<std::int64_t> heard_in_flight_;  // release counts heard while an attempt ran
  // This client's release from just before the wait, whose message is still on its way.
  std::optional<OwnReleases::Pending> own_release_;
  Status stop_status_;  // give_up: what finish then reports
  bool stop_cancelled_ = false;
  bool subscribed_ = false;
  bool attempt_in_flight_ = false;
  bool sleeping_ = false;
  bool woken_ = false;
  bool jittering_ = false;           // woken, waiting its wake_delay() before the attempt
  bool wake_pending_ = false;        // the next attempt answers a wake-up
  bool attempt_after_wake_ = false;  // the attempt in flight answers a wake-up
  bool contended_ = false;           // others are known to wait for this lock too
  bool cancelled_ = false;
  bool giving_up_ = false;  // give-up runs: nothing else starts meanwhile
  bool finished_ = false;
};

}  // namespace redisson::detail
