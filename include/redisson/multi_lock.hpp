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
class MultiLock {
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

  /// Waits until every member is held; the watchdog keeps each member's lease.
  void lock();
  /// Waits until every member is held, each with a fixed `lease` (no renewal).
  void lock(milliseconds lease);
  /// One attempt on each member, no waiting; false (holding none) if any member is busy.
  bool try_lock();
  /// Waits up to `wait` for every member (zero: one attempt each; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(detail::saturating_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success each member is held for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(detail::saturating_ms(wait), detail::saturating_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt each).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = detail::saturating_ms(deadline - Clock::now());
    return try_lock_ms(std::max(left, milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of every member (all are tried). Never throws: the first failure goes
  /// to the first member's client's error handler.
  void unlock() noexcept;
  /// Like unlock(), reporting the first failure in `ec`.
  void unlock(std::error_code& ec) noexcept;

  /// Completes with (error_code, acquired): every member held by `owner`, or none.
  template <class CompletionToken>
  auto async_try_lock(OwnerId owner, std::optional<milliseconds> wait,
                      std::optional<milliseconds> lease, CompletionToken&& token) const {
    return detail::async_op<bool>(locks_->front().core(), token,
                                  [locks = locks_, owner, wait, lease](
                                      detail::Done<bool> done, detail::CancellationPtr cancel) {
                                    start_acquire(locks, owner, wait, lease, std::move(cancel),
                                                  std::move(done));
                                  });
  }
  template <class CompletionToken>
  auto async_lock(OwnerId owner, CompletionToken&& token) const {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code): the first member's failure, after every member was tried.
  template <class CompletionToken>
  auto async_unlock(OwnerId owner, CompletionToken&& token) const {
    return detail::async_op<void>(locks_->front().core(), token,
                                  [locks = locks_, owner](detail::Done<void> done) {
                                    start_release(locks, owner, std::move(done));
                                  });
  }

 private:
  using Members = std::shared_ptr<const std::vector<BasicLock>>;
  bool try_lock_ms(milliseconds wait, std::optional<milliseconds> lease);
  static void start_acquire(const Members& locks, OwnerId owner, std::optional<milliseconds> wait,
                            std::optional<milliseconds> lease, detail::CancellationPtr cancel,
                            detail::Done<bool> done);
  static void start_release(const Members& locks, OwnerId owner, detail::Done<void> done);

  Members locks_;
};

}  // namespace redisson
