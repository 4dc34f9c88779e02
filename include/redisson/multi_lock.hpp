// redisson::MultiLock: several locks taken as one, all or nothing (Redisson's RedissonMultiLock).
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

/// A group of locks (any kinds, names and clients) held together by one owner.
///
/// Guarantees: an acquire either takes every member or leaves none of them taken by this call
/// (a partial hold is released before the call returns, also when it throws); while held, no
/// other owner holds any member. Members are tried in list order; a member that is busy while
/// others are already taken is waited on only briefly (a randomized slice of the remaining
/// wait) before everything taken is released and the round restarts, so two MultiLocks over the
/// same members in opposite orders do not deadlock. The first member of a round, when nothing
/// is held, is waited on for the whole remaining wait (on pub/sub, like Lock).
///
/// Not guaranteed: atomicity across members. Each member has its own lease; with an explicit
/// lease each member gets that lease from the moment it was taken, so in a slow acquisition the
/// first members expire earlier than the last. Without a lease the client's watchdog renews
/// each member. MultiLock does not add anything across independent Redis masters: use RedLock
/// for a majority over masters.
///
/// Cost: per round one acquire per member (one round trip each, in sequence) plus one unlock
/// per member taken when a round fails; unlock() is one round trip per member.
///
/// Owners, waits, leases, unlock() that never throws, and cancellation of the async forms: as
/// BasicLock. The blocking forms use the calling thread, so MultiLock meets Lockable and
/// TimedLockable and works with std::lock_guard, std::unique_lock and std::scoped_lock.
class MultiLock : public detail::LockOperations<MultiLock> {
 public:
  using milliseconds = std::chrono::milliseconds;

  /// `locks` must not be empty (errc::invalid_argument).
  explicit MultiLock(std::vector<BasicLock> locks);
  MultiLock(std::initializer_list<BasicLock> locks) : MultiLock(std::vector<BasicLock>(locks)) {}
  /// From locks of one kind (std::vector<Lock>, std::vector<FairLock>, ...).
  template <std::derived_from<BasicLock> Kind>
  explicit MultiLock(const std::vector<Kind>& locks)
      : MultiLock(std::vector<BasicLock>(locks.begin(), locks.end())) {}

  const std::vector<BasicLock>& locks() const noexcept { return *locks_; }

  // lock(), lock(lease), try_lock(), try_lock_for(wait[, lease]), try_lock_until(deadline),
  // unlock(error_code&), async_try_lock, async_lock, async_unlock: detail::LockOperations;
  // a round takes every member or none.
  using LockOperations::unlock;
  /// Releases one hold of every member (all are tried). Never throws: the first failure goes
  /// to the first member's client's error handler.
  void unlock() noexcept;

 private:
  friend class detail::LockOperations<MultiLock>;
  using Members = std::shared_ptr<const std::vector<BasicLock>>;
  const std::shared_ptr<detail::ClientCore>& core() const noexcept {
    return locks_->front().core();
  }
  const Members& handle() const noexcept { return locks_; }
  static const char* display_name() noexcept { return "MultiLock"; }
  // A group sends several commands from one start: the I/O thread reads every reply, so the
  // blocking call's ReadSlot goes unused.
  static void start_acquire(const Members& locks, OwnerId owner, std::optional<milliseconds> wait,
                            std::optional<milliseconds> lease, detail::CancellationPtr cancel,
                            detail::Done<bool> done, detail::ReadSlot* /*read*/);
  static void start_release(const Members& locks, OwnerId owner, detail::Done<void> done,
                            detail::ReadSlot* /*read*/);

  Members locks_;
};

}  // namespace redisson
