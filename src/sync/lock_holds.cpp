#include "sync/lock_holds.hpp"

#include <functional>
#include <mutex>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "sync/lua_scripts.hpp"
#include "watchdog/watchdog.hpp"

namespace redisson::detail {

std::error_code check_acquire_arguments(std::optional<std::chrono::milliseconds> wait,
                                        std::optional<std::chrono::milliseconds> lease) {
  if (wait && wait->count() < 0) return make_error_code(errc::invalid_argument);
  if (lease && lease->count() <= 0) return make_error_code(errc::invalid_argument);
  return {};
}

void register_hold(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                   std::chrono::milliseconds lease, bool watchdog) {
  lock->remember_lease(owner, lease);
  if (!watchdog) return;
  std::weak_ptr<LockState> weak = lock;
  lock->core->watchdog().add(lock_renew_script(), lock->name, lock->owner_field(owner),
                             [weak, owner] {
                               auto state = weak.lock();
                               if (!state) return;
                               state->forget_lease(owner);
                               std::function<void(std::uint64_t)> callback;
                               {
                                 std::lock_guard guard(state->mutex);
                                 callback = state->on_lost;
                               }
                               if (callback) callback(owner);
                             });
}

void complete_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::error_code ec, const Reply& reply, VoidCallback done) {
  if (ec) return done(ec);
  auto& watchdog = lock->core->watchdog();
  const auto field = lock->owner_field(owner);
  if (reply.is_null()) {
    watchdog.remove(lock->name, field, /*all=*/true);
    lock->forget_lease(owner);
    return done(make_error_code(errc::not_owner));
  }
  const bool released = reply.integer == 1;
  watchdog.remove(lock->name, field, /*all=*/released);
  if (released) lock->forget_lease(owner);
  done({});
}

void undo_acquisition(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::chrono::milliseconds lease, UniqueFunction<void(std::error_code)> done) {
  static const Script unlock{std::string(lua::lock_unlock)};
  const auto latch = lock->latch_prefix + ":" + make_request_id();
  Command command{"EVALSHA", unlock.sha1(), "3", lock->name, lock->channel, latch, "0"};
  command.arg(static_cast<std::int64_t>(lease.count()))
      .arg(lock->owner_field(owner))
      .arg(lock->publish_command)
      .arg(static_cast<std::int64_t>(lock->unlock_latch_lifetime().count()))
      .arg("1");
  lock->core->eval(unlock, std::move(command),
                   [done = std::move(done)](std::error_code, const Reply&) mutable {
                     done(make_error_code(errc::not_replicated));
                   });
}

std::int64_t wall_clock_ms() noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void complete_acquire_attempt(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                              std::chrono::milliseconds lease, std::error_code ec,
                              const Reply& reply, AttemptCallback callback) {
  if (ec == errc::not_replicated) {
    if (reply.is_null()) {
      return undo_acquisition(lock, owner, lease,
                              [callback = std::move(callback)](std::error_code undone) mutable {
                                callback(undone, {});
                              });
    }
    ec = {};  // not acquired: this attempt wrote nothing a replica needs
  }
  if (ec) return callback(ec, {});
  if (reply.is_null()) return callback({}, AttemptResult{true, {}});
  if (reply.integer == -3) return callback(make_error_code(errc::already_held), {});
  callback({}, AttemptResult{false, std::chrono::milliseconds(reply.integer)});
}

}  // namespace redisson::detail
