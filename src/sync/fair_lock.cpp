#include "redisson/fair_lock.hpp"

#include <atomic>

#include "client/client_access.hpp"
#include "lua_scripts.hpp"
#include "sync/hash_lock_kind.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson {
namespace detail {
namespace {

std::chrono::milliseconds checked_slot(std::chrono::milliseconds slot) {
  if (slot.count() <= 0) {
    throw error(errc::invalid_argument, "fair lock wait slot must be positive");
  }
  return slot;
}

// fair_lock_unlock.lua's replies: nil = held by others, 2 = it no longer existed (either way the
// caller held nothing), 0 = one hold released, 1 = fully released (only the queue head woken:
// nothing to yield to).
UnlockReply read_fair_unlock(const Reply& reply) {
  if (reply.is_null() || reply.integer == 2) return UnlockReply{true, {}};
  return UnlockReply{false, HoldRegistry::Released{reply.integer == 1, std::nullopt}};
}

// Redisson's RFairLock: Lock's hash, plus a queue of waiting owner fields and their deadlines.
// Each waiter sleeps on a channel of its own, and an unlock wakes only the queue's head.
class FairLockKind final : public LockKind {
 public:
  FairLockKind(std::shared_ptr<ClientCore> core, std::string name, bool reentrant,
               std::chrono::milliseconds slot)
      : LockKind(std::move(core), std::move(name), "redisson_lock__channel"),
        queue(prefix_name("redisson_lock_queue", this->name)),
        timeouts(prefix_name("redisson_lock_timeout", this->name)),
        wait_slot_ms(checked_slot(slot).count()),
        reentrant_(reentrant) {}

  std::chrono::milliseconds wait_slot() const {
    return std::chrono::milliseconds(wait_slot_ms.load(std::memory_order_relaxed));
  }
  /// The channel `field` waits on: P(redisson_lock__channel, n):<owner field>.
  std::string waiter_channel(const std::string& field) const { return channel + ":" + field; }

  void force_release(Done<bool> done) override {
    core->eval(lua::fair_lock_force_unlock({name, queue, timeouts, channel},
                                           {"0", publish_command, wall_clock_ms()}),
               [self = shared_from_this(), done = std::move(done)](std::error_code ec,
                                                                   const Reply& reply) mutable {
                 static_cast<FairLockKind&>(*self).complete_force_release(ec, reply,
                                                                          std::move(done));
               });
  }

  const std::string queue;     // P(redisson_lock_queue, n)
  const std::string timeouts;  // P(redisson_lock_timeout, n)
  std::atomic<std::int64_t> wait_slot_ms;

