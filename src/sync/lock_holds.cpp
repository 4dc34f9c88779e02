#include "sync/lock_holds.hpp"

#include <functional>
#include <mutex>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "watchdog/hold_ledger.hpp"
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
  register_hold(lock, owner, lock->owner_field(owner), lease, watchdog);
}

void register_hold(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                   const std::string& field, std::chrono::milliseconds lease, bool watchdog) {
  lock->remember_lease(owner, lease);
  lock->core->holds().acquired(lock->name, field);
  if (!watchdog) return;
  std::weak_ptr<LockState> weak = lock;
  lock->core->watchdog().add(lock_renew_script(), lock->name, field, [weak, owner] {
    auto state = weak.lock();
    if (!state) return;
    state->forget_lease(owner);
    state->core->holds().forget(state->name, state->owner_field(owner));
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
    lock->core->holds().forget(lock->name, field);
    return done(make_error_code(errc::not_owner));
  }
  const bool released = reply.integer == 1;
  watchdog.remove(lock->name, field, /*all=*/released);
  if (released) lock->forget_lease(owner);
  lock->core->holds().released(lock->name, field, released);
  done({});
}

std::optional<std::int64_t> reset_count(const LockState& lock, std::string_view field) {
  return lock.core->holds().reset_count(lock.name, field);
}

void note_attempt(const LockState& lock, std::uint64_t owner, std::error_code ec, bool acquired,
                  bool reset_sent) {
  if (ec == errc::timeout || ec == errc::connection_lost) {
    // The script may have run: the server may count a hold this client never learns of.
    lock.core->holds().reply_lost(lock.name, lock.owner_field(owner));
  } else if (!ec && acquired && reset_sent) {
    lock.core->holds().reconciled(lock.name, lock.owner_field(owner));
  }
}

void undo_acquisition(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::chrono::milliseconds lease, UniqueFunction<void(std::error_code)> done) {
  static const Script unlock{std::string(lua::lock_unlock.source)};
  const auto latch = lock->latch_prefix + ":" + make_request_id();
  Command command{"EVALSHA", unlock.sha1(), "3", lock->name, lock->channel, latch, "0"};
  command.arg(static_cast<std::int64_t>(lease.count()))
      .arg(lock->owner_field(owner))
      .arg(lock->publish_command)
      .arg(static_cast<std::int64_t>(lock->unlock_latch_lifetime().count()))
      .arg("1");
  lock->core->eval(unlock, std::move(command),
                   [lock, owner, done = std::move(done)](std::error_code ec, const Reply&) mutable {
                     // An undo that may not have run leaves a hold the ledger must not trust.
                     if (ec) lock->core->holds().reply_lost(lock->name, lock->owner_field(owner));
                     done(make_error_code(errc::not_replicated));
                   });
}

std::int64_t wall_clock_ms() noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

// Completes one attempt of Lock's acquire script: nil = acquired, -3 = a non-re-entrant lock's
// holder asked again (errc::already_held), otherwise the lock's PTTL. An acquisition no replica
// acknowledged (Config::sync_replicas) is undone first. `reset_sent`: the attempt carried
// reset_count().
void complete_acquire_attempt(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                              std::chrono::milliseconds lease, bool reset_sent, std::error_code ec,
                              const Reply& reply, AttemptCallback callback) {
  note_attempt(*lock, owner, ec, !ec && reply.is_null(), reset_sent);
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

}  // namespace

Attempt make_acquire_attempt(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                             std::string field, std::chrono::milliseconds lease) {
  static const Script reentrant{std::string(lua::lock_acquire.source)};
  static const Script once{std::string(lua::lock_acquire_once.source)};
  return [lock, owner, field = std::move(field), lease](AttemptCallback callback) {
    const Script& script = lock->reentrant ? reentrant : once;
    Command command{"EVALSHA", script.sha1(), "1", lock->name};
    command.arg(static_cast<std::int64_t>(lease.count())).arg(field);
    const auto reset = reset_count(*lock, field);
    if (reset) command.arg(*reset);
    lock->core->eval(
        script, std::move(command),
        [lock, owner, lease, reset_sent = reset.has_value(), callback = std::move(callback)](
            std::error_code ec, const Reply& reply) mutable {
          complete_acquire_attempt(lock, owner, lease, reset_sent, ec, reply, std::move(callback));
        },
        ReplicaWait::require);
  };
}

}  // namespace redisson::detail
