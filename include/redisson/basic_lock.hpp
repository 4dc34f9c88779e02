// redisson::BasicLock: what every distributed lock of the library offers (Lock, FairLock,
// FencedLock, SpinLock, and each side of a ReadWriteLock).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/lock_operations.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"
#include "redisson/listener.hpp"
#include "redisson/owner_id.hpp"

namespace redisson {

namespace detail {
class LockKind;
struct LockAccess;
}  // namespace detail

/// The operations every lock of the library has, in three forms: blocking (the calling thread is
/// the owner, so the locks meet the standard's Lockable and TimedLockable requirements and work
/// with std::lock_guard, std::unique_lock and std::scoped_lock), blocking with an error_code, and
/// asynchronous with an explicit OwnerId and any Asio completion token (a callback,
/// asio::use_future, asio::use_awaitable).
///
/// Waits and leases: a wait of zero is one attempt; a negative wait, or a lease that is not
/// positive, is errc::invalid_argument and nothing is sent. Without a lease the client's watchdog
/// renews the hold (Config::lock_watchdog_timeout) until it is released, its thread exits (the
/// hold then ends with its lease) or the client shuts down (Config::release_locks_on_shutdown);
/// an explicit lease is never renewed and ends the hold when it runs out.
///
/// unlock() never throws (a guard's destructor calls it): a failure goes to the client's
/// Config::error_handler (by default one line on stderr), and the owner's lost() turns true. Call
/// unlock(std::error_code&) or async_unlock where the caller must know. A failed unlock stops the
/// renewals of that owner's hold, so the lease ends it.
///
/// Async acquisitions honour Asio per-operation cancellation (`co_await (lock.async_lock(owner,
/// use_awaitable) || timer.async_wait(use_awaitable))`, asio::bind_cancellation_slot): after a
/// cancel nothing is held or renewed (a grant that raced the cancel is released), and the
/// completion reports asio::error::operation_aborted.
///
/// A lock object is a cheap handle: copies share the lock's state.
class BasicLock : public detail::LockOperations<BasicLock> {
 public:
  using milliseconds = std::chrono::milliseconds;

  const std::string& name() const noexcept;

  // lock(), lock(lease), try_lock(), try_lock_for(wait[, lease]), try_lock_until(deadline),
  // unlock(error_code&), async_try_lock, async_lock, async_unlock: detail::LockOperations.
  using LockOperations::unlock;
  /// Releases one hold of the calling thread. Never throws: see the class comment.
  void unlock() noexcept;
  /// Deletes the lock whoever holds it and wakes waiters; true if it was held.
  bool force_unlock();

  /// True while anyone holds it.
  bool is_locked() const;
  bool is_held_by_current_thread() const;
  /// The calling thread's hold count (0 when it does not hold the lock).
  int hold_count() const;
  /// The lock's remaining lease; -2 ms when not locked, -1 ms when it has no expiry.
  milliseconds remaining_lease() const;
  /// True once the calling thread's hold was lost, until it acquires again: the watchdog found
  /// it gone, or an unlock found it gone or failed. A hold with an explicit lease that simply ran
  /// out is not "lost" until an unlock finds it gone (nothing renews it to notice sooner).
  bool lost() const;
  /// lost() for `owner`; also true for a thread's owner once that thread exited holding a
  /// watchdog-renewed hold (no longer renewed: its lease ends it).
  bool lost(OwnerId owner) const;
  /// Called (on the client's I/O thread) with the owner whose hold the watchdog found gone, or
  /// whose thread exited holding it.
  void on_lost(std::function<void(OwnerId owner)> callback);
  /// The hash field this lock writes for `owner`: "<client-id>:<owner>".
  std::string owner_field(OwnerId owner) const;

