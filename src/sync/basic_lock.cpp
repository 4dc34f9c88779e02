#include "redisson/basic_lock.hpp"

#include "client/failure_report.hpp"
#include "sync/lock_kind.hpp"

namespace redisson {

const std::string& BasicLock::name() const noexcept { return kind_->name; }

const std::shared_ptr<detail::ClientCore>& BasicLock::core() const noexcept { return kind_->core; }

std::string BasicLock::owner_field(OwnerId owner) const { return kind_->owner_field(owner); }

void BasicLock::start_acquire_token(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                                    std::optional<milliseconds> wait,
                                    std::optional<milliseconds> lease,
                                    detail::CancellationPtr cancel,
                                    detail::Done<std::optional<std::int64_t>> done) {
  kind->acquire(owner, wait, lease, std::move(cancel), std::move(done));
}

void BasicLock::start_acquire(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                              std::optional<milliseconds> wait, std::optional<milliseconds> lease,
                              detail::CancellationPtr cancel, detail::Done<bool> done) {
  kind->acquire(
      owner, wait, lease, std::move(cancel),
      [done = std::move(done)](detail::Status status, std::optional<std::int64_t> token) mutable {
        done(std::move(status), token.has_value());
      });
}

void BasicLock::start_release(const std::shared_ptr<detail::LockKind>& kind, OwnerId owner,
                              detail::Done<void> done) {
  kind->release(owner, std::move(done));
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

void BasicLock::lock() {
  async_lock(OwnerId::current_thread(), detail::blocking("lock", kind_->name));
}

void BasicLock::lock(milliseconds lease) {
  async_try_lock(OwnerId::current_thread(), std::nullopt, lease,
                 detail::blocking("lock", kind_->name));
}

bool BasicLock::try_lock() { return try_lock_ms(milliseconds{0}, std::nullopt); }

bool BasicLock::try_lock_ms(milliseconds wait, std::optional<milliseconds> lease) {
  return async_try_lock(OwnerId::current_thread(), wait, lease,
                        detail::blocking("try_lock", kind_->name));
}

void BasicLock::unlock(std::error_code& ec) noexcept {
  async_unlock(OwnerId::current_thread(), detail::blocking(ec, "unlock", kind_->name));
}

void BasicLock::unlock() noexcept {
  detail::Status status;
  try {
    async_unlock(OwnerId::current_thread(), detail::blocking(status, "unlock", kind_->name));
  } catch (const std::exception&) {
    status = detail::Status(make_error_code(errc::shutdown));  // could not even start (no memory)
  }
  if (!status) return;
  const auto failure = detail::Blocking("unlock", kind_->name, nullptr).to_error(status);
  detail::report_failure(kind_->core->config(), failure);
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
