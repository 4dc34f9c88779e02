// The waiting loop shared by every synchronizer that sleeps on pub/sub (Redisson's way):
//
//   try once -> acquired? done.   (uncontended: one round trip, no subscription; sent from the
//                                  caller's own thread when nothing is subscribed, see start())
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
// Cancellation (Asio per-operation cancellation, via cancel_on()): the loop stops at once when it
// is waiting, or right after the attempt in flight; it then gives up as at its deadline (a fair
// waiter leaves the queue) and finishes with asio::error::operation_aborted. An attempt in flight
// that took the lock finishes as acquired: the caller gives that back (it knows how).
//
// Yielding (Options::yield_after_release, non-fair locks): when this client fully released the
// lock moments ago and its release woke waiters in other clients, the first attempt waits
// until the yield window ends (release_yield.hpp), on the io_context's timer and never past the
// deadline, so that a woken waiter takes the lock first; cancellation stops that wait as any.
// Once it knows others wait too, a waiter woken by a release waits a random moment before its
// attempt, unless it has waited long (wake_delay() in the .cpp says why).
//
// Polling mode (Options::poll, for spin locks): no subscription at all; after each failed
// attempt the loop sleeps a jittered exponential backoff (1 ms doubling up to 128 ms by
// default, never past the retry hint or the deadline) on the client's io_context; or, with
// PollBackoff::follow_hint (rate limiters), exactly the retry hint (never past the deadline).
#pragma once

#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/connection.hpp"
#include "pubsub/subscriber.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "sync/own_releases.hpp"

namespace redisson::detail {

class ClientCore;

struct AttemptResult {
  bool acquired = false;
  /// How long a waiter may sleep before retrying; negative: unknown (re-check after
  /// AcquireLoop::Options::unknown_hint).
  std::chrono::milliseconds retry_after{-1};
  /// How many waiters the server has in line before this one (lock_acquire_in_turn.lua);
  /// negative: it keeps no order.
  std::int64_t ahead = -1;
  /// The free permits the attempt found (a semaphore's in-turn script); negative: unknown.
  std::int64_t available = -1;
};
using AttemptCallback = UniqueFunction<void(Status, AttemptResult)>;
/// One try; called on the I/O thread, possibly many times.
using Attempt = std::function<void(AttemptCallback)>;
/// Called once with the outcome: (error, acquired). The Status keeps what the server said.
using AcquireCallback = UniqueFunction<void(Status, bool)>;
/// Called when the loop gives up after a failed attempt (wait exhausted), before `done`:
/// lets a fair lock leave its queue. It must call its argument when finished.
using GiveUp = std::function<void(UniqueFunction<void()>)>;

/// The polling mode's backoff: `initial`, doubling each round up to `max`, jittered.
struct PollBackoff {
  std::chrono::milliseconds initial{1};
  std::chrono::milliseconds max{128};
  /// Sleep exactly the attempt's retry hint instead, when it gives one (a rate limiter's script
  /// says when its window frees up: sooner is waste, later is delay).
  bool follow_hint = false;
};

class AcquireLoop : public std::enable_shared_from_this<AcquireLoop> {
 public:
  struct Options {
    std::string channel;
    Clock::time_point deadline = Clock::time_point::max();  // max(): wait forever
    std::chrono::milliseconds unknown_hint{1000};
    /// Set: poll with this backoff instead of subscribing to `channel`.
    std::optional<PollBackoff> poll;
    /// A non-fair lock's turns: hold the first attempt back while this client's release yield
    /// on `channel` lasts, and once others are known to wait, delay each woken attempt a little
    /// (wake_delay()).
    bool yield_after_release = false;
    /// The attempt's script gives a free lock to the longest waiter (lock_acquire_in_turn.lua):
    /// no wake_delay(), which would only hold that waiter back.
    bool server_orders_waiters = false;
    /// Set (> 0, with server_orders_waiters): a release message is the count of free permits (a
    /// semaphore's), and this waiter needs this many. A waiter that knows how many wait ahead
    /// and how many permits were free (AttemptResult::ahead, ::available) lets a message go by
    /// whose count cannot reach it, counting the permits taken meanwhile as served ahead; its
    /// re-check timer still runs.
    std::int64_t permits_wanted = 0;
  };

  /// Runs the loop on the client's I/O thread (posted there). With `cancel`, a cancellation
  /// request stops it (see above).
  static void start(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                    AcquireCallback done, GiveUp give_up = nullptr,
                    const CancellationPtr& cancel = nullptr);

  AcquireLoop(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
              AcquireCallback done, GiveUp give_up);

 private:
  void begin();
  void try_once(bool on_caller_thread = false);
  void on_attempt(Status status, AttemptResult result);
  void subscribe_then_retry(std::chrono::microseconds delay = {});
  Listener make_listener();
  void sleep(std::chrono::milliseconds hint);
  void sleep_until(Clock::time_point when);
  std::chrono::milliseconds next_backoff(std::chrono::milliseconds hint);
  void on_message(std::string_view message);
  bool place_known(Clock::time_point now) const;
  bool release_reaches(std::int64_t count);
  bool one_permit_short(std::int64_t count) const;
  void wake();
  std::chrono::microseconds wake_delay();
  void cancel();
  void give_up_then_finish(Status status);
  void finish(Status status, bool acquired);

  std::shared_ptr<ClientCore> core_;
  Options options_;
  Attempt attempt_;
  AcquireCallback done_;
  GiveUp give_up_;
  asio::steady_timer timer_;
  Clock::time_point started_;
  std::uint64_t listener_id_ = 0;
  std::uint64_t sleep_generation_ = 0;
  int backoff_round_ = 0;
  std::int64_t ahead_ = -1;  // the last failed attempt's AttemptResult::ahead (less those served)
  Clock::time_point ahead_learnt_;
  std::int64_t permits_seen_ = -1;  // free permits: the last attempt's, then each release's count
  std::vector<std::int64_t> heard_in_flight_;  // release counts heard while an attempt ran
  // This client's release from just before the wait, whose message is still on its way.
  std::optional<OwnReleases::Pending> own_release_;
  bool subscribed_ = false;
  bool attempt_in_flight_ = false;
  bool sleeping_ = false;
  bool woken_ = false;
  bool jittering_ = false;           // woken, waiting its wake_delay() before the attempt
  bool wake_pending_ = false;        // the next attempt answers a wake-up
  bool attempt_after_wake_ = false;  // the attempt in flight answers a wake-up
  bool contended_ = false;           // others are known to wait for this lock too
  bool cancelled_ = false;
  bool giving_up_ = false;  // give_up_ runs: nothing else starts meanwhile
  bool finished_ = false;
};

}  // namespace redisson::detail