  /// Calls `listener` with the lock's name each time its key is deleted (an unlock releasing
  /// the last hold, force_unlock) or expires (a lease ran out), from any client: Redisson's
  /// addListener with a DeletedObjectListener or ExpiredObjectListener (ObjectEvent::deleted,
  /// expired; another event is errc::invalid_argument). As Object::add_listener: the server's
  /// notify-keyspace-events per Config::keyspace_notifications, the listener threads, at most
  /// once.
  ListenerId add_listener(ObjectEvent event, KeyListener listener) const;
  /// Removes a listener of this client; false when `id` is not registered.
  bool remove_listener(ListenerId id) const;

  // ---- asynchronous, with an explicit owner ----------------------------------------------
  /// add_listener's async form: completes with (error_code, ListenerId).
  template <class CompletionToken>
  auto async_add_listener(ObjectEvent event, KeyListener listener, CompletionToken&& token) const {
    return detail::async_op<ListenerId>(
        core(), token,
        [kind = kind_, event, listener = std::move(listener)](detail::Done<ListenerId> done) {
          start_listen(kind, event, listener, std::move(done));
        });
  }
  /// remove_listener's async form: completes with (error_code, removed).
  template <class CompletionToken>
  auto async_remove_listener(ListenerId id, CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token, [kind = kind_, id](detail::Done<bool> done) {
      start_unlisten(kind, id, std::move(done));
    });
  }
  /// Completes with (error_code, was_locked).
  template <class CompletionToken>
  auto async_force_unlock(CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token, [kind = kind_](detail::Done<bool> done) {
      start_force_release(kind, std::move(done));
    });
  }
  /// Completes with (error_code, is_locked).
  template <class CompletionToken>
  auto async_is_locked(CompletionToken&& token) const {
    return detail::async_op<bool>(core(), token, [kind = kind_](detail::Done<bool> done) {
      start_is_locked(kind, std::move(done));
    });
  }
  /// Completes with (error_code, hold count of `owner`).
  template <class CompletionToken>
  auto async_hold_count(OwnerId owner, CompletionToken&& token) const {
    return detail::async_op<std::int64_t>(core(), token,
                                          [kind = kind_, owner](detail::Done<std::int64_t> done) {
                                            start_hold_count(kind, owner, std::move(done));
                                          });
  }

 protected:
  explicit BasicLock(std::shared_ptr<detail::LockKind> kind) noexcept : kind_(std::move(kind)) {}
  const std::shared_ptr<detail::LockKind>& kind() const noexcept { return kind_; }
  const std::shared_ptr<detail::ClientCore>& core() const noexcept;
  /// Acquires and completes with the fencing token (0 for locks without one), or nullopt when
  /// the wait ran out.
  static void start_acquire_token(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                                  std::optional<milliseconds> wait,
                                  std::optional<milliseconds> lease, detail::CancellationPtr cancel,
                                  detail::Done<std::optional<std::int64_t>> done,
                                  detail::ReadSlot* read);

 private:
  friend class detail::LockOperations<BasicLock>;
  friend class MultiLock;
  friend class RedLock;
  friend struct detail::LockAccess;

  const std::shared_ptr<detail::LockKind>& handle() const noexcept { return kind_; }
  const std::string& display_name() const noexcept { return name(); }
  // The .cpp side of the async templates.
  static void start_acquire(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                            std::optional<milliseconds> wait, std::optional<milliseconds> lease,
                            detail::CancellationPtr cancel, detail::Done<bool> done,
                            detail::ReadSlot* read);
  static void start_release(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                            detail::Done<void> done, detail::ReadSlot* read);
  static void start_force_release(const std::shared_ptr<detail::LockKind>& kind,
                                  detail::Done<bool> done);
  static void start_is_locked(const std::shared_ptr<detail::LockKind>& kind,
                              detail::Done<bool> done);
  static void start_hold_count(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                               detail::Done<std::int64_t> done);
  static void start_listen(const std::shared_ptr<detail::LockKind>& kind, ObjectEvent event,
                           const KeyListener& listener, detail::Done<ListenerId> done);
  static void start_unlisten(const std::shared_ptr<detail::LockKind>& kind, ListenerId id,
                             detail::Done<bool> done);

  std::shared_ptr<detail::LockKind> kind_;
};

}  // namespace redisson
