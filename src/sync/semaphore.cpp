#include "redisson/semaphore.hpp"

#include <asio/error.hpp>
#include <atomic>
#include <charconv>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

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

}  // namespace detail

namespace {

using detail::Done;
using detail::Status;

Status negative(const char* what) {
  return {make_error_code(errc::invalid_argument), std::string(what) + " must not be negative"};
}

// Retried after a lost reply or a broken connection: the request-id latch makes a release that
// did run answer the retry without adding its permits twice (a permit has no lease, so a
// release given up on would be lost for good).
void release_permits(const std::shared_ptr<detail::SemaphoreState>& semaphore, std::int64_t permits,
                     Done<void> done) {
  using namespace detail;
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
      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        done(status_of(ec, reply));
      });
}

}  // namespace

Semaphore::Semaphore(const Client& client, std::string name) {
  if (name.empty()) throw error(errc::invalid_argument, "a semaphore name must not be empty");
  state_ =
      std::make_shared<detail::SemaphoreState>(detail::ClientAccess::core(client), std::move(name));
}

const std::string& Semaphore::name() const noexcept { return state_->name; }

const std::shared_ptr<detail::ClientCore>& Semaphore::core() const noexcept { return state_->core; }

void Semaphore::start_acquire(const State& semaphore, std::int64_t permits,
                              std::optional<std::chrono::milliseconds> wait,
                              const detail::CancellationPtr& cancel, Done<bool> done) {
  using namespace detail;
  if (permits < 0) return done(negative("permits"), false);
  if (wait && wait->count() < 0) return done(negative("the wait"), false);
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
          if (ec) return callback(status_of(ec, reply), {});
          callback({}, AttemptResult{reply.integer == 1, std::chrono::milliseconds{-1}});
        });
  };
  AcquireLoop::Options options;
  options.channel = semaphore->channel;
  options.unknown_hint = std::chrono::milliseconds{semaphore->recheck_ms.load()};
  if (wait) options.deadline = Clock::now() + *wait;
  auto finish = [semaphore, permits, cancel, done = std::move(done)](Status status,
                                                                     bool acquired) mutable {
    if (status || !acquired || !cancel) return done(std::move(status), acquired);
    if (cancel->requested()) {
      // The grant raced the caller's cancel: give the permits back, report the cancel.
      release_permits(semaphore, permits, [](const Status&) {});
      return done(make_error_code(asio::error::operation_aborted), false);
    }
    cancel->on_success_undo(
        [semaphore, permits] { release_permits(semaphore, permits, [](const Status&) {}); });
    done({}, true);
  };
  AcquireLoop::start(semaphore->core, std::move(options), std::move(attempt), std::move(finish),
                     nullptr, cancel);
}

void Semaphore::start_release(const State& semaphore, std::int64_t permits, Done<void> done) {
  if (permits < 0) return done(negative("permits"));
  if (permits == 0) return done({});
  release_permits(semaphore, permits, std::move(done));
}

void Semaphore::start_try_set_permits(const State& semaphore, std::int64_t permits,
                                      Done<bool> done) {
  using namespace detail;
  if (permits < 0) return done(negative("permits"), false);
  Command command{"EVALSHA", try_set_permits_script().sha1(), "2", semaphore->name,
                  semaphore->channel};
  command.arg(permits).arg(semaphore->publish_command);
  semaphore->core->eval(try_set_permits_script(), std::move(command),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(status_of(ec, reply), !ec && reply.integer == 1);
                        });
}

void Semaphore::start_add_permits(const State& semaphore, std::int64_t delta, Done<void> done) {
  using namespace detail;
  Command command{"EVALSHA", add_permits_script().sha1(), "2", semaphore->name, semaphore->channel};
  command.arg(delta).arg(semaphore->publish_command);
  semaphore->core->eval(add_permits_script(), std::move(command),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(status_of(ec, reply));
                        });
}

void Semaphore::start_drain_permits(const State& semaphore, Done<std::int64_t> done) {
  using namespace detail;
  semaphore->core->eval(drain_permits_script(),
                        Command{"EVALSHA", drain_permits_script().sha1(), "1", semaphore->name},
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(status_of(ec, reply), ec ? 0 : reply.integer);
                        });
}

void Semaphore::start_available_permits(const State& semaphore, Done<std::int64_t> done) {
  using namespace detail;
  semaphore->core->submit(Command{"GET", semaphore->name},
                          [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                            if (ec) return done(status_of(ec, reply), 0);
                            std::int64_t count = 0;
                            Status status = parse_count(reply, count);
                            done(std::move(status), count);
                          });
}

void Semaphore::start_delete(const State& semaphore, Done<bool> done) {
  using namespace detail;
  semaphore->core->eval(delete_script(),
                        Command{"EVALSHA", delete_script().sha1(), "1", semaphore->name},
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(status_of(ec, reply), !ec && reply.integer == 1);
                        });
}

void Semaphore::acquire(std::int64_t permits) {
  async_acquire(permits, detail::blocking("acquire semaphore", name()));
}

bool Semaphore::try_acquire(std::int64_t permits) {
  return try_acquire_ms(std::chrono::milliseconds{0}, permits);
}

bool Semaphore::try_acquire_ms(std::chrono::milliseconds wait, std::int64_t permits) {
  return async_acquire(permits, wait, detail::blocking("try_acquire semaphore", name()));
}

void Semaphore::release(std::int64_t permits) {
  async_release(permits, detail::blocking("release semaphore", name()));
}

bool Semaphore::try_set_permits(std::int64_t permits) {
  return async_try_set_permits(permits, detail::blocking("try_set_permits semaphore", name()));
}

void Semaphore::add_permits(std::int64_t delta) {
  async_add_permits(delta, detail::blocking("add_permits semaphore", name()));
}

std::int64_t Semaphore::drain_permits() {
  return async_drain_permits(detail::blocking("drain_permits semaphore", name()));
}

std::int64_t Semaphore::available_permits() const {
  return async_available_permits(detail::blocking("available_permits semaphore", name()));
}

bool Semaphore::delete_object() {
  return async_delete(detail::blocking("delete semaphore", name()));
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

}  // namespace redisson
