#include "redisson/read_write_lock.hpp"

#include <charconv>
#include <utility>

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "lua_scripts.hpp"
#include "sync/read_write_lock_state.hpp"
#include "sync/retry.hpp"
#include "watchdog/hold_ledger.hpp"
#include "watchdog/watchdog.hpp"

namespace redisson {
namespace detail {
namespace {

// The write acquire script's reply for a refused read->write upgrade.
constexpr std::int64_t kUpgradeRefused = -3;

const Script& read_acquire_script() {
  static const Script script{std::string(lua::rwlock_read_acquire.source)};
  return script;
}
const Script& write_acquire_script() {
  static const Script script{std::string(lua::rwlock_write_acquire.source)};
  return script;
}
const Script& read_unlock_script() {
  static const Script script{std::string(lua::rwlock_read_unlock.source)};
  return script;
}
const Script& write_unlock_script() {
  static const Script script{std::string(lua::rwlock_write_unlock.source)};
  return script;
}
const Script& force_unlock_script() {
  static const Script script{std::string(lua::rwlock_force_unlock.source)};
  return script;
}
const Script& renew_script() {
  static const Script script{std::string(lua::rwlock_renew.source)};
  return script;
}

std::string tagged(std::string_view name) {
  if (name.find('{') != std::string_view::npos) return std::string(name);
  return "{" + std::string(name) + "}";
}

const char* mode_name(RwSide side) { return side == RwSide::read ? "read" : "write"; }

// The unlock of one hold of `side` by `owner` (`write_lease` re-applied while write holds
// remain). The latch key makes a retry of an unlock that did run return the first result instead
// of releasing a second hold.
std::pair<const Script*, std::shared_ptr<Command>> unlock_command(
    const RwLockState& lock, RwSide side, std::uint64_t owner,
    std::chrono::milliseconds write_lease) {
  const auto latch = lock.latch_prefix + ":" + make_request_id();
  const auto latch_ms = static_cast<std::int64_t>(lock.unlock_latch_lifetime().count());
  if (side == RwSide::read) {
    const Script* script = &read_unlock_script();
    auto command = std::make_shared<Command>(Command{"EVALSHA", script->sha1(), "5", lock.name,
                                                     lock.channel, lock.hold_timeout_prefix(owner),
                                                     lock.tagged_name, latch, "0"});
    command->arg(lock.reader_field(owner)).arg(lock.publish_command).arg(latch_ms);
    return {script, command};
  }
  const Script* script = &write_unlock_script();
  auto command = std::make_shared<Command>(Command{"EVALSHA", script->sha1(), "4", lock.name,
                                                   lock.channel, lock.tagged_name, latch, "1"});
  command->arg(static_cast<std::int64_t>(write_lease.count()))
      .arg(lock.writer_field(owner))
      .arg(lock.publish_command)
      .arg(latch_ms);
  return {script, command};
}

// Config::sync_replicas: takes back the hold just acquired that no replica acknowledged (no
// watchdog or lease bookkeeping: it was never registered), then reports errc::not_replicated.
void undo_acquisition(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                      std::chrono::milliseconds lease, UniqueFunction<void(std::error_code)> done) {
  const auto [script, command] = unlock_command(*lock, side, owner, lease);
  lock->core->eval(*script, *command,
                   [done = std::move(done)](std::error_code, const Reply&) mutable {
                     done(make_error_code(errc::not_replicated));
                   });
}

// Tells the client's hold ledger how a write attempt ended (see note_attempt in lock_holds.hpp).
void note_write_attempt(const RwLockState& lock, std::uint64_t owner, std::error_code ec,
                        const Reply& reply, bool reset_sent) {
  if (ec == errc::timeout || ec == errc::connection_lost) {
    lock.core->holds().reply_lost(lock.name, lock.writer_field(owner));
  } else if (!ec && reply.is_null() && reset_sent) {
    lock.core->holds().reconciled(lock.name, lock.writer_field(owner));
  }
}

// One try of the acquire script, as the AcquireLoop wants it.
Attempt make_attempt(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                     std::chrono::milliseconds lease, bool refuse_upgrade) {
  auto command = std::make_shared<Command>();
  const Script* script = nullptr;
  if (side == RwSide::read) {
    script = &read_acquire_script();
    *command =
        Command{"EVALSHA", script->sha1(), "2", lock->name, lock->hold_timeout_prefix(owner)};
    command->arg(static_cast<std::int64_t>(lease.count()))
        .arg(lock->reader_field(owner))
        .arg(lock->writer_field(owner));
  } else {
    script = &write_acquire_script();
    *command = Command{"EVALSHA", script->sha1(), "1", lock->name};
    command->arg(static_cast<std::int64_t>(lease.count()))
        .arg(lock->writer_field(owner))
        .arg(refuse_upgrade ? lock->reader_field(owner) : std::string());
  }
  return [lock, side, owner, lease, script, command](AttemptCallback callback) {
    // Write holds only: read holds keep a timeout key per hold, which a count set at once would
    // leave behind.
    std::optional<std::int64_t> reset;
    if (side == RwSide::write)
      reset = lock->core->holds().reset_count(lock->name, lock->writer_field(owner));
    Command sent = *command;
    if (reset) sent.arg(*reset);
    lock->core->eval(
        *script, std::move(sent),
        [lock, side, owner, lease, reset_sent = reset.has_value(), callback = std::move(callback)](
            std::error_code ec, const Reply& reply) mutable {
          if (side == RwSide::write) note_write_attempt(*lock, owner, ec, reply, reset_sent);
          if (ec == errc::not_replicated) {
            if (reply.is_null()) {
              return undo_acquisition(
                  lock, side, owner, lease,
                  [callback = std::move(callback)](std::error_code undone) mutable {
                    callback(undone, {});
                  });
            }
            ec = {};  // not acquired: this attempt wrote nothing a replica needs
          }
          if (ec) return callback(ec, {});
          if (reply.is_null()) return callback({}, AttemptResult{true, {}});
          if (reply.integer == kUpgradeRefused) {
            return callback(make_error_code(errc::already_held), {});
          }
          callback({}, AttemptResult{false, std::chrono::milliseconds(reply.integer)});
        },
        ReplicaWait::require);
  };
}

// Registers a watchdog hold; called on the I/O thread before anyone learns of the hold, so
// no renewal round can miss it.
void watch(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner) {
  lock->add_watched(side, owner);
  std::weak_ptr<RwLockState> weak = lock;
  lock->core->watchdog().add(
      renew_script(), lock->name, lock->field(side, owner), [weak, side, owner] {
        auto state = weak.lock();
        if (!state) return;
        state->forget(side, owner);
        if (side == RwSide::write) {
          state->core->holds().forget(state->name, state->writer_field(owner));
        }
        std::function<void(std::uint64_t)> callback;
        {
          std::lock_guard guard(state->mutex);
          callback = side == RwSide::read ? state->on_read_lost : state->on_write_lost;
        }
        if (callback) callback(owner);
      });
}

// An unlock's reply: nil = not the owner; otherwise the owner's holds of `side` left.
void on_unlock_reply(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                     std::error_code ec, const Reply& reply, VoidCallback& done) {
  if (ec) return done(ec);
  auto& watchdog = lock->core->watchdog();
  const auto field = lock->field(side, owner);
  if (reply.is_null()) {
    // Nothing of this owner is left to renew (a watchdog entry would only report it lost).
    watchdog.remove(lock->name, field, /*all=*/true);
    lock->forget(side, owner);
    if (side == RwSide::write) lock->core->holds().forget(lock->name, field);
    return done(make_error_code(errc::not_owner));
  }
  const auto left = static_cast<std::uint64_t>(std::max<std::int64_t>(reply.integer, 0));
  if (side == RwSide::write) lock->core->holds().released(lock->name, field, left == 0);
  if (left == 0) {
    watchdog.remove(lock->name, field, /*all=*/true);
    lock->forget(side, owner);
  } else {
    for (auto drop = lock->trim_watched(side, owner, left); drop > 0; --drop) {
      watchdog.remove(lock->name, field, /*all=*/false);
    }
  }
  done({});
}

}  // namespace

RwLockState::RwLockState(std::shared_ptr<ClientCore> core_in, std::string name_in)
    : core(std::move(core_in)),
      name(std::move(name_in)),
      channel(prefix_name("redisson_rwlock", name)),
      latch_prefix(prefix_name("redisson_unlock_latch", name)),
      tagged_name(tagged(name)) {}

std::string RwLockState::reader_field(std::uint64_t owner) const {
  return core->id() + ":" + std::to_string(owner);
}

std::string RwLockState::writer_field(std::uint64_t owner) const {
  return reader_field(owner) + ":write";
}

std::string RwLockState::hold_timeout_prefix(std::uint64_t owner) const {
  return suffix_name(name, reader_field(owner)) + ":rwlock_timeout";
}

std::chrono::milliseconds RwLockState::write_lease_of(std::uint64_t owner) const {
  std::lock_guard guard(books_mutex_);
  const auto it = write_leases_.find(owner);
  return it == write_leases_.end() ? core->config().lock_watchdog_timeout : it->second;
}

void RwLockState::remember_write_lease(std::uint64_t owner, std::chrono::milliseconds lease) {
  std::lock_guard guard(books_mutex_);
  write_leases_[owner] = lease;
}

void RwLockState::add_watched(RwSide side, std::uint64_t owner) {
  std::lock_guard guard(books_mutex_);
  ++watched_[Key{side, owner}];
}

std::uint64_t RwLockState::trim_watched(RwSide side, std::uint64_t owner, std::uint64_t left) {
  std::lock_guard guard(books_mutex_);
  const auto it = watched_.find(Key{side, owner});
  if (it == watched_.end() || it->second <= left) return 0;
  const auto drop = it->second - left;
  it->second = left;
  return drop;
}

void RwLockState::forget(RwSide side, std::uint64_t owner) {
  std::lock_guard guard(books_mutex_);
  watched_.erase(Key{side, owner});
  if (side == RwSide::write) write_leases_.erase(owner);
}

std::chrono::milliseconds RwLockState::unlock_latch_lifetime() const {
  return retry_latch_lifetime(core->config());
}

asio::any_io_executor rw_executor(const RwLockState& lock) { return lock.core->executor(); }

void rw_acquire(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                std::optional<std::chrono::milliseconds> wait,
                std::optional<std::chrono::milliseconds> lease, BoolCallback done) {
  if (wait && wait->count() < 0) return done(make_error_code(errc::invalid_argument), false);
  if (lease && lease->count() <= 0) return done(make_error_code(errc::invalid_argument), false);
  const auto lease_ms = lease.value_or(lock->core->config().lock_watchdog_timeout);
  // Only an unbounded wait refuses an upgrade: a bounded one times out like anyone else's.
  const bool refuse_upgrade = side == RwSide::write && !wait.has_value();

  AcquireLoop::Options options;
  options.channel = lock->channel;
  if (wait) options.deadline = Clock::now() + *wait;
  const bool watchdog = !lease.has_value();
  AcquireLoop::start(lock->core, std::move(options),
                     make_attempt(lock, side, owner, lease_ms, refuse_upgrade),
                     [lock, side, owner, lease_ms, watchdog, done = std::move(done)](
                         std::error_code ec, bool acquired) mutable {
                       if (!ec && acquired) {
                         if (side == RwSide::write) {
                           lock->remember_write_lease(owner, lease_ms);
                           lock->core->holds().acquired(lock->name, lock->writer_field(owner));
                         }
                         if (watchdog) watch(lock, side, owner);
                       }
                       done(ec, acquired);
                     });
}

void rw_release(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                VoidCallback done) {
  const auto [script, command] = unlock_command(*lock, side, owner, lock->write_lease_of(owner));
  eval_with_retry(
      lock->core, *script, command, lock->core->config().retry_attempts,
      [lock, side, owner, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        on_unlock_reply(lock, side, owner, ec, reply, done);
      },
      ReplicaWait::wait);
}

void rw_force_release(const std::shared_ptr<RwLockState>& lock, std::optional<RwSide> side,
                      BoolCallback done) {
  Command command{"EVALSHA",
                  force_unlock_script().sha1(),
                  "3",
                  lock->name,
                  lock->channel,
                  lock->tagged_name,
                  "1",
                  lock->publish_command,
                  side ? mode_name(*side) : "any"};
  lock->core->eval(force_unlock_script(), std::move(command),
                   [lock, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                     if (!ec && reply.integer == 1) lock->core->holds().forget_all(lock->name);
                     done(ec, !ec && reply.integer == 1);
                   });
}

void rw_hold_count(const std::shared_ptr<RwLockState>& lock, RwSide side, std::uint64_t owner,
                   IntCallback done) {
  lock->core->submit(Command{"HGET", lock->name, lock->field(side, owner)},
                     [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                       if (ec || reply.is_null()) return done(ec, 0);
                       // Runs on the I/O thread: a malformed count must not throw here.
                       std::int64_t count = 0;
                       std::from_chars(reply.str.data(), reply.str.data() + reply.str.size(),
                                       count);
                       done({}, count);
                     });
}

}  // namespace detail

namespace {

Reply query(detail::ClientCore& core, const Command& command, const std::string& context) {
  return detail::wait_or_throw<Reply>(
      core, [&](detail::ReplyCallback callback) { core.submit(command, std::move(callback)); },
      context);
}

std::string describe(const detail::RwLockState& state, detail::RwSide side, const char* what) {
  return std::string(what) + " " + detail::mode_name(side) + " lock '" + state.name + "'";
}

// Acquires for the calling thread; a refused upgrade gets an error that says what to do.
bool acquire(const std::shared_ptr<detail::RwLockState>& state, detail::RwSide side,
             std::optional<std::chrono::milliseconds> wait,
             std::optional<std::chrono::milliseconds> lease, const char* what) {
  std::error_code ec;
  std::string server_text;
  const bool acquired = detail::wait_for<bool>(
      *state->core,
      [&](detail::BoolCallback done) {
        detail::rw_acquire(state, side, detail::current_thread_owner_id(), wait, lease,
                           std::move(done));
      },
      ec, &server_text);
  if (ec == errc::already_held) {
    throw error(ec, describe(*state, side, what) +
                        ": the calling thread holds a read lock of it and would wait for itself "
                        "forever (no read->write upgrade: release the read holds first)");
  }
  if (ec) throw error(ec, detail::describe_failure(describe(*state, side, what), server_text));
  return acquired;
}

std::shared_ptr<detail::RwLockState> make_state(std::shared_ptr<detail::ClientCore> core,
                                                std::string name) {
  if (name.empty()) throw error(errc::invalid_argument, "a lock name must not be empty");
  return std::make_shared<detail::RwLockState>(std::move(core), std::move(name));
}

}  // namespace

namespace detail {

const std::string& RwLockSide::name() const noexcept { return state_->name; }

std::string RwLockSide::owner_field(std::uint64_t owner) const {
  return state_->field(side_, owner);
}

void RwLockSide::lock() { acquire(state_, side_, std::nullopt, std::nullopt, "lock"); }

void RwLockSide::lock(std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  acquire(state_, side_, std::nullopt, lease, "lock");
}

bool RwLockSide::try_lock() { return try_lock_ms(std::chrono::milliseconds{0}, std::nullopt); }

bool RwLockSide::try_lock_ms(std::chrono::milliseconds wait,
                             std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  return acquire(state_, side_, wait, lease, "try_lock");
}

void RwLockSide::unlock() {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::rw_release(state_, side_, detail::current_thread_owner_id(),
                           [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      describe(*state_, side_, "unlock"));
}

bool RwLockSide::force_unlock() {
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) { detail::rw_force_release(state_, side_, std::move(done)); },
      describe(*state_, side_, "force_unlock"));
}

bool RwLockSide::is_locked() const {
  const auto mode = query(*state_->core, Command{"HGET", state_->name, "mode"}, "is_locked");
  return !mode.is_null() && mode.str == mode_name(side_);
}

bool RwLockSide::is_held_by_current_thread() const {
  const auto field = state_->field(side_, detail::current_thread_owner_id());
  return query(*state_->core, Command{"HEXISTS", state_->name, field}, "is_held_by_current_thread")
             .integer == 1;
}

int RwLockSide::hold_count() const {
  return static_cast<int>(detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) {
        detail::rw_hold_count(state_, side_, detail::current_thread_owner_id(), std::move(done));
      },
      "hold_count"));
}