 protected:
  // try_lock() (no wait) must not queue: a queued entry would make later arrivals wait for a
  // caller that has already left.
  static bool may_queue(const AcquireRequest& request) {
    return !request.wait || request.wait->count() > 0;
  }

  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> reset) const override {
    auto call = lua::fair_lock_acquire(
        {name, queue, timeouts}, {static_cast<std::int64_t>(request.lease.count()), request.field,
                                  static_cast<std::int64_t>(wait_slot().count()), wall_clock_ms(),
                                  may_queue(request) ? "1" : "0", reentrant_ ? "1" : "0"});
    if (reset) call.command.arg(*reset);
    return call;
  }
  AttemptReply read_attempt(const Reply& reply) const override {
    if (reply.is_null()) return AttemptReply{{}, true};
    if (reply.integer == kAcquireAlreadyHeld) return AttemptReply{errc::already_held};
    return AttemptReply{{}, false, std::chrono::milliseconds(reply.integer)};
  }
  AcquireLoop::Options loop_options(const AcquireRequest& request) const override {
    AcquireLoop::Options options;
    options.channel = waiter_channel(request.field);
    options.policy = FairLockPolicy{};
    return options;
  }
  // A waiter whose wait ran out leaves the queue, moving everyone behind it up one slot.
  GiveUp give_up(const AcquireRequest& request) const override {
    if (!may_queue(request)) return nullptr;
    return [self = std::static_pointer_cast<const FairLockKind>(shared_from_this()),
            field = request.field](UniqueFunction<void()> finished) {
      // Sent again after a lost reply (leaving twice is a no-op: the second finds no entry). An
      // entry left behind would hold up everyone queued behind it for a whole wait slot (5
      // minutes by default), so a timeout under load must not be the end of it. Failing to
      // leave is still not the caller's error: the entry expires after its slot.
      eval_with_retry(
          self->core,
          lua::fair_lock_give_up({self->name, self->queue, self->timeouts, self->channel},
                                 {field, static_cast<std::int64_t>(self->wait_slot().count()), "0",
                                  self->publish_command}),
          self->core->config().retry_attempts,
          [finished = std::move(finished)](std::error_code, const Reply&) mutable { finished(); });
    };
  }
  ScriptCall unlock_call(const UnlockRequest& request, bool /*first*/) const override {
    return lua::fair_lock_unlock(
        {name, queue, timeouts, channel, request.latch},
        {"0", static_cast<std::int64_t>(request.lease.count()), request.field, publish_command,
         static_cast<std::int64_t>(retry_latch_lifetime(core->config()).count()),
         request.wall_clock_ms});
  }
  UnlockReply read_unlock(const Reply& reply) const override { return read_fair_unlock(reply); }
  // The unlock sent again on a new master (release_replay.hpp), then the owner leaves the queue
  // there. A failover may keep an entry the old master had dropped: the owner queued before the
  // replica's promotion and took the lock on the old master after it. On the new master that
  // entry then stands in line for an owner who is not waiting, for a whole wait slot (5
  // minutes by default): everyone behind it waits that long, or until the owner tries this lock
  // again (seen in the chaos runs: a fair lock stalled 6 s after a Sentinel failover, until the
  // owner came back to it). The owner is not waiting on this lock now (its repeats are dropped
  // when it tries the lock again), so the entry, if there is one, is stale; leaving wakes the
  // waiter behind it when it was the head. An owner that tries this lock again just after the
  // switch, on another connection, may lose its place in line (its next attempt queues it
  // again): never a stall.
  void resend_unlock(const UnlockRequest& request) override {
    LockKind::resend_unlock(request);
    core->eval(
        lua::fair_lock_give_up(
            {name, queue, timeouts, channel},
            {request.field, static_cast<std::int64_t>(wait_slot().count()), "0", publish_command}),
        [](std::error_code, const Reply&) {});
  }

 private:
  const bool reentrant_;
};

std::shared_ptr<FairLockKind> make_kind(const Client& client, std::string name, bool reentrant,
                                        std::optional<std::chrono::milliseconds> slot) {
  const auto& core = ClientAccess::core(client);
  return std::make_shared<FairLockKind>(core, std::move(name), reentrant,
                                        slot.value_or(core->config().fair_lock_wait_timeout));
}

}  // namespace
}  // namespace detail

FairLock::FairLock(const Client& client, std::string name)
    : BasicLock(detail::make_kind(client, std::move(name), true, std::nullopt)) {}

FairLock::FairLock(const Client& client, std::string name, NonReentrant)
    : BasicLock(detail::make_kind(client, std::move(name), false, std::nullopt)) {}

FairLock::FairLock(const Client& client, std::string name, milliseconds wait_slot)
    : BasicLock(detail::make_kind(client, std::move(name), true, wait_slot)) {}

void FairLock::set_wait_slot(milliseconds slot) {
  static_cast<detail::FairLockKind&>(*kind()).wait_slot_ms.store(detail::checked_slot(slot).count(),
                                                                 std::memory_order_relaxed);
}

FairLock::milliseconds FairLock::wait_slot() const noexcept {
  return static_cast<const detail::FairLockKind&>(*kind()).wait_slot();
}

std::string FairLock::waiter_channel(OwnerId owner) const {
  return static_cast<const detail::FairLockKind&>(*kind()).waiter_channel(owner_field(owner));
}

}  // namespace redisson
