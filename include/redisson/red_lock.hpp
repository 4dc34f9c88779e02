// redisson::RedLock: a lock over N independent Redis masters, held when a majority is taken.
#pragma once

#include <chrono>
#include <concepts>
#include <initializer_list>
#include <memory>
#include <optional>
#include <system_error>
#include <vector>

#include "redisson/basic_lock.hpp"

namespace redisson {

struct RedLockOptions {
  /// How long one master may take to answer one acquire (or release) before it counts as
  /// failed for this round; an unreachable master costs at most this much, not the client's
  /// command timeout and retries. Keep it small next to the lease.
  std::chrono::milliseconds master_timeout{200};
  /// Clock drift allowance = lease × drift_factor + drift_base (the Redlock algorithm's).
  double drift_factor = 0.01;
  std::chrono::milliseconds drift_base{2};
};

/// The Redlock algorithm over N locks, one per independent Redis master (usually one Client
/// per master, the same name on each). The blocking forms use the calling thread as owner; the
/// async forms take an OwnerId and honour per-operation cancellation (as BasicLock's).
///
/// Acquire: a round sends an acquire with the lease to every master in parallel (async, each
/// bounded by master_timeout). The round succeeds when a majority (N/2 + 1) was taken and the
/// validity = lease − elapsed − drift is still positive; that validity is returned. Otherwise
/// the round releases on every master (including where it failed or timed out: releasing
/// there is harmless) and, while the wait lasts, retries after a short random delay. An
/// acquire that completes after its round gave up on it is released when it arrives.
///
/// Guarantees: within the returned validity no other RedLock owner holds a majority, provided
/// clocks on the masters and here drift by less than the drift allowance and no process
/// (this one included) pauses longer than the remaining validity. It is not a fencing
/// mechanism: a holder that stalls past its validity cannot know it lost the lock. Where
/// correctness matters, use a fencing token checked by the protected resource (FencedLock).
///
/// No watchdog: the lease is explicit. There is deliberately no lease-less lock(), so RedLock is
/// not Lockable and cannot be put in std::lock_guard by mistake; a lease ≤ 0 is
/// errc::invalid_argument.
///
/// Cost: per round one acquire per master (in parallel) and, on failure, one release per master.
class RedLock {
 public:
  using milliseconds = std::chrono::milliseconds;

  /// `locks`: one per master, at least one (errc::invalid_argument).
  explicit RedLock(std::vector<BasicLock> locks, RedLockOptions options = {});
  RedLock(std::initializer_list<BasicLock> locks) : RedLock(std::vector<BasicLock>(locks)) {}
  /// From locks of one kind (std::vector<Lock>, ...).
  template <std::derived_from<BasicLock> Kind>
  explicit RedLock(const std::vector<Kind>& locks, RedLockOptions options = {})
      : RedLock(std::vector<BasicLock>(locks.begin(), locks.end()), options) {}

  /// Masters that must be taken: N/2 + 1.
  std::size_t quorum() const noexcept { return locks_->size() / 2 + 1; }
  const std::vector<BasicLock>& locks() const noexcept { return *locks_; }

  /// One round, no retry: the remaining validity, or nullopt (holding nothing).
  std::optional<milliseconds> try_lock(milliseconds lease);
  /// Rounds until acquired or `wait` has passed: the remaining validity, or nullopt.
  std::optional<milliseconds> try_lock_for(milliseconds wait, milliseconds lease);
  /// Rounds until acquired; returns the remaining validity.
  milliseconds lock(milliseconds lease);
  /// Releases on every master, in parallel, each bounded by master_timeout. Masters that do not
  /// answer or no longer hold it are skipped (their lease ends the hold). Never throws: a
  /// failure (errc::not_owner when every master that answered said this thread held nothing
  /// there) goes to the first member's client's error handler.
  void unlock() noexcept;
  /// Like unlock(), reporting the failure in `ec`.
  void unlock(std::error_code& ec) noexcept;

  /// Completes with (error_code, validity): the remaining validity once a majority is held, or
  /// nullopt when `wait` ran out (absent: retry forever; zero: one round).
  template <class CompletionToken>
  auto async_try_lock(OwnerId owner, std::optional<milliseconds> wait, milliseconds lease,
                      CompletionToken&& token) const {
    return detail::async_op<std::optional<milliseconds>>(
        locks_->front().core(), token,
        [locks = locks_, options = options_, owner, wait, lease](
            detail::Done<std::optional<milliseconds>> done, detail::CancellationPtr cancel) {
          start_acquire(locks, options, owner, wait, lease, std::move(cancel), std::move(done));
        });
  }
  /// Completes with (error_code); errc::not_owner as unlock() says.
  template <class CompletionToken>
  auto async_unlock(OwnerId owner, CompletionToken&& token) const {
    return detail::async_op<void>(
        locks_->front().core(), token,
        [locks = locks_, options = options_, owner](detail::Done<void> done) {
          start_release(locks, options, owner, std::move(done));
        });
  }

 private:
  using Members = std::shared_ptr<const std::vector<BasicLock>>;
  static void start_acquire(const Members& locks, const RedLockOptions& options, OwnerId owner,
                            std::optional<milliseconds> wait, milliseconds lease,
                            detail::CancellationPtr cancel,
                            detail::Done<std::optional<milliseconds>> done);
  static void start_release(const Members& locks, const RedLockOptions& options, OwnerId owner,
                            detail::Done<void> done);

  Members locks_;
  RedLockOptions options_;
};

}  // namespace redisson
