#include "redisson/lock.hpp"

#include <atomic>
#include <charconv>

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/lock_holds.hpp"
#include "sync/lock_state.hpp"
#include "lua_scripts.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"
#include "watchdog/hold_ledger.hpp"
#include "watchdog/watchdog.hpp"

namespace redisson {
namespace detail {
namespace {

const Script& unlock_script() {
  static const Script script{std::string(lua::lock_unlock.source)};
  return script;
}
const Script& force_unlock_script() {
  static const Script script{std::string(lua::lock_force_unlock.source)};
  return script;
}

// The unlock's reply: nil = not the owner, 0 = still held, 1 = released.
void on_unlock_reply(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                     const std::string& field, std::error_code ec, const Reply& reply,
                     VoidCallback& done) {
  if (ec) return done(ec);
  auto& watchdog = lock->core->watchdog();
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

}  // namespace

LockState::LockState(std::shared_ptr<ClientCore> core_in, std::string name_in, bool reentrant_in)
    : core(std::move(core_in)),
      name(std::move(name_in)),
      channel(prefix_name("redisson_lock__channel", name)),
      latch_prefix(prefix_name("redisson_unlock_latch", name)) {
  reentrant = reentrant_in;
}

std::string LockState::owner_field(std::uint64_t owner) const {
  // Sized once: this runs on every acquire and unlock.
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, owner).ptr;
  std::string field;
  field.reserve(core->id().size() + 1 + static_cast<std::size_t>(end - digits));
  field.append(core->id()).append(1, ':').append(digits, end);
  return field;
}

std::string LockState::unlock_latch_prefix() const {
  std::string latch;
  latch.reserve(latch_prefix.size() + 1 + 32);  // ":" and a request id
  latch.append(latch_prefix).append(1, ':');
  return latch;
}

std::chrono::milliseconds LockState::lease_of(std::uint64_t owner) const {
  std::lock_guard guard(leases_mutex_);
  const auto it = leases_.find(owner);
  return it == leases_.end() ? core->config().lock_watchdog_timeout : it->second;
}

void LockState::remember_lease(std::uint64_t owner, std::chrono::milliseconds lease) {
  std::lock_guard guard(leases_mutex_);
  leases_[owner] = lease;
}

void LockState::forget_lease(std::uint64_t owner) {
  std::lock_guard guard(leases_mutex_);
  leases_.erase(owner);
}

std::chrono::milliseconds LockState::unlock_latch_lifetime() const {
  return retry_latch_lifetime(core->config());
}

std::uint64_t current_thread_owner_id() noexcept {
  static std::atomic<std::uint64_t> next{1};
  thread_local const std::uint64_t id = next.fetch_add(1);
  return id;
}

asio::any_io_executor lock_executor(const LockState& lock) { return lock.core->executor(); }

void lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                  std::optional<std::chrono::milliseconds> wait,
                  std::optional<std::chrono::milliseconds> lease, BoolCallback done) {
  if (wait && wait->count() < 0) return done(make_error_code(errc::invalid_argument), false);
  if (lease && lease->count() <= 0) return done(make_error_code(errc::invalid_argument), false);
  const auto lease_ms = lease.value_or(lock->core->config().lock_watchdog_timeout);
  const auto field = lock->owner_field(owner);

  Attempt attempt = make_acquire_attempt(lock, owner, field, lease_ms);

  AcquireLoop::Options options;
  options.channel = lock->channel;
  if (wait) options.deadline = Clock::now() + *wait;
  const bool watchdog = !lease.has_value();
  AcquireLoop::start(lock->core, std::move(options), std::move(attempt),
                     [lock, owner, field, lease_ms, watchdog, done = std::move(done)](
                         std::error_code ec, bool acquired) mutable {
                       // Registered on the I/O thread before anyone learns of the hold, so no
                       // renewal round can miss it.
                       if (!ec && acquired) register_hold(lock, owner, field, lease_ms, watchdog);
                       done(ec, acquired);
                     });
}

// The unlock script's call; `first` says whether this is the request's first attempt (ARGV[6]).
Command unlock_command(const LockState& lock, std::string_view latch, std::int64_t lease_ms,
                       std::string_view field, bool first) {
  return Command{"EVALSHA", unlock_script().sha1(), "3", lock.name, lock.channel, latch, "0"}
      .arg(lease_ms)
      .arg(field)
      .arg(lock.publish_command)
      .arg(static_cast<std::int64_t>(lock.unlock_latch_lifetime().count()))
      .arg(first ? "1" : "0");
}

void lock_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner, VoidCallback done) {
  // The latch key makes a retry of an unlock that did run return the first result instead
  // of releasing a second hold.
  auto latch = lock->unlock_latch_prefix();
  append_request_id(latch);
  const auto lease_ms = static_cast<std::int64_t>(lock->lease_of(owner).count());
  auto field = lock->owner_field(owner);
  auto first = unlock_command(*lock, latch, lease_ms, field, /*first=*/true);
  auto make_retry = [lock, latch = std::move(latch), lease_ms, field] {
    return unlock_command(*lock, latch, lease_ms, field, /*first=*/false);
  };
  eval_first_then_retry(
      lock->core, unlock_script(), std::move(first), std::move(make_retry),
      lock->core->config().retry_attempts,
      [lock, owner, field = std::move(field), done = std::move(done)](std::error_code ec,
                                                                      Reply reply) mutable {
        on_unlock_reply(lock, owner, field, ec, reply, done);
      },
      ReplicaWait::wait);
}

