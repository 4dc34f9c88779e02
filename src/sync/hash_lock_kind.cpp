#include "sync/hash_lock_kind.hpp"

#include "lua_scripts.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson::detail {
namespace {

// The acquire script's reply when a non-re-entrant lock's holder asks again.
constexpr std::int64_t kAlreadyHeld = -3;

}  // namespace

HashLockKind::HashLockKind(std::shared_ptr<ClientCore> core_in, std::string name_in, bool reentrant)
    : LockKind(std::move(core_in), std::move(name_in), "redisson_lock__channel"),
      reentrant_(reentrant) {}

ScriptCall HashLockKind::attempt_call(const AcquireRequest& request,
                                      std::optional<std::int64_t> reset) const {
  const auto& script = reentrant_ ? lua::lock_acquire : lua::lock_acquire_once;
  auto call = script({name}, {static_cast<std::int64_t>(request.lease.count()), request.field});
  if (reset) call.command.arg(*reset);
  return call;
}

AttemptReply HashLockKind::read_attempt(const Reply& reply) const {
  if (reply.is_null()) return AttemptReply{{}, true};
  if (reply.integer == kAlreadyHeld) return AttemptReply{errc::already_held};
  return AttemptReply{{}, false, std::chrono::milliseconds(reply.integer)};
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