bool RwLockSide::lost() const { return lost(detail::current_thread_owner_id()); }

bool RwLockSide::lost(std::uint64_t owner) const {
  return state_->core->watchdog().was_lost(state_->name, state_->field(side_, owner));
}

void RwLockSide::on_lost(std::function<void(std::uint64_t owner)> callback) {
  std::lock_guard guard(state_->mutex);
  (side_ == RwSide::read ? state_->on_read_lost : state_->on_write_lost) = std::move(callback);
}

}  // namespace detail

ReadWriteLock::ReadWriteLock(std::shared_ptr<detail::ClientCore> core, std::string name)
    : state_(make_state(std::move(core), std::move(name))), read_(state_), write_(state_) {}

ReadWriteLock Client::get_read_write_lock(std::string name) const {
  return ReadWriteLock(core_, std::move(name));
}

const std::string& ReadWriteLock::name() const noexcept { return state_->name; }

bool ReadWriteLock::is_locked() const {
  return query(*state_->core, Command{"HEXISTS", state_->name, "mode"}, "is_locked").integer == 1;
}

bool ReadWriteLock::force_unlock() {
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::rw_force_release(state_, std::nullopt, std::move(done));
      },
      "force_unlock read-write lock '" + state_->name + "'");
}

std::chrono::milliseconds ReadWriteLock::remaining_lease() const {
  return std::chrono::milliseconds(
      query(*state_->core, Command{"PTTL", state_->name}, "remaining_lease").integer);
}

}  // namespace redisson
