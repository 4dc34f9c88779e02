#include "redisson/semaphore.hpp"

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

struct SemaphoreState {
  SemaphoreState(std::shared_ptr<ClientCore> core_in, std::string name_in)
      : core(std::move(core_in)),
        name(std::move(name_in)),
        channel(prefix_name("redisson_sc", name)),
        latch_prefix(prefix_name("redisson_release_latch", name)),
        acquire_latch_prefix(prefix_name("redisson_acquire_latch", name)) {}

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;       // P(redisson_sc, n)
  const std::string latch_prefix;  // P(redisson_release_latch, n): + request id, per release
  const std::string acquire_latch_prefix;  // P(redisson_acquire_latch, n): + id, per attempt
  std::string publish_command = core->publish_command();  // "spublish" on a sharded cluster
  // No reply says when permits come back: waiters re-check this often when no message came
  // (a lost message, or a writer that does not publish, costs at most this much).
  std::atomic<std::int64_t> recheck_ms{1000};
};

namespace {

const Script& try_acquire_script() {
  static const Script script{std::string(lua::semaphore_try_acquire.source)};
  return script;
}
const Script& release_script() {
  static const Script script{std::string(lua::semaphore_release.source)};
  return script;
}
const Script& try_set_permits_script() {
  static const Script script{std::string(lua::semaphore_try_set_permits.source)};
  return script;
}
const Script& add_permits_script() {
  static const Script script{std::string(lua::semaphore_add_permits.source)};
  return script;
}
const Script& drain_permits_script() {
  static const Script script{std::string(lua::semaphore_drain_permits.source)};
  return script;
}
const Script& delete_script() {
  static const Script script{std::string(lua::semaphore_delete.source)};
  return script;
}

std::error_code invalid_argument() { return make_error_code(errc::invalid_argument); }

/// The permit count in a GET reply: absent is 0; anything but an integer is wrong_type.
std::error_code parse_count(const Reply& reply, std::int64_t& count) {
  count = 0;
  if (reply.is_null()) return {};
  const auto& text = reply.str;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (!reply.is_string() || ec != std::errc{} || end != text.data() + text.size()) {
    return make_error_code(errc::wrong_type);
  }
  return {};
}

}  // namespace

asio::any_io_executor semaphore_executor(const SemaphoreState& semaphore) {
  return semaphore.core->executor();
}

void semaphore_acquire(const std::shared_ptr<SemaphoreState>& semaphore, std::int64_t permits,
                       std::optional<std::chrono::milliseconds> wait, BoolCallback done) {
  if (permits < 0 || (wait && wait->count() < 0)) return done(invalid_argument(), false);
  if (permits == 0) return done({}, true);
  // Each attempt is a request of its own, sent again after a lost reply: its latch tells the
  // retry whether the first send took the permits (otherwise they would be gone for good).
  Attempt attempt = [semaphore, permits](AttemptCallback callback) {
    const auto& config = semaphore->core->config();
    auto latch = semaphore->acquire_latch_prefix + ":";
    append_request_id(latch);
    const auto latch_ms = static_cast<std::int64_t>(retry_latch_lifetime(config).count());
    auto make = [semaphore, latch = std::move(latch), permits, latch_ms](bool first) {
      Command command{"EVALSHA", try_acquire_script().sha1(), "2", semaphore->name, latch};
      command.arg(permits).arg(latch_ms).arg(first ? "1" : "0");
      return command;
    };
    auto first = make(true);
    eval_first_then_retry(
        semaphore->core, try_acquire_script(), std::move(first),
        [make = std::move(make)] { return make(false); }, config.retry_attempts,
        [callback = std::move(callback)](std::error_code ec, const Reply& reply) mutable {
          if (ec) return callback(ec, {});
          callback({}, AttemptResult{reply.integer == 1, std::chrono::milliseconds{-1}});
        });
  };
  AcquireLoop::Options options;
  options.channel = semaphore->channel;
  options.unknown_hint = std::chrono::milliseconds{semaphore->recheck_ms.load()};
  if (wait) options.deadline = Clock::now() + *wait;
  AcquireLoop::start(semaphore->core, std::move(options), std::move(attempt), std::move(done));
}

// Retried after a lost reply or a broken connection: the request-id latch makes a release that
// did run answer the retry without adding its permits twice (a permit has no lease, so a
// release given up on would be lost for good).
void semaphore_release(const std::shared_ptr<SemaphoreState>& semaphore, std::int64_t permits,
                       VoidCallback done) {
  if (permits < 0) return done(invalid_argument());
  if (permits == 0) return done({});
  const auto& config = semaphore->core->config();
  auto latch = semaphore->latch_prefix + ":";
  append_request_id(latch);
  const auto latch_ms = static_cast<std::int64_t>(retry_latch_lifetime(config).count());
  auto make = [semaphore, latch = std::move(latch), permits, latch_ms](bool first) {
    Command command{"EVALSHA",       release_script().sha1(), "3",
                    semaphore->name, semaphore->channel,      latch};
    command.arg(permits).arg(semaphore->publish_command).arg(latch_ms).arg(first ? "1" : "0");
    return command;
  };
  auto first = make(true);
  eval_first_then_retry(
      semaphore->core, release_script(), std::move(first),
      [make = std::move(make)] { return make(false); }, config.retry_attempts,
      [done = std::move(done)](std::error_code ec, const Reply&) mutable { done(ec); });
}