void lock_force_release(const std::shared_ptr<LockState>& lock, BoolCallback done) {
  Command command{"EVALSHA", force_unlock_script().sha1(), "2", lock->name, lock->channel,
                  "0",       lock->publish_command};
  lock->core->eval(force_unlock_script(), std::move(command),
                   [lock, done = std::move(done)](std::error_code ec, Reply reply) mutable {
                     if (!ec) lock->core->holds().forget_all(lock->name);
                     done(ec, !ec && reply.integer == 1);
                   });
}

void lock_hold_count(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                     IntCallback done) {
  lock->core->submit(Command{"HGET", lock->name, lock->owner_field(owner)},
                     [done = std::move(done)](std::error_code ec, Reply reply) mutable {
                       if (ec || reply.is_null()) return done(ec, 0);
                       std::int64_t holds = 0;
                       const auto* end = reply.str.data() + reply.str.size();
                       if (std::from_chars(reply.str.data(), end, holds).ptr != end) {
                         return done(make_error_code(errc::wrong_type), 0);  // not a lock hash
                       }
                       done({}, holds);
                     });
}

}  // namespace detail

namespace {

Reply query(detail::ClientCore& core, const Command& command, const std::string& context) {
  return detail::wait_or_throw<Reply>(
      core, [&](detail::ReplyCallback callback) { core.submit(command, std::move(callback)); },
      context);
}

}  // namespace

Lock::Lock(std::shared_ptr<detail::ClientCore> core, std::string name, bool reentrant) {
  if (name.empty()) throw error(errc::invalid_argument, "a lock name must not be empty");
  state_ = std::make_shared<detail::LockState>(std::move(core), std::move(name), reentrant);
}

Lock Client::get_non_reentrant_lock(std::string name) const {
  return Lock(core_, std::move(name), /*reentrant=*/false);
}

const std::string& Lock::name() const noexcept { return state_->name; }

std::string Lock::owner_field(std::uint64_t owner) const { return state_->owner_field(owner); }

void Lock::lock() {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::lock_acquire(state_, detail::current_thread_owner_id(), std::nullopt, std::nullopt,
                             std::move(done));
      },
      "lock '" + state_->name + "'");
}

void Lock::lock(std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::lock_acquire(state_, detail::current_thread_owner_id(), std::nullopt, lease,
                             std::move(done));
      },
      "lock '" + state_->name + "'");
}

bool Lock::try_lock() { return try_lock_ms(std::chrono::milliseconds{0}, std::nullopt); }

bool Lock::try_lock_ms(std::chrono::milliseconds wait,
                       std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::lock_acquire(state_, detail::current_thread_owner_id(), wait, lease,
                             std::move(done));
      },
      "try_lock '" + state_->name + "'");
}

void Lock::unlock() {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::lock_release(
            state_, detail::current_thread_owner_id(),
            [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "unlock '" + state_->name + "'");
}

bool Lock::force_unlock() {
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) { detail::lock_force_release(state_, std::move(done)); },
      "force_unlock '" + state_->name + "'");
}

bool Lock::is_locked() const {
  return query(*state_->core, Command{"EXISTS", state_->name}, "is_locked").integer == 1;
}

bool Lock::is_held_by_current_thread() const {
  const auto field = state_->owner_field(detail::current_thread_owner_id());
  return query(*state_->core, Command{"HEXISTS", state_->name, field}, "is_held_by_current_thread")
             .integer == 1;
}

int Lock::hold_count() const {
  return static_cast<int>(detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) {
        detail::lock_hold_count(state_, detail::current_thread_owner_id(), std::move(done));
      },
      "hold_count"));
}

std::chrono::milliseconds Lock::remaining_lease() const {
  return std::chrono::milliseconds(
      query(*state_->core, Command{"PTTL", state_->name}, "remaining_lease").integer);
}

bool Lock::lost() const { return lost(detail::current_thread_owner_id()); }

bool Lock::lost(std::uint64_t owner) const {
  return state_->core->watchdog().was_lost(state_->name, state_->owner_field(owner));
}

void Lock::on_lost(std::function<void(std::uint64_t owner)> callback) {
  std::lock_guard guard(state_->mutex);
  state_->on_lost = std::move(callback);
}

}  // namespace redisson
