// redisson::MultiLock: several locks taken as one, all or nothing (Redisson's RedissonMultiLock).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <vector>

#include "redisson/detail/duration.hpp"
#include "redisson/lock.hpp"

namespace redisson {

/// A group of Locks (any names, on any clients) held together by the calling thread.
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
/// Owner: the calling thread (like Lock's blocking API), so MultiLock meets Lockable and
/// TimedLockable and works with std::lock_guard, std::unique_lock and std::scoped_lock.
class MultiLock {
 public:
  /// `locks` must not be empty (errc::invalid_argument).
  explicit MultiLock(std::vector<Lock> locks);
  MultiLock(std::initializer_list<Lock> locks) : MultiLock(std::vector<Lock>(locks)) {}

  const std::vector<Lock>& locks() const noexcept { return locks_; }

  /// Waits until every member is held; the watchdog keeps each member's lease.
  void lock();
  /// Waits until every member is held, each with a fixed `lease` (no renewal).
  void lock(std::chrono::milliseconds lease);
  /// One attempt on each member, no waiting; false (holding none) if any member is busy.
  bool try_lock();
  /// Waits up to `wait` for every member (zero: one attempt each; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success each member is held for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt each).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_lock_ms(std::max(to_ms(left), std::chrono::milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of every member. Every member is tried; then the first error, if any,
  /// is thrown (errc::not_owner when the calling thread did not hold that member).
  void unlock();
  /// Like unlock(), reporting the first error in `ec` instead of throwing.
  void unlock(std::error_code& ec) noexcept;

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  /// `wait` absent: wait forever.
  bool acquire(std::optional<std::chrono::milliseconds> wait,
               std::optional<std::chrono::milliseconds> lease);
  bool try_lock_ms(std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease);
  /// Releases the first `count` members, ignoring errors (a lease ends a hold anyway).
  void release_first(std::size_t count) noexcept;

  std::vector<Lock> locks_;
};

}  // namespace redisson
