#include "redisson/fair_lock.hpp"

#include <atomic>

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "lua_scripts.hpp"
#include "sync/lock_holds.hpp"
#include "sync/lock_state.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"
#include "watchdog/hold_ledger.hpp"

namespace redisson {
namespace detail {

/// What a FairLock handle shares with its copies: the Lock state of its hash (names, leases,
/// lost callback), the queue's names and the wait slot.
class FairLockState {
 public:
  FairLockState(std::shared_ptr<LockState> lock_in, std::chrono::milliseconds slot)
      : lock(std::move(lock_in)),
        queue(prefix_name("redisson_lock_queue", lock->name)),
        timeouts(prefix_name("redisson_lock_timeout", lock->name)),
        wait_slot_ms(slot.count()) {}

  /// The channel `owner` waits on: P(redisson_lock__channel, n):<owner field>.
  std::string waiter_channel(std::uint64_t owner) const {
    return lock->channel + ":" + lock->owner_field(owner);
  }
  std::chrono::milliseconds wait_slot() const {
    return std::chrono::milliseconds(wait_slot_ms.load(std::memory_order_relaxed));
  }

  const std::shared_ptr<LockState> lock;
  const std::string queue;     // P(redisson_lock_queue, n)
  const std::string timeouts;  // P(redisson_lock_timeout, n)
  std::atomic<std::int64_t> wait_slot_ms;
};

namespace {

// The acquire script's reply when a non-re-entrant lock's holder asks again.
constexpr std::int64_t kAlreadyHeld = -3;

const Script& acquire_script() {
  static const Script script{std::string(lua::fair_lock_acquire.source)};
  return script;
}
const Script& unlock_script() {
  static const Script script{std::string(lua::fair_lock_unlock.source)};
  return script;
}
const Script& force_unlock_script() {
  static const Script script{std::string(lua::fair_lock_force_unlock.source)};
  return script;
}
const Script& give_up_script() {
  static const Script script{std::string(lua::fair_lock_give_up.source)};
  return script;
}

// The fair unlock for one hold of `owner`, with `lease` re-applied when holds remain. The latch
// makes a retry of an unlock that did run return the first result instead of releasing a second
// hold. The wall-clock time is fixed once, so a retry sends the same bytes.
std::shared_ptr<Command> fair_unlock_command(const FairLockState& fair, std::uint64_t owner,
                                             std::chrono::milliseconds lease) {
  const auto& lock = fair.lock;
  const auto latch = lock->latch_prefix + ":" + make_request_id();
  auto command =
      std::make_shared<Command>(Command{"EVALSHA", unlock_script().sha1(), "5", lock->name,
                                        fair.queue, fair.timeouts, lock->channel, latch, "0"});
  command->arg(static_cast<std::int64_t>(lease.count()))
      .arg(lock->owner_field(owner))
      .arg(lock->publish_command)
      .arg(static_cast<std::int64_t>(lock->unlock_latch_lifetime().count()))
      .arg(wall_clock_ms());
  return command;
}

void undo_fair_acquisition(const std::shared_ptr<FairLockState>& fair, std::uint64_t owner,
                           std::chrono::milliseconds lease,
                           UniqueFunction<void(std::error_code)> done) {
  auto command = fair_unlock_command(*fair, owner, lease);
  fair->lock->core->eval(unlock_script(), *command,
                         [done = std::move(done)](std::error_code, const Reply&) mutable {
                           done(make_error_code(errc::not_replicated));
                         });
}

}  // namespace

asio::any_io_executor fair_lock_executor(const FairLockState& lock) {
  return lock.lock->core->executor();
}

void fair_lock_acquire(const std::shared_ptr<FairLockState>& fair, std::uint64_t owner,
                       std::optional<std::chrono::milliseconds> wait,
                       std::optional<std::chrono::milliseconds> lease, BoolCallback done) {
  if (auto ec = check_acquire_arguments(wait, lease)) return done(ec, false);
  const auto& lock = fair->lock;
  const auto lease_ms = lease.value_or(lock->core->config().lock_watchdog_timeout);
  const auto field = lock->owner_field(owner);
  // try_lock() (no wait) must not queue: a queued entry would make later arrivals wait for a
  // caller that has already left.
  const bool may_queue = !wait || wait->count() > 0;

  Attempt attempt = [fair, owner, field, lease_ms, may_queue](AttemptCallback callback) {
    const auto& lock = fair->lock;
    Command command{"EVALSHA",   acquire_script().sha1(), "3", lock->name,
                    fair->queue, fair->timeouts};
    command.arg(static_cast<std::int64_t>(lease_ms.count()))
        .arg(field)
        .arg(static_cast<std::int64_t>(fair->wait_slot().count()))
        .arg(wall_clock_ms())
        .arg(may_queue ? "1" : "0")
        .arg(lock->reentrant ? "1" : "0");
    const auto reset = reset_count(*lock, field);
    if (reset) command.arg(*reset);
    lock->core->eval(
        acquire_script(), std::move(command),
        [fair, owner, lease_ms, reset_sent = reset.has_value(), callback = std::move(callback)](
            std::error_code ec, const Reply& reply) mutable {
          note_attempt(*fair->lock, owner, ec, !ec && reply.is_null(), reset_sent);
          if (ec == errc::not_replicated) {
            if (reply.is_null()) {
              return undo_fair_acquisition(
                  fair, owner, lease_ms,
                  [callback = std::move(callback)](std::error_code undone) mutable {
                    callback(undone, {});
                  });
            }
            ec = {};  // not acquired: a queue place a failover may forget is harmless
          }
          if (ec) return callback(ec, {});
          if (reply.is_null()) return callback({}, AttemptResult{true, {}});
          if (reply.integer == kAlreadyHeld) {
            return callback(make_error_code(errc::already_held), {});
          }
          callback({}, AttemptResult{false, std::chrono::milliseconds(reply.integer)});
        },
        ReplicaWait::require);
  };

  // A waiter whose wait ran out leaves the queue, moving everyone behind it up one slot.
  GiveUp give_up;
  if (may_queue) {
    give_up = [fair, field](UniqueFunction<void()> finished) {
      const auto& lock = fair->lock;
      Command command{"EVALSHA",   give_up_script().sha1(), "4",          lock->name,
                      fair->queue, fair->timeouts,          lock->channel};
      command.arg(field)
          .arg(static_cast<std::int64_t>(fair->wait_slot().count()))
          .arg("0")
          .arg(lock->publish_command);
      // Sent again after a lost reply (leaving twice is a no-op: the second finds no entry). An
      // entry left behind would hold up everyone queued behind it for a whole wait slot (5
      // minutes by default), so a timeout under load must not be the end of it. Failing to
      // leave is still not the caller's error: the entry expires after its slot.
      eval_with_retry(
          lock->core, give_up_script(), std::make_shared<const Command>(std::move(command)),
          lock->core->config().retry_attempts,
          [finished = std::move(finished)](std::error_code, const Reply&) mutable { finished(); });
    };
  }

  AcquireLoop::Options options;
  options.channel = fair->waiter_channel(owner);
  if (wait) options.deadline = Clock::now() + *wait;
  const bool watchdog = !lease.has_value();
  AcquireLoop::start(
      lock->core, std::move(options), std::move(attempt),
      [lock, owner, lease_ms, watchdog, give_up, done = std::move(done)](std::error_code ec,
                                                                         bool acquired) mutable {
        if (!ec && acquired) register_hold(lock, owner, lease_ms, watchdog);
        // A waiter that failed (a lost connection, a subscription that timed out) leaves the
        // queue too, best effort: otherwise a release would be handed to it and everyone
        // behind it would wait out its slot.
        if (ec && give_up && ec != errc::already_held && ec != errc::shutdown) {
          auto finish = [ec, done = std::move(done)]() mutable { done(ec, false); };
          return give_up(std::move(finish));
        }
        done(ec, acquired);
      },
      give_up);
}

void fair_lock_release(const std::shared_ptr<FairLockState>& fair, std::uint64_t owner,
                       VoidCallback done) {
  const auto& lock = fair->lock;
  eval_with_retry(
      lock->core, unlock_script(), fair_unlock_command(*fair, owner, lock->lease_of(owner)),
      lock->core->config().retry_attempts,
      [lock, owner, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        complete_release(lock, owner, ec, reply, std::move(done));
      },
      ReplicaWait::wait);
}

void fair_lock_force_release(const std::shared_ptr<FairLockState>& fair, BoolCallback done) {
  const auto& lock = fair->lock;
  Command command{"EVALSHA",
                  force_unlock_script().sha1(),
                  "4",
                  lock->name,
                  fair->queue,
                  fair->timeouts,
                  lock->channel,
                  "0",
                  lock->publish_command};
  command.arg(wall_clock_ms());
  lock->core->eval(force_unlock_script(), std::move(command),
                   [lock, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                     if (!ec) lock->core->holds().forget_all(lock->name);
                     done(ec, !ec && reply.integer == 1);
                   });
}

}  // namespace detail

namespace {

std::chrono::milliseconds checked_slot(std::chrono::milliseconds slot) {
  if (slot.count() <= 0)
    throw error(errc::invalid_argument, "fair lock wait slot must be positive");
  return slot;
}

}  // namespace

FairLock::FairLock(std::shared_ptr<detail::ClientCore> core, std::string name, bool reentrant,
                   std::chrono::milliseconds wait_slot)
    : lock_(std::move(core), std::move(name), reentrant),
      state_(std::make_shared<detail::FairLockState>(lock_.state(), checked_slot(wait_slot))) {}

FairLock Client::get_fair_lock(std::string name) const {
  return FairLock(core_, std::move(name), /*reentrant=*/true,
                  core_->config().fair_lock_wait_timeout);
}

FairLock Client::get_non_reentrant_fair_lock(std::string name) const {
  return FairLock(core_, std::move(name), /*reentrant=*/false,
                  core_->config().fair_lock_wait_timeout);
}

void FairLock::set_wait_slot(std::chrono::milliseconds slot) {
  state_->wait_slot_ms.store(checked_slot(slot).count(), std::memory_order_relaxed);
}

std::chrono::milliseconds FairLock::wait_slot() const noexcept { return state_->wait_slot(); }

std::string FairLock::waiter_channel(std::uint64_t owner) const {
  return state_->waiter_channel(owner);
}

void FairLock::lock() {
  detail::wait_or_throw<bool>(
      *state_->lock->core,
      [&](detail::BoolCallback done) {
        detail::fair_lock_acquire(state_, detail::current_thread_owner_id(), std::nullopt,
                                  std::nullopt, std::move(done));
      },
      "lock '" + name() + "'");
}

void FairLock::lock(std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  detail::wait_or_throw<bool>(
      *state_->lock->core,
      [&](detail::BoolCallback done) {
        detail::fair_lock_acquire(state_, detail::current_thread_owner_id(), std::nullopt, lease,
                                  std::move(done));
      },
      "lock '" + name() + "'");
}

bool FairLock::try_lock() { return try_lock_ms(std::chrono::milliseconds{0}, std::nullopt); }

bool FairLock::try_lock_ms(std::chrono::milliseconds wait,
                           std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  return detail::wait_or_throw<bool>(
      *state_->lock->core,
      [&](detail::BoolCallback done) {
        detail::fair_lock_acquire(state_, detail::current_thread_owner_id(), wait, lease,
                                  std::move(done));
      },
      "try_lock '" + name() + "'");
}

void FairLock::unlock() {
  detail::wait_or_throw<bool>(
      *state_->lock->core,
      [&](detail::BoolCallback done) {
        detail::fair_lock_release(
            state_, detail::current_thread_owner_id(),
            [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "unlock '" + name() + "'");
}

bool FairLock::force_unlock() {
  return detail::wait_or_throw<bool>(
      *state_->lock->core,
      [&](detail::BoolCallback done) { detail::fair_lock_force_release(state_, std::move(done)); },
      "force_unlock '" + name() + "'");
}

}  // namespace redisson
