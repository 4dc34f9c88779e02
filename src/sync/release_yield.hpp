// After this client fully released a non-fair lock whose release message woke waiters in other
// clients, its own next acquisition of that lock holds back for a short window, so that one of
// the woken waiters gets its attempt in first. Without it the releaser, which learns of the
// release before anyone it woke (they need a wake-up and a round trip), wins its own lock again
// most of the time, and under contention a waiter elsewhere can starve (docs/locks.md,
// docs/benchmarks.md "contention").
//
// Keyed by the lock's release channel. Every method runs on the I/O thread (as the subscriber's
// do), so nothing is locked; except all_closed(), an atomic snapshot for callers' threads. Bounded:
// an entry lives one window (at most kMaxWindow), and the expired ones are dropped whenever the map
// has grown past a handful. One per client: ClientCore::service<ReleaseYield>().
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "client/client_services.hpp"
#include "net/connection.hpp"

namespace redisson::detail {

class ReleaseYield : public ClientService {
 public:
  ReleaseYield() = default;

  /// Bounds of the window. Measured with the `contention` bench (16 processes on 2 loaded
  /// cores): a 0.2 ms floor let the releaser win its lock back after 28-37 % of the releases
  /// (80 % without the yield), 0.5 ms after 1-4 %, 1 ms after 1-2 %. The cap bounds what a
  /// releaser loses when nobody it "woke" comes: the subscribers PUBLISH counts may be other
  /// clients' lingering subscriptions (Config::subscription_linger) with no waiter behind them,
  /// or waiters that give up; then each re-lock within the window is late by at most this.
  static constexpr std::chrono::microseconds kMinWindow{500};
  static constexpr std::chrono::microseconds kMaxWindow{5000};

  /// The window after a release whose unlock took `round_trip` (send to reply): three times
  /// that, clamped to [kMinWindow, kMaxWindow]. The message reached the woken waiters about
  /// when the unlock's reply reached us; each then needs a wake-up and about one round trip for
  /// its attempt to reach the server. The unlock's own round trip measures both on this
  /// machine now (a loaded machine answers slower and wakes slower); three leaves a margin for
  /// the waiter's wake-up, which on a busy machine is the larger part.
  std::chrono::nanoseconds window_for(std::chrono::nanoseconds round_trip) const;
  /// Raises the floor above kMinWindow (and the cap with it): tests, which must not depend on
  /// how fast a woken waiter runs on a loaded machine.
  void set_min_window(std::chrono::nanoseconds floor) { min_window_ = floor; }

  /// An open window: until when to hold back, and how many other clients the release reached
  /// (two or more: the lock is contended beyond a two-party hand-over, see acquire_machine.cpp's
  /// wake delay).
  struct Window {
    Clock::time_point until;
    std::int64_t others = 0;
  };

  /// A release on `channel` woke waiters in `others` other clients: this client's next
  /// acquisition there holds back until `until`.
  void released(const std::string& channel, Clock::time_point until, std::int64_t others = 1);
  /// The window open on `channel` at `now`, or nullopt (an ended one is forgotten).
  std::optional<Window> window(const std::string& channel, Clock::time_point now);

  /// True when every window has ended at `now`. Callable from any thread: a release recorded
  /// before the caller learnt of its unlock's outcome is seen.
  bool all_closed(Clock::time_point now) const noexcept {
    return now.time_since_epoch().count() >= latest_until_.load(std::memory_order_acquire);
  }

  /// Entries kept (tests).
  std::size_t size() const noexcept { return until_.size(); }

 private:
  std::unordered_map<std::string, Window> until_;
  std::chrono::nanoseconds min_window_ = kMinWindow;
  std::atomic<Clock::rep> latest_until_{0};  // the latest window's end, for all_closed()
};

}  // namespace redisson::detail