void semaphore_try_set_permits(const std::shared_ptr<SemaphoreState>& semaphore,
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

void semaphore_add_permits(const std::shared_ptr<SemaphoreState>& semaphore, std::int64_t delta,
                           VoidCallback done) {
  Command command{"EVALSHA", add_permits_script().sha1(), "2", semaphore->name, semaphore->channel};
  command.arg(delta).arg(semaphore->publish_command);
  semaphore->core->eval(
      add_permits_script(), std::move(command),
      [done = std::move(done)](std::error_code ec, const Reply&) mutable { done(ec); });
}

void semaphore_drain_permits(const std::shared_ptr<SemaphoreState>& semaphore, IntCallback done) {
  semaphore->core->eval(drain_permits_script(),
                        Command{"EVALSHA", drain_permits_script().sha1(), "1", semaphore->name},
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(ec, ec ? 0 : reply.integer);
                        });
}

void semaphore_available_permits(const std::shared_ptr<SemaphoreState>& semaphore,
                                 IntCallback done) {
  semaphore->core->submit(Command{"GET", semaphore->name},
                          [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                            std::int64_t count = 0;
                            if (!ec) ec = parse_count(reply, count);
                            done(ec, count);
                          });
}

void semaphore_delete(const std::shared_ptr<SemaphoreState>& semaphore, BoolCallback done) {
  semaphore->core->eval(delete_script(),
                        Command{"EVALSHA", delete_script().sha1(), "1", semaphore->name},
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(ec, !ec && reply.integer == 1);
                        });
}

}  // namespace detail

namespace {

void check_not_negative(std::int64_t value, const std::string& name, const char* what) {
  if (value < 0) {
    throw error(errc::invalid_argument,
                "semaphore '" + name + "': " + what + " must not be negative");
  }
}

}  // namespace

Semaphore::Semaphore(std::shared_ptr<detail::ClientCore> core, std::string name) {
  if (name.empty()) throw error(errc::invalid_argument, "a semaphore name must not be empty");
  state_ = std::make_shared<detail::SemaphoreState>(std::move(core), std::move(name));
}

Semaphore Client::get_semaphore(std::string name) const {
  return Semaphore(core_, std::move(name));
}

const std::string& Semaphore::name() const noexcept { return state_->name; }

void Semaphore::acquire(std::int64_t permits) {
  check_not_negative(permits, state_->name, "permits");
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::semaphore_acquire(state_, permits, std::nullopt, std::move(done));
      },
      "acquire semaphore '" + state_->name + "'");
}

bool Semaphore::try_acquire(std::int64_t permits) {
  return try_acquire_ms(std::chrono::milliseconds{0}, permits);
}

bool Semaphore::try_acquire_ms(std::chrono::milliseconds wait, std::int64_t permits) {
  check_not_negative(permits, state_->name, "permits");
  check_not_negative(wait.count(), state_->name, "the wait");
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::semaphore_acquire(state_, permits, wait, std::move(done));
      },
      "try_acquire semaphore '" + state_->name + "'");
}

void Semaphore::release(std::int64_t permits) {
  check_not_negative(permits, state_->name, "permits");
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::semaphore_release(
            state_, permits,
            [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "release semaphore '" + state_->name + "'");
}

bool Semaphore::try_set_permits(std::int64_t permits) {
  check_not_negative(permits, state_->name, "permits");
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::semaphore_try_set_permits(state_, permits, std::move(done));
      },
      "try_set_permits semaphore '" + state_->name + "'");
}

void Semaphore::add_permits(std::int64_t delta) {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::semaphore_add_permits(
            state_, delta, [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "add_permits semaphore '" + state_->name + "'");
}

std::int64_t Semaphore::drain_permits() {
  return detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) { detail::semaphore_drain_permits(state_, std::move(done)); },
      "drain_permits semaphore '" + state_->name + "'");
}

std::int64_t Semaphore::available_permits() const {
  return detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) {
        detail::semaphore_available_permits(state_, std::move(done));
      },
      "available_permits semaphore '" + state_->name + "'");
}

void Semaphore::set_recheck_interval(std::chrono::milliseconds interval) {
  if (interval.count() <= 0) {
    throw error(errc::invalid_argument,
                "semaphore '" + state_->name + "': the re-check interval must be positive");
  }
  state_->recheck_ms = interval.count();
}

std::chrono::milliseconds Semaphore::recheck_interval() const noexcept {
  return std::chrono::milliseconds{state_->recheck_ms.load()};
}

bool Semaphore::delete_object() {
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) { detail::semaphore_delete(state_, std::move(done)); },
      "delete semaphore '" + state_->name + "'");
}

}  // namespace redisson
