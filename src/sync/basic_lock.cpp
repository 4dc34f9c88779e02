#include "redisson/basic_lock.hpp"

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "redisson/detail/object_listen.hpp"
#include "redisson/detail/read_slot.hpp"
#include "sync/lock_kind.hpp"

namespace redisson {

const std::string& BasicLock::name() const noexcept { return kind_->name; }

const std::shared_ptr<detail::ClientCore>& BasicLock::core() const noexcept { return kind_->core; }

std::string BasicLock::owner_field(OwnerId owner) const { return kind_->owner_field(owner); }

void BasicLock::start_acquire_token(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                                    std::optional<milliseconds> wait,
                                    std::optional<milliseconds> lease,
                                    detail::CancellationPtr cancel,
                                    detail::Done<std::optional<std::int64_t>> done,
                                    detail::ReadSlot* read) {
  kind->acquire(owner, wait, lease, std::move(cancel), std::move(done), read);
  detail::read_own_reply(read);  // see start_acquire
}

void BasicLock::start_acquire(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                              std::optional<milliseconds> wait, std::optional<milliseconds> lease,
                              detail::CancellationPtr cancel, detail::Done<bool> done,
                              detail::ReadSlot* read) {
  kind->acquire(
      owner, wait, lease, std::move(cancel),
      [done = std::move(done)](detail::Status status, std::optional<std::int64_t> token) mutable {
        done(std::move(status), token.has_value());
      },
      read);
  // A blocking lock whose first attempt went out on an idle connection reads the reply here
  // (detail/read_slot.hpp): the attempt's callback and a grant touch the hold registry
  // (locked), the watchdog's wake() and the caller's completion; the acquire loop moves
  // anything else to the I/O thread. A group (MultiLock, RedLock) sends several commands from
  // one start and passes no slot to its members, so none of their replies is read by its
  // caller.
  detail::read_own_reply(read);
}

void BasicLock::start_release(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                              detail::Done<void> done, detail::ReadSlot* read) {
  // As start_acquire: the release's callback touches the registry and posts the yield. Only
  // while this client waits on nothing (as the acquire loop's first attempt): a release that
  // woke waiters then finishes on the I/O thread anyway, and under contention (16 processes on
  // 2 cores, `contention`) the caller's read plus that hop cost more than they save: busy
  // 0.72 -> 0.63.
  if (read != nullptr && !kind->core->subscriber().quiet()) read = nullptr;
  kind->release(owner, std::move(done), read);
  detail::read_own_reply(read);
}

void BasicLock::start_force_release(const std::shared_ptr<detail::LockKind>& kind,
                                    detail::Done<bool> done) {
  kind->force_release(std::move(done));
}

void BasicLock::start_is_locked(const std::shared_ptr<detail::LockKind>& kind,
                                detail::Done<bool> done) {
  kind->is_locked(std::move(done));
}

void BasicLock::start_hold_count(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                                 detail::Done<std::int64_t> done) {
  kind->hold_count(owner, std::move(done));
}

void BasicLock::unlock() noexcept {
  detail::unlock_reporting(kind_->core->config(), kind_->name, [&](const detail::Blocking& token) {
    async_unlock(OwnerId::current_thread(), token);
  });
}

ListenerId BasicLock::add_listener(ObjectEvent event, KeyListener listener) const {
  return async_add_listener(event, std::move(listener),
                            detail::blocking("add_listener", kind_->name));
}

bool BasicLock::remove_listener(ListenerId id) const {
  return async_remove_listener(id, detail::blocking("remove_listener", kind_->name));
}

void BasicLock::start_listen(const std::shared_ptr<detail::LockKind>& kind, ObjectEvent event,
                             const KeyListener& listener, detail::Done<ListenerId> done) {
  detail::start_object_listen(kind->core, "Lock", kind->name, event, listener, std::move(done));
}

void BasicLock::start_unlisten(const std::shared_ptr<detail::LockKind>& kind, ListenerId id,
                               detail::Done<bool> done) {
  detail::start_listener_remove(kind->core, id, std::move(done));
}

bool BasicLock::force_unlock() {
  return async_force_unlock(detail::blocking("force_unlock", kind_->name));
}

bool BasicLock::is_locked() const {
  return async_is_locked(detail::blocking("is_locked", kind_->name));
}

bool BasicLock::is_held_by_current_thread() const { return hold_count() > 0; }

int BasicLock::hold_count() const {
  return static_cast<int>(
      async_hold_count(OwnerId::current_thread(), detail::blocking("hold_count", kind_->name)));
}

BasicLock::milliseconds BasicLock::remaining_lease() const {
  return detail::async_op<milliseconds>(
      core(), detail::blocking("remaining_lease", kind_->name),
      [kind = kind_](detail::Done<milliseconds> done) { kind->remaining_lease(std::move(done)); });
}

bool BasicLock::lost() const { return lost(OwnerId::current_thread()); }

bool BasicLock::lost(OwnerId owner) const { return kind_->was_lost(owner); }

void BasicLock::on_lost(std::function<void(OwnerId owner)> callback) {
  kind_->set_on_lost(std::move(callback));
}

}  // namespace redisson
