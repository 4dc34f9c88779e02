#include "sync/hash_lock_kind.hpp"

#include "lua_scripts.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {
namespace {

// How long a free lock waits for its longest waiter before a younger one may take it
// (lock_acquire_in_turn.lua). A live waiter hears the release within a wake-up and a round trip
// (well under a millisecond on an idle machine, a few on a loaded one); the grace is spent only
// when the longest waiter is gone or stalled.
constexpr std::chrono::microseconds kTurnGrace{5000};

}  // namespace

HashLockKind::HashLockKind(std::shared_ptr<ClientCore> core_in, std::string name_in, bool reentrant,
                           bool waiters_take_turns)
    : LockKind(std::move(core_in), std::move(name_in), "redisson_lock__channel"),
      reentrant_(reentrant),
      waiters_take_turns_(waiters_take_turns) {}

bool HashLockKind::takes_turns(const AcquireRequest& request) const {
  return waiters_take_turns_ && (!request.wait || request.wait->count() > 0);
}

std::string HashLockKind::waiters_key() const { return prefix_name("redisson_lock_waiters", name); }

ScriptCall HashLockKind::attempt_call(const AcquireRequest& request,
                                      std::optional<std::int64_t> reset) const {
  if (takes_turns(request) && request.attempts_sent > 0) {
    const auto waited =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - request.started);
    auto call = lua::lock_acquire_in_turn(
        {name, waiters_key(), prefix_name("redisson_lock_waiters_late", name)},
        {static_cast<std::int64_t>(request.lease.count()), request.field,
         static_cast<std::int64_t>(waited.count()), static_cast<std::int64_t>(kTurnGrace.count()),
         reentrant_ ? "1" : "0"});
    if (reset) call.command.arg(*reset);
    return call;
  }
  const auto& script = reentrant_ ? lua::lock_acquire : lua::lock_acquire_once;
  auto call = script({name}, {static_cast<std::int64_t>(request.lease.count()), request.field});
  if (reset) call.command.arg(*reset);
  return call;
}

AttemptReply HashLockKind::read_attempt(const Reply& reply) const {
  if (reply.is_null()) return AttemptReply{{}, true};
  if (reply.integer == kAcquireAlreadyHeld) return AttemptReply{errc::already_held};
  if (reply.type == ReplyType::array) {
    // lock_acquire_in_turn.lua: {sleep, ahead}.
    if (reply.elements.size() != 2) return AttemptReply{errc::protocol_error};
    AttemptReply outcome{{}, false, std::chrono::milliseconds(reply.elements[0].integer)};
    outcome.ahead = reply.elements[1].integer;
    return outcome;
  }
  return AttemptReply{{}, false, std::chrono::milliseconds(reply.integer)};
}

AcquireLoop::Options HashLockKind::loop_options(const AcquireRequest& request) const {
  auto options = LockKind::loop_options(request);
  if (takes_turns(request)) options.policy = LockTurnsPolicy{};
  return options;
}

// A waiter that stops waiting leaves the order, so that the next free turn is not held for it.
// Best effort, and the caller does not wait for it (a timed-out wait returns at its deadline, a
// lost server is reported at once): an entry left behind costs one grace, after which a younger
// waiter drops it.
GiveUp HashLockKind::give_up(const AcquireRequest& request) const {
  if (!takes_turns(request)) return nullptr;
  return [self = shared_from_this(), field = request.field](UniqueFunction<void()> finished) {
    const auto& kind = static_cast<const HashLockKind&>(*self);
    kind.core->submit(Command{"ZREM", kind.waiters_key(), field},
                      [](std::error_code, const Reply&) {});
    finished();
  };
}

std::int64_t HashLockKind::latch_lifetime_ms() const {
  return static_cast<std::int64_t>(retry_latch_lifetime(core->config()).count());
}

ScriptCall HashLockKind::unlock_call(const UnlockRequest& request, bool first) const {
  return lua::lock_unlock({name, channel, request.latch},
                          {"0", static_cast<std::int64_t>(request.lease.count()), request.field,
                           publish_command, latch_lifetime_ms(), first ? "1" : "0"});
}

// lock_unlock.lua: nil = not the owner, 0 = one hold released, 1 + r = fully released with the
// message reaching r subscribers. (spin_lock_unlock.lua answers 1 for a full release: r = 0.)
UnlockReply HashLockKind::read_unlock(const Reply& reply) const {
  if (reply.is_null()) return UnlockReply{true, {}};
  const bool fully = reply.integer >= 1;
  return UnlockReply{false, HoldRegistry::Released{fully, std::nullopt},
                     fully ? reply.integer - 1 : 0};
}

void HashLockKind::force_release(Done<bool> done) {
  core->eval(lua::lock_force_unlock({name, channel}, {"0", publish_command}),
             [self = shared_from_this(), done = std::move(done)](std::error_code ec,
                                                                 const Reply& reply) mutable {
               static_cast<HashLockKind&>(*self).complete_force_release(ec, reply, std::move(done));
             });
}

}  // namespace redisson::detail
