#include "redisson/spin_lock.hpp"

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/lock_holds.hpp"
#include "sync/lock_state.hpp"
#include "lua_scripts.hpp"
#include "sync/retry.hpp"
#include "watchdog/hold_ledger.hpp"


namespace redisson {
namespace detail {
namespace {

// Lock's acquire scripts: the spin lock differs only in how it waits and that it publishes
// nothing.
const Script& unlock_script() {
  static const Script script{std::string(lua::spin_lock_unlock.source)};
  return script;
}

}  // namespace

void spin_lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                       std::optional<std::chrono::milliseconds> wait,
                       std::optional<std::chrono::milliseconds> lease, BoolCallback done) {
  if (auto ec = check_acquire_arguments(wait, lease)) return done(ec, false);
  const auto lease_ms = lease.value_or(lock->core->config().lock_watchdog_timeout);
  const auto field = lock->owner_field(owner);

  Attempt attempt = make_acquire_attempt(lock, owner, field, lease_ms);

  AcquireLoop::Options options;
  options.poll = PollBackoff{};
  if (wait) options.deadline = Clock::now() + *wait;
  const bool watchdog = !lease.has_value();
  AcquireLoop::start(lock->core, std::move(options), std::move(attempt),
                     [lock, owner, lease_ms, watchdog, done = std::move(done)](
                         std::error_code ec, bool acquired) mutable {
                       if (!ec && acquired) register_hold(lock, owner, lease_ms, watchdog);
                       done(ec, acquired);
                     });
}

void spin_lock_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                       VoidCallback done) {
  // The latch makes a retry of an unlock that did run return the first result.
  auto latch = lock->unlock_latch_prefix();
  append_request_id(latch);
  const auto lease_ms = static_cast<std::int64_t>(lock->lease_of(owner).count());
  // ARGV[4]: "1" on the first attempt (no latch to read yet), "0" on a retry.
  auto make_command = [lock, latch = std::move(latch), lease_ms,
                       field = lock->owner_field(owner)](bool first) {
    return Command{"EVALSHA", unlock_script().sha1(), "2", lock->name, latch}
        .arg(lease_ms)
        .arg(field)
        .arg(static_cast<std::int64_t>(lock->unlock_latch_lifetime().count()))
        .arg(first ? "1" : "0");
  };
  auto first = make_command(true);
  eval_first_then_retry(
      lock->core, unlock_script(), std::move(first),
      [make_command = std::move(make_command)] { return make_command(false); },
      lock->core->config().retry_attempts,
      [lock, owner, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        complete_release(lock, owner, ec, reply, std::move(done));
      },
      ReplicaWait::wait);
}

void spin_lock_force_release(const std::shared_ptr<LockState>& lock, BoolCallback done) {
  lock->core->submit(
      Command{"DEL", lock->name},
      [lock, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        if (!ec) lock->core->holds().forget_all(lock->name);
        done(ec, !ec && reply.integer == 1);
      });
}

}  // namespace detail

SpinLock::SpinLock(std::shared_ptr<detail::ClientCore> core, std::string name)
    : lock_(std::move(core), std::move(name)) {}

SpinLock Client::get_spin_lock(std::string name) const { return SpinLock(core_, std::move(name)); }

void SpinLock::lock() {
  const auto& state = lock_.state();
  detail::wait_or_throw<bool>(
      *state->core,
      [&](detail::BoolCallback done) {
        detail::spin_lock_acquire(state, detail::current_thread_owner_id(), std::nullopt,
                                  std::nullopt, std::move(done));
      },
      "lock '" + name() + "'");
}

void SpinLock::lock(std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  const auto& state = lock_.state();
  detail::wait_or_throw<bool>(
      *state->core,
      [&](detail::BoolCallback done) {
        detail::spin_lock_acquire(state, detail::current_thread_owner_id(), std::nullopt, lease,
                                  std::move(done));
      },
      "lock '" + name() + "'");
}

bool SpinLock::try_lock() { return try_lock_ms(std::chrono::milliseconds{0}, std::nullopt); }

bool SpinLock::try_lock_ms(std::chrono::milliseconds wait,
                           std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  const auto& state = lock_.state();
  return detail::wait_or_throw<bool>(
      *state->core,
      [&](detail::BoolCallback done) {
        detail::spin_lock_acquire(state, detail::current_thread_owner_id(), wait, lease,
                                  std::move(done));
      },
      "try_lock '" + name() + "'");
}

void SpinLock::unlock() {
  const auto& state = lock_.state();
  detail::wait_or_throw<bool>(
      *state->core,
      [&](detail::BoolCallback done) {
        detail::spin_lock_release(
            state, detail::current_thread_owner_id(),
            [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "unlock '" + name() + "'");
}

bool SpinLock::force_unlock() {
  const auto& state = lock_.state();
  return detail::wait_or_throw<bool>(
      *state->core,
      [&](detail::BoolCallback done) { detail::spin_lock_force_release(state, std::move(done)); },
      "force_unlock '" + name() + "'");
}

}  // namespace redisson
