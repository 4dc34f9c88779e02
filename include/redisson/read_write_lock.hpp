// redisson::ReadWriteLock: many readers or one writer, Java Redisson's RReadWriteLock in C++.
#pragma once

#include <algorithm>
#include <asio/async_result.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "redisson/detail/completion.hpp"
#include "redisson/detail/duration.hpp"
#include "redisson/error.hpp"
#include "redisson/lock.hpp"

namespace redisson {

namespace detail {
class ClientCore;
class RwLockState;
enum class RwSide : std::uint8_t { read, write };
/// Negative or absent: wait forever / watchdog lease.
void rw_acquire(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                std::optional<std::chrono::milliseconds> wait,
                std::optional<std::chrono::milliseconds> lease, BoolCallback done);
void rw_release(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                VoidCallback done);
/// Deletes the lock if it is in `side`'s mode (any mode when `side` is empty).
void rw_force_release(const std::shared_ptr<RwLockState>& lock, std::optional<RwSide> side,
                      BoolCallback done);
void rw_hold_count(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                   IntCallback done);
asio::any_io_executor rw_executor(const RwLockState& lock);

/// One side (read or write) of a ReadWriteLock; see ReadLock and WriteLock. Meets Lockable
/// and TimedLockable with the calling thread as owner.
class RwLockSide {
 public:
  const std::string& name() const noexcept;

  /// Waits until acquired; the watchdog keeps the lease.
  void lock();
  /// Waits until acquired, with a fixed lease (no renewal). `lease` must be positive.
  void lock(std::chrono::milliseconds lease);
  /// One attempt, no waiting.
  bool try_lock();
  /// Waits up to `wait` (zero: one attempt; negative: invalid_argument).
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_ms(to_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait,
                    const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_ms(to_ms(wait), to_ms(lease));
  }
  /// Waits until `deadline` (a deadline already passed: one attempt).
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    const auto left = deadline - Clock::now();
    return try_lock_ms(std::max(to_ms(left), std::chrono::milliseconds{0}), std::nullopt);
  }
  /// Releases one hold of the calling thread; throws not_owner if it holds none.
  void unlock();
  /// Deletes the lock whoever holds it, if it is in this side's mode, and wakes every waiter;
  /// true if it was deleted.
  bool force_unlock();

  /// True while the lock is in this side's mode (held by anyone).
  bool is_locked() const;
  bool is_held_by_current_thread() const;
  /// The calling thread's hold count of this side (0 when it holds none).
  int hold_count() const;
  /// True once the watchdog found the calling thread's holds of this side gone (until it
  /// takes them again).
  bool lost() const;
  bool lost(std::uint64_t owner) const;
  /// Called (on the client's I/O thread) with the owner id whose holds of this side the
  /// watchdog found gone.
  void on_lost(std::function<void(std::uint64_t owner)> callback);

  // ---- asynchronous twins, with an explicit owner id ------------------------------------
  /// Completes with (error_code, acquired). `wait` absent: wait forever; zero: one attempt.
  /// `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock(std::uint64_t owner, std::optional<std::chrono::milliseconds> wait,
                      std::optional<std::chrono::milliseconds> lease, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_, side = side_, owner, wait, lease](auto handler) {
          detail::rw_acquire(
              state, side, owner, wait, lease,
              detail::bind_completion<bool>(std::move(handler), detail::rw_executor(*state)));
        },
        token);
  }
  /// Waits forever; completes with (error_code, acquired == true).
  template <class CompletionToken>
  auto async_lock(std::uint64_t owner, CompletionToken&& token) {
    return async_try_lock(owner, std::nullopt, std::nullopt, std::forward<CompletionToken>(token));
  }
  /// Completes with (error_code); errc::not_owner when `owner` holds no hold of this side.
  template <class CompletionToken>
  auto async_unlock(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code)>(
        [state = state_, side = side_, owner](auto handler) {
          detail::rw_release(
              state, side, owner,
              detail::bind_completion(std::move(handler), detail::rw_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, deleted).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, bool)>(
        [state = state_, side = side_](auto handler) {
          detail::rw_force_release(
              state, side,
              detail::bind_completion<bool>(std::move(handler), detail::rw_executor(*state)));
        },
        token);
  }
  /// Completes with (error_code, hold count of `owner` on this side).
  template <class CompletionToken>
  auto async_hold_count(std::uint64_t owner, CompletionToken&& token) {
    return asio::async_initiate<CompletionToken, void(std::error_code, std::int64_t)>(
        [state = state_, side = side_, owner](auto handler) {
          detail::rw_hold_count(state, side, owner,
                                detail::bind_completion<std::int64_t>(std::move(handler),
                                                                      detail::rw_executor(*state)));
        },
        token);
  }

  /// The hash field this side writes for `owner`: "<client-id>:<owner>" for a reader,
  /// "<client-id>:<owner>:write" for the writer.
  std::string owner_field(std::uint64_t owner) const;
  const std::shared_ptr<RwLockState>& state() const noexcept { return state_; }

 protected:
  RwLockSide(std::shared_ptr<RwLockState> state, RwSide side)
      : state_(std::move(state)), side_(side) {}

 private:
  template <class Rep, class Period>
  static std::chrono::milliseconds to_ms(const std::chrono::duration<Rep, Period>& d) {
    return detail::saturating_ms(d);
  }
  bool try_lock_ms(std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease);

  std::shared_ptr<RwLockState> state_;
  RwSide side_;
};

}  // namespace detail

