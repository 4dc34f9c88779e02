// redisson::RedLock: a lock over N independent Redis masters, held when a majority is taken.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <utility>
#include <vector>

#include "redisson/lock.hpp"

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

/// The Redlock algorithm over N Locks, one per independent Redis master (usually one Client
/// per master, the same name on each), owned by the calling thread.
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
  explicit RedLock(std::vector<Lock> locks, RedLockOptions options = {});
  RedLock(std::initializer_list<Lock> locks) : RedLock(std::vector<Lock>(locks)) {}

  /// Masters that must be taken: N/2 + 1.
  std::size_t quorum() const noexcept { return locks_.size() / 2 + 1; }
  const std::vector<Lock>& locks() const noexcept { return locks_; }

  /// One round, no retry: the remaining validity, or nullopt (holding nothing).
  std::optional<milliseconds> try_lock(milliseconds lease);
  /// Rounds until acquired or `wait` has passed: the remaining validity, or nullopt.
  std::optional<milliseconds> try_lock_for(milliseconds wait, milliseconds lease);
  /// Rounds until acquired; returns the remaining validity.
  milliseconds lock(milliseconds lease);
  /// Releases on every master, in parallel, each bounded by master_timeout. Masters that do not
  /// answer or no longer hold it are skipped (their lease ends the hold). Throws
  /// errc::not_owner only when every master that answered said this thread held nothing there.
  void unlock();

 private:
  std::optional<milliseconds> acquire(std::optional<milliseconds> wait, milliseconds lease);
  /// One round; the validity on success (holding a majority), nullopt after releasing all.
  std::optional<milliseconds> round(std::uint64_t owner, milliseconds lease);
  /// Releases on every master, waiting at most master_timeout: the number of masters that
  /// released, and of masters that said this owner held nothing there.
  std::pair<std::size_t, std::size_t> release_all(std::uint64_t owner);

  std::vector<Lock> locks_;
  RedLockOptions options_;
};

}  // namespace redisson
