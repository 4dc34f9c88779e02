#include "redisson/permit_expirable_semaphore.hpp"

#include <atomic>
#include <charconv>

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"
#include "lua_scripts.hpp"

namespace redisson {
namespace detail {

struct ExpirableSemaphoreState {
  ExpirableSemaphoreState(std::shared_ptr<ClientCore> core_in, std::string name_in)
      : core(std::move(core_in)),
        name(std::move(name_in)),
        timeouts(suffix_name(name, "timeout")),
        channel(prefix_name("redisson_sc", name)) {}

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string timeouts;  // S(n, timeout): permit id -> expiry epoch ms
  const std::string channel;   // P(redisson_sc, n)
  std::string publish_command = core->publish_command();  // "spublish" on a sharded cluster
  // Waiters re-check at least this often: a lost message, or a writer that does not
  // publish (a foreign SET, an older client), costs at most this much.
  std::atomic<std::int64_t> recheck_ms{1000};
};

namespace {

using std::chrono::milliseconds;

constexpr std::int64_t kNoExpiry = PermitExpirableSemaphore::kNoExpiry;

const Script& try_acquire_script() {
  static const Script script{std::string(lua::expirable_semaphore_try_acquire.source)};
  return script;
}
const Script& release_script() {
  static const Script script{std::string(lua::expirable_semaphore_release.source)};
  return script;
}
const Script& update_lease_script() {
  static const Script script{std::string(lua::expirable_semaphore_update_lease.source)};
  return script;
}
const Script& available_permits_script() {
  static const Script script{std::string(lua::expirable_semaphore_available_permits.source)};
  return script;
}
const Script& delete_script() {
  static const Script script{std::string(lua::expirable_semaphore_delete.source)};
  return script;
}
// The count key has the plain semaphore's layout, so these two are shared with it.
const Script& try_set_permits_script() {
  static const Script script{std::string(lua::semaphore_try_set_permits.source)};
  return script;
}
const Script& add_permits_script() {
  static const Script script{std::string(lua::semaphore_add_permits.source)};
  return script;
}

std::error_code invalid_argument() { return make_error_code(errc::invalid_argument); }

std::int64_t epoch_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// now + lease in epoch ms, never at or past the "no expiry" score.
std::int64_t expiry_after(std::int64_t now, milliseconds lease) {
  return lease.count() >= kNoExpiry - now ? kNoExpiry - 1 : now + lease.count();
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// A permit id as the API shows it (32 hex characters) -> the 16 bytes stored in Redis.
std::optional<std::string> permit_bytes(std::string_view id) {
  if (id.size() != 32) return std::nullopt;
  std::string bytes;
  bytes.reserve(16);
  for (std::size_t i = 0; i < id.size(); i += 2) {
    const int high = hex_digit(id[i]);
    const int low = hex_digit(id[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

std::shared_ptr<Command> release_command(const ExpirableSemaphoreState& semaphore,
                                         const std::string& id_bytes) {
  auto command =
      std::make_shared<Command>(Command{"EVALSHA", release_script().sha1(), "3", semaphore.name,
                                        semaphore.timeouts, semaphore.channel, id_bytes});
  command->arg(epoch_ms()).arg(semaphore.publish_command);
  return command;
}

/// Sends a release; retries after a lost reply. The script's reply is 1 released, 0 not
/// held, -1 expired. A retry that finds the permit gone reports 1: the lost first attempt
/// most likely released it, and either way the permit is back in the pool.
void send_release(const std::shared_ptr<ClientCore>& core, std::shared_ptr<Command> command,
                  int attempts_left, bool retried, IntCallback done) {
  core->eval(release_script(), *command,
             [core, command, attempts_left, retried, done = std::move(done)](
                 std::error_code ec, const Reply& reply) mutable {
               if (is_retryable(ec) && attempts_left > 0) {
                 return send_release(core, std::move(command), attempts_left - 1, true,
                                     std::move(done));
               }
               if (ec) return done(ec, 0);
               done({}, retried && reply.integer == 0 ? 1 : reply.integer);
             });
}

void release_status(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                    const std::string& permit_id, IntCallback done) {
  const auto id_bytes = permit_bytes(permit_id);
  if (!id_bytes) return done(invalid_argument(), 0);
  send_release(semaphore->core, release_command(*semaphore, *id_bytes),
               semaphore->core->config().retry_attempts, false, std::move(done));
}

/// The permit count in a script reply.
std::int64_t count_of(const Reply& reply) {
  if (reply.is_integer()) return reply.integer;
  std::int64_t count = 0;
  std::from_chars(reply.str.data(), reply.str.data() + reply.str.size(), count);
  return count;
}

}  // namespace

asio::any_io_executor expirable_semaphore_executor(const ExpirableSemaphoreState& semaphore) {
  return semaphore.core->executor();
}

void expirable_semaphore_acquire(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                 std::optional<milliseconds> wait,
                                 std::optional<milliseconds> lease, PermitCallback done) {
  if ((wait && wait->count() < 0) || (lease && lease->count() <= 0)) {
    return done(invalid_argument(), std::nullopt);
  }
  // One id for every attempt of this acquisition: the script treats an id it already holds
  // as acquired, so resending after a lost reply never takes two permits.
  auto id = make_request_id();
  auto id_bytes = *permit_bytes(id);

  Attempt attempt = [semaphore, id_bytes, lease](AttemptCallback callback) {
    const auto now = epoch_ms();
    auto command = std::make_shared<Command>(Command{"EVALSHA", try_acquire_script().sha1(), "3",
                                                     semaphore->name, semaphore->timeouts,
                                                     semaphore->channel, id_bytes});
    command->arg(lease ? expiry_after(now, *lease) : kNoExpiry)
        .arg(now)
        .arg(kNoExpiry)
        .arg(semaphore->publish_command);
    eval_with_retry(
        semaphore->core, try_acquire_script(), std::move(command),
        semaphore->core->config().retry_attempts,
        [callback = std::move(callback), id_bytes,
         recheck = milliseconds{semaphore->recheck_ms.load()}](std::error_code ec,
                                                               const Reply& reply) mutable {
          if (ec) return callback(ec, {});
          if (reply.is_null()) return callback({}, AttemptResult{false, milliseconds{-1}});
          // Compare with the id first: random id bytes may start with ':' too.
          if (reply.is_string() && reply.str == id_bytes) {
            return callback({}, AttemptResult{true, {}});
          }
          std::int64_t nearest = 0;
          const auto* first = reply.str.data();
          const auto* last = first + reply.str.size();
          if (!reply.is_string() || reply.str.empty() || reply.str[0] != ':' ||
              std::from_chars(first + 1, last, nearest).ec != std::errc{}) {
            return callback(make_error_code(errc::protocol_error), {});
          }
          // Sleep until the nearest lease ends (then the retry reclaims it), but re-check
          // at least every re-check interval.
          const milliseconds hint{nearest - epoch_ms()};
          callback({}, AttemptResult{false, std::clamp(hint, milliseconds{1}, recheck)});
        });
  };

  AcquireLoop::Options options;
  options.channel = semaphore->channel;
  options.unknown_hint = milliseconds{semaphore->recheck_ms.load()};
  if (wait) options.deadline = Clock::now() + *wait;
  AcquireLoop::start(
      semaphore->core, std::move(options), std::move(attempt),
      [semaphore, id = std::move(id), id_bytes = std::move(id_bytes), done = std::move(done)](
          std::error_code ec, bool acquired) mutable {
        if (ec) {
          // The failed attempt may have run on the server: give back the permit it may
          // have taken (best effort; harmless when it was not taken).
          if (is_retryable(ec)) {
            semaphore->core->eval(release_script(), *release_command(*semaphore, id_bytes),
                                  [](std::error_code, const Reply&) {});
          }
          return done(ec, std::nullopt);
        }
        done({}, acquired ? std::optional<std::string>(std::move(id)) : std::nullopt);
      });
}

void expirable_semaphore_release(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                 const std::string& permit_id, VoidCallback done) {
  release_status(semaphore, permit_id,
                 [done = std::move(done)](std::error_code ec, std::int64_t status) mutable {
                   if (!ec && status != 1) ec = make_error_code(errc::not_owner);
                   done(ec);
                 });
}

void expirable_semaphore_try_release(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                     const std::string& permit_id, BoolCallback done) {
  release_status(semaphore, permit_id,
                 [done = std::move(done)](std::error_code ec, std::int64_t status) mutable {
                   done(ec, !ec && status == 1);
                 });
}

void expirable_semaphore_update_lease(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                      const std::string& permit_id, milliseconds lease,
                                      BoolCallback done) {
  const auto id_bytes = permit_bytes(permit_id);
  if (!id_bytes || lease.count() <= 0) return done(invalid_argument(), false);
  const auto now = epoch_ms();
  // Setting the same expiry twice is harmless, so a lost reply is simply resent.
  auto command = std::make_shared<Command>(Command{"EVALSHA", update_lease_script().sha1(), "3",
                                                   semaphore->name, semaphore->timeouts,
                                                   semaphore->channel, *id_bytes});
  command->arg(expiry_after(now, lease)).arg(now).arg(semaphore->publish_command);
  eval_with_retry(semaphore->core, update_lease_script(), std::move(command),
                  semaphore->core->config().retry_attempts,
                  [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                    done(ec, !ec && reply.integer == 1);
                  });
}

void expirable_semaphore_try_set_permits(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                         std::int64_t permits, BoolCallback done) {
  if (permits < 0) return done(invalid_argument(), false);
  Command command{"EVALSHA", try_set_permits_script().sha1(), "2", semaphore->name,
                  semaphore->channel};
  command.arg(permits).arg(semaphore->publish_command);
  semaphore->core->eval(try_set_permits_script(), std::move(command),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(ec, !ec && reply.integer == 1);
                        });
}

void expirable_semaphore_add_permits(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                     std::int64_t delta, VoidCallback done) {
  Command command{"EVALSHA", add_permits_script().sha1(), "2", semaphore->name, semaphore->channel};
  command.arg(delta).arg(semaphore->publish_command);
  semaphore->core->eval(
      add_permits_script(), std::move(command),
      [done = std::move(done)](std::error_code ec, const Reply&) mutable { done(ec); });
}

void expirable_semaphore_available_permits(
    const std::shared_ptr<ExpirableSemaphoreState>& semaphore, IntCallback done) {
  Command command{"EVALSHA", available_permits_script().sha1(), "3", semaphore->name};
  command.arg(semaphore->timeouts)
      .arg(semaphore->channel)
      .arg(epoch_ms())
      .arg(semaphore->publish_command);
  semaphore->core->eval(available_permits_script(), std::move(command),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(ec, ec ? 0 : count_of(reply));
                        });
}

void expirable_semaphore_delete(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                                BoolCallback done) {
  semaphore->core->eval(
      delete_script(),
      Command{"EVALSHA", delete_script().sha1(), "2", semaphore->name, semaphore->timeouts},
      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        done(ec, !ec && reply.integer == 1);
      });
}

}  // namespace detail

namespace {

[[noreturn]] void throw_invalid(const std::string& name, const std::string& what) {
  throw error(errc::invalid_argument, "permit-expirable semaphore '" + name + "': " + what);
}

void check_permit_id(const std::string& name, const std::string& permit_id) {
  if (!detail::permit_bytes(permit_id)) {
    throw_invalid(name, "a permit id is 32 hex characters, got '" + permit_id + "'");
  }
}

void check_lease(const std::string& name, std::chrono::milliseconds lease) {
  if (lease.count() <= 0) throw_invalid(name, "a lease must be positive");
}

}  // namespace

PermitExpirableSemaphore::PermitExpirableSemaphore(std::shared_ptr<detail::ClientCore> core,
                                                   std::string name) {
  if (name.empty()) {
    throw error(errc::invalid_argument, "a permit-expirable semaphore name must not be empty");
  }
  state_ = std::make_shared<detail::ExpirableSemaphoreState>(std::move(core), std::move(name));
}

PermitExpirableSemaphore Client::get_permit_expirable_semaphore(std::string name) const {
  return PermitExpirableSemaphore(core_, std::move(name));
}

const std::string& PermitExpirableSemaphore::name() const noexcept { return state_->name; }

std::string PermitExpirableSemaphore::acquire() {
  return *detail::wait_or_throw<std::optional<std::string>>(
      *state_->core,
      [&](detail::PermitCallback done) {
        detail::expirable_semaphore_acquire(state_, std::nullopt, std::nullopt, std::move(done));
      },
      "acquire permit-expirable semaphore '" + state_->name + "'");
}

std::string PermitExpirableSemaphore::acquire(std::chrono::milliseconds lease) {
  check_lease(state_->name, lease);
  return *detail::wait_or_throw<std::optional<std::string>>(
      *state_->core,
      [&](detail::PermitCallback done) {
        detail::expirable_semaphore_acquire(state_, std::nullopt, lease, std::move(done));
      },
      "acquire permit-expirable semaphore '" + state_->name + "'");
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire() {
  return try_acquire_ms(std::chrono::milliseconds{0}, std::nullopt);
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire(std::chrono::milliseconds wait,
                                                                 std::chrono::milliseconds lease) {
  return try_acquire_ms(wait, lease);
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire_ms(
    std::chrono::milliseconds wait, std::optional<std::chrono::milliseconds> lease) {
  if (wait.count() < 0) throw_invalid(state_->name, "the wait must not be negative");
  if (lease) check_lease(state_->name, *lease);
  return detail::wait_or_throw<std::optional<std::string>>(
      *state_->core,
      [&](detail::PermitCallback done) {
        detail::expirable_semaphore_acquire(state_, wait, lease, std::move(done));
      },
      "try_acquire permit-expirable semaphore '" + state_->name + "'");
}

void PermitExpirableSemaphore::release(const std::string& permit_id) {
  check_permit_id(state_->name, permit_id);
  const bool released = try_release(permit_id);
  if (!released) {
    throw error(errc::not_owner, "release permit-expirable semaphore '" + state_->name +
                                     "': permit " + permit_id +
                                     " is not held (never acquired, already released, or "
                                     "its lease ran out)");
  }
}

bool PermitExpirableSemaphore::try_release(const std::string& permit_id) {
  check_permit_id(state_->name, permit_id);
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::expirable_semaphore_try_release(state_, permit_id, std::move(done));
      },
      "release permit-expirable semaphore '" + state_->name + "'");
}

bool PermitExpirableSemaphore::update_lease(const std::string& permit_id,
                                            std::chrono::milliseconds lease) {
  check_permit_id(state_->name, permit_id);
  check_lease(state_->name, lease);
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::expirable_semaphore_update_lease(state_, permit_id, lease, std::move(done));
      },
      "update_lease permit-expirable semaphore '" + state_->name + "'");
}

bool PermitExpirableSemaphore::try_set_permits(std::int64_t permits) {
  if (permits < 0) throw_invalid(state_->name, "permits must not be negative");
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::expirable_semaphore_try_set_permits(state_, permits, std::move(done));
      },
      "try_set_permits permit-expirable semaphore '" + state_->name + "'");
}

void PermitExpirableSemaphore::add_permits(std::int64_t delta) {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::expirable_semaphore_add_permits(
            state_, delta, [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "add_permits permit-expirable semaphore '" + state_->name + "'");
}

std::int64_t PermitExpirableSemaphore::available_permits() {
  return detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) {
        detail::expirable_semaphore_available_permits(state_, std::move(done));
      },
      "available_permits permit-expirable semaphore '" + state_->name + "'");
}

void PermitExpirableSemaphore::set_recheck_interval(std::chrono::milliseconds interval) {
  if (interval.count() <= 0) throw_invalid(state_->name, "the re-check interval must be positive");
  state_->recheck_ms = interval.count();
}

std::chrono::milliseconds PermitExpirableSemaphore::recheck_interval() const noexcept {
  return std::chrono::milliseconds{state_->recheck_ms.load()};
}

bool PermitExpirableSemaphore::delete_object() {
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::expirable_semaphore_delete(state_, std::move(done));
      },
      "delete permit-expirable semaphore '" + state_->name + "'");
}

}  // namespace redisson
