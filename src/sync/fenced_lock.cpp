#include "redisson/fenced_lock.hpp"

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/lock_holds.hpp"
#include "sync/lock_state.hpp"
#include "sync/names.hpp"


namespace redisson {
namespace detail {
namespace {

const Script& acquire_script() {
  static const Script script{std::string(lua::fenced_lock_acquire.source)};
  return script;
}

std::string token_key_of(const std::string& name) {
  return prefix_name("redisson_lock_token", name);
}

}  // namespace

void fenced_lock_acquire(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                         std::optional<std::chrono::milliseconds> wait,
                         std::optional<std::chrono::milliseconds> lease, TokenCallback done) {
  if (auto ec = check_acquire_arguments(wait, lease)) return done(ec, std::nullopt);
  const auto lease_ms = lease.value_or(lock->core->config().lock_watchdog_timeout);
  const auto field = lock->owner_field(owner);
  // Written by the attempt that succeeds, read when the loop finishes (both on the I/O thread).
  auto token = std::make_shared<std::int64_t>(0);

  Attempt attempt = [lock, owner, field, lease_ms, token,
                     token_key = token_key_of(lock->name)](AttemptCallback callback) {
    Command command{"EVALSHA", acquire_script().sha1(), "2", lock->name, token_key};
    command.arg(static_cast<std::int64_t>(lease_ms.count())).arg(field);
    const auto reset = reset_count(*lock, field);
    if (reset) command.arg(*reset);
    lock->core->eval(
        acquire_script(), std::move(command),
        [lock, owner, lease_ms, token, reset_sent = reset.has_value(),
         callback = std::move(callback)](std::error_code ec, const Reply& reply) mutable {
          const bool taken = reply.elements.size() == 2 && reply.elements[0].integer == 1;
          note_attempt(*lock, owner, ec, !ec && taken, reset_sent);
          if (ec == errc::not_replicated) {
            // The token stays spent: a fencing token never goes back.
            if (taken) {
              return undo_acquisition(
                  lock, owner, lease_ms,
                  [callback = std::move(callback)](std::error_code undone) mutable {
                    callback(undone, {});
                  });
            }
            ec = {};  // not acquired: this attempt wrote nothing a replica needs
          }
          if (ec) return callback(ec, {});
          if (reply.elements.size() != 2) {
            return callback(make_error_code(errc::protocol_error), {});
          }
          if (taken) {
            *token = reply.elements[1].integer;
            return callback({}, AttemptResult{true, {}});
          }
          callback({}, AttemptResult{false, std::chrono::milliseconds(reply.elements[1].integer)});
        },
        ReplicaWait::require);
  };

  AcquireLoop::Options options;
  options.channel = lock->channel;
  if (wait) options.deadline = Clock::now() + *wait;
  const bool watchdog = !lease.has_value();
  AcquireLoop::start(lock->core, std::move(options), std::move(attempt),
                     [lock, owner, lease_ms, watchdog, token, done = std::move(done)](
                         std::error_code ec, bool acquired) mutable {
                       if (ec || !acquired) return done(ec, std::nullopt);
                       register_hold(lock, owner, lease_ms, watchdog);
                       done({}, *token);
                     });
}

}  // namespace detail

FencedLock::FencedLock(std::shared_ptr<detail::ClientCore> core, std::string name)
    : lock_(std::move(core), std::move(name)), token_key_(detail::token_key_of(lock_.name())) {}

FencedLock Client::get_fenced_lock(std::string name) const {
  return FencedLock(core_, std::move(name));
}

std::int64_t FencedLock::lock_and_get_token() {
  const auto& state = lock_.state();
  return *detail::wait_or_throw<std::optional<std::int64_t>>(
      *state->core,
      [&](detail::TokenCallback done) {
        detail::fenced_lock_acquire(state, detail::current_thread_owner_id(), std::nullopt,
                                    std::nullopt, std::move(done));
      },
      "lock '" + name() + "'");
}

std::int64_t FencedLock::lock_and_get_token(std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw error(errc::invalid_argument, "lock lease must be positive");
  const auto& state = lock_.state();
  return *detail::wait_or_throw<std::optional<std::int64_t>>(
      *state->core,
      [&](detail::TokenCallback done) {
        detail::fenced_lock_acquire(state, detail::current_thread_owner_id(), std::nullopt, lease,
                                    std::move(done));
      },
      "lock '" + name() + "'");
}

std::optional<std::int64_t> FencedLock::try_lock_ms(
    std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw error(errc::invalid_argument, "try_lock wait must not be negative");
  if (lease && lease->count() <= 0) {
    throw error(errc::invalid_argument, "lock lease must be positive");
  }
  const auto& state = lock_.state();
  return detail::wait_or_throw<std::optional<std::int64_t>>(
      *state->core,
      [&](detail::TokenCallback done) {
        detail::fenced_lock_acquire(state, detail::current_thread_owner_id(), wait, lease,
                                    std::move(done));
      },
      "try_lock '" + name() + "'");
}

std::int64_t FencedLock::token() const {
  auto& core = *lock_.state()->core;
  const auto reply = detail::wait_or_throw<Reply>(
      core,
      [&](detail::ReplyCallback done) {
        core.submit(Command{"GET", token_key_}, std::move(done));
      },
      "token '" + name() + "'");
  if (reply.is_null()) return 0;
  try {
    return std::stoll(reply.str);
  } catch (const std::exception&) {
    throw error(errc::wrong_type,
                "token '" + name() + "': " + token_key_ + " does not hold an integer");
  }
}

}  // namespace redisson
