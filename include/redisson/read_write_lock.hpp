// redisson::ReadWriteLock: many readers or one writer, Java Redisson's RReadWriteLock in C++.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "redisson/basic_lock.hpp"

namespace redisson {

class Client;
class ReadWriteLock;

/// The read side of a ReadWriteLock: shared with every other reader, excluded by a writer.
///
/// lock() takes a read hold; holds are re-entrant and counted per owner, and each has its own
/// lease key, so the holds of a reader that died expire on their own. The writer may take read
/// holds too (a downgrade: release the write hold afterwards and keep reading).
/// Meets Lockable and TimedLockable (std::unique_lock<ReadLock> holds a read hold).
class ReadLock final : public BasicLock {
 private:
  friend class ReadWriteLock;
  explicit ReadLock(std::shared_ptr<detail::LockKind> kind) : BasicLock(std::move(kind)) {}
};

/// The write side of a ReadWriteLock: excludes readers and other writers; re-entrant.
///
/// No upgrade: an owner holding a read hold does not get the write lock. try_lock() just
/// fails and try_lock_for() waits and times out like anyone else, but lock() (and async_lock,
/// which would wait for itself forever) fails at once with errc::already_held.
/// Meets Lockable and TimedLockable.
class WriteLock final : public BasicLock {
 private:
  friend class ReadWriteLock;
  explicit WriteLock(std::shared_ptr<detail::LockKind> kind) : BasicLock(std::move(kind)) {}
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
  /// A handle on the lock `name`; sends nothing. Throws invalid_argument for an empty name.
  ReadWriteLock(const Client& client, std::string name);

  const std::string& name() const noexcept { return write_.name(); }

  /// The read side (a handle sharing this lock's state).
  ReadLock read_lock() const { return read_; }
  /// The write side (a handle sharing this lock's state).
  WriteLock write_lock() const { return write_; }

  // ---- Lockable / TimedLockable: the write side ------------------------------------------
  /// Takes the write lock; throws already_held if the calling thread holds a read hold.
  void lock() { write_.lock(); }
  bool try_lock() { return write_.try_lock(); }
  template <class Rep, class Period>
  bool try_lock_for(const std::chrono::duration<Rep, Period>& wait);
  template <class Clock, class Duration>
  bool try_lock_until(const std::chrono::time_point<Clock, Duration>& deadline);
  void unlock() noexcept { write_.unlock(); }
  void unlock(std::error_code& ec) noexcept { write_.unlock(ec); }

  // ---- SharedLockable / SharedTimedLockable: the read side -------------------------------
  void lock_shared() { read_.lock(); }
  bool try_lock_shared() { return read_.try_lock(); }
  template <class Rep, class Period>
  bool try_lock_shared_for(const std::chrono::duration<Rep, Period>& wait);
  template <class Clock, class Duration>
  bool try_lock_shared_until(const std::chrono::time_point<Clock, Duration>& deadline);
  void unlock_shared() noexcept { read_.unlock(); }
  void unlock_shared(std::error_code& ec) noexcept { read_.unlock(ec); }

  /// True while held in either mode.
  bool is_locked() const;
  /// Deletes the lock in whichever mode, with its read holds' lease keys, and wakes every
  /// waiter; true if it was held.
  bool force_unlock();
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  std::chrono::milliseconds remaining_lease() const { return write_.remaining_lease(); }

 private:
  ReadLock read_;
  WriteLock write_;
};

}  // namespace redisson

#include "redisson/impl/read_write_lock.hpp"