/// The read side of a ReadWriteLock: shared with every other reader, excluded by a writer.
///
/// lock() takes a read hold; holds are re-entrant and counted per owner, and each has its own
/// lease key, so the holds of a reader that died expire on their own. The writer may take read
/// holds too (a downgrade: release the write hold afterwards and keep reading).
/// Meets Lockable and TimedLockable (std::unique_lock<ReadLock> holds a read hold).
class ReadLock final : public detail::RwLockSide {
 public:
  explicit ReadLock(std::shared_ptr<detail::RwLockState> state)
      : RwLockSide(std::move(state), detail::RwSide::read) {}
};

/// The write side of a ReadWriteLock: excludes readers and other writers; re-entrant.
///
/// No upgrade: an owner holding a read hold does not get the write lock. try_lock() just
/// fails and try_lock_for() waits and times out like anyone else, but lock() (and async_lock,
/// which would wait for itself forever) fails at once with errc::already_held.
/// Meets Lockable and TimedLockable.
class WriteLock final : public detail::RwLockSide {
 public:
  explicit WriteLock(std::shared_ptr<detail::RwLockState> state)
      : RwLockSide(std::move(state), detail::RwSide::write) {}
};

/// Many readers or one writer, shared by every process that uses the same name on the same
/// Redis, Java Redisson's RReadWriteLock included (same keys, channel and semantics).
///
/// Guarantees: while a writer's lease lasts nobody else reads or writes; readers share; both
/// sides are re-entrant per owner; a writer may also take read holds and then release the
/// write hold (downgrade), but a reader never turns into a writer (no upgrade: see WriteLock);
/// waiters sleep on pub/sub (channel redisson_rwlock:{n}) and a write unlock wakes all of
/// them; unlock by a non-owner fails (errc::not_owner) and changes nothing; unlocks are safe
/// to retry. Holds taken without a lease are renewed by the client's watchdog (one entry per
/// lock, owner and side; reader entries also renew that owner's per-hold lease keys); if a
/// renewal finds them gone, lost() turns true and on_lost runs.
///
/// Layout: hash n { mode: read|write, <client>:<owner>: read holds,
/// <client>:<owner>:write: write holds }, plus one key {n}:<client>:<owner>:rwlock_timeout:<i>
/// per read hold, carrying that hold's lease; n's lease is the longest of them.
///
/// Cost: an uncontended acquire or unlock is one script round trip. A read unlock in read
/// mode reads every read hold's lease (O(read holds) inside Redis) to recompute n's lease.
/// Waiting adds one SUBSCRIBE (shared per channel per client) and one retry per release.
///
/// The ReadWriteLock itself is Lockable/TimedLockable for the write side (lock(), unlock(), ...)
/// and SharedTimedLockable for the read side (lock_shared(), unlock_shared(), ...), so
///     std::unique_lock writer(rw);   std::shared_lock reader(rw);
/// both work, with the calling thread as owner. A cheap handle; copies share their state.
class ReadWriteLock {
 public:
  /// Prefer Client::get_read_write_lock. Throws invalid_argument for an empty name.
  ReadWriteLock(std::shared_ptr<detail::ClientCore> core, std::string name);

  const std::string& name() const noexcept;

  /// The read side (a handle sharing this lock's state).
  ReadLock read_lock() const { return read_; }
  /// The write side (a handle sharing this lock's state).
  WriteLock write_lock() const { return write_; }

  // ---- Lockable / TimedLockable: the write side ------------------------------------------
  /// Takes the write lock; throws already_held if the calling thread holds a read hold.
  void lock() { write_.lock(); }
  bool try_lock() { return write_.try_lock(); }
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait) {
    return write_.try_lock_for(wait);
  }
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    return write_.try_lock_until(deadline);
  }
  void unlock() { write_.unlock(); }

  // ---- SharedLockable / SharedTimedLockable: the read side -------------------------------
  void lock_shared() { read_.lock(); }
  bool try_lock_shared() { return read_.try_lock(); }
  template <class Rep, class Period>
  bool try_lock_shared_for(const std::chrono::duration<Rep, Period>& wait) {
    return read_.try_lock_for(wait);
  }
  template <class Clock, class Duration>
  bool try_lock_shared_until(const std::chrono::time_point<Clock, Duration>& deadline) {
    return read_.try_lock_until(deadline);
  }
  void unlock_shared() { read_.unlock(); }

  /// True while held in either mode.
  bool is_locked() const;
  /// Deletes the lock in whichever mode, with its read holds' lease keys, and wakes every
  /// waiter; true if it was held.
  bool force_unlock();
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  std::chrono::milliseconds remaining_lease() const;

  const std::shared_ptr<detail::RwLockState>& state() const noexcept { return state_; }

 private:
  std::shared_ptr<detail::RwLockState> state_;
  ReadLock read_;
  WriteLock write_;
};

}  // namespace redisson
