#include "redisson/count_down_latch.hpp"

#include <atomic>
#include <charconv>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/acquire_loop.hpp"

namespace redisson {
namespace detail {

struct CountDownLatchState {
  CountDownLatchState(std::shared_ptr<ClientCore> core_in, std::string name_in)
      : core(std::move(core_in)),
        name(std::move(name_in)),
        // Always braces, even when the name has some (Redisson's rule for this channel).
        channel("redisson_countdownlatch__channel__{" + name + "}") {}

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;
  std::string publish_command = core->publish_command();  // "spublish" on a sharded cluster
  // Awaiters re-check the count at least this often: a lost message, or a writer that does
  // not publish, costs at most this much.
  std::atomic<std::int64_t> recheck_ms{1000};
};

namespace {

const Script& try_set_count_script() {
  static const Script script{std::string(lua::count_down_latch_try_set_count.source)};
  return script;
}
const Script& count_down_script() {
  static const Script script{std::string(lua::count_down_latch_count_down.source)};
  return script;
}
const Script& delete_script() {
  static const Script script{std::string(lua::count_down_latch_delete.source)};
  return script;
}

/// The count in a GET reply: absent is 0; anything but an integer is wrong_type.
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

void get_count(const std::shared_ptr<CountDownLatchState>& latch, Done<std::int64_t> done) {
  latch->core->submit(Command{"GET", latch->name},
                      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                        if (ec) return done(status_of(ec, reply), 0);
                        std::int64_t count = 0;
                        Status status = parse_count(reply, count);
                        done(std::move(status), count);
                      });
}

}  // namespace

}  // namespace detail

CountDownLatch::CountDownLatch(const Client& client, std::string name) {
  if (name.empty()) {
    throw error(errc::invalid_argument, "a count-down latch name must not be empty");
  }
  state_ = std::make_shared<detail::CountDownLatchState>(detail::ClientAccess::core(client),
                                                         std::move(name));
}

const std::string& CountDownLatch::name() const noexcept { return state_->name; }

const std::shared_ptr<detail::ClientCore>& CountDownLatch::core() const noexcept {
  return state_->core;
}

void CountDownLatch::start_await(const State& latch, std::optional<std::chrono::milliseconds> wait,
                                 const detail::CancellationPtr& cancel, detail::Done<bool> done) {
  using namespace detail;
  if (wait && wait->count() < 0) {
    return done(Status(make_error_code(errc::invalid_argument), "the timeout must not be negative"),
                false);
  }
  // "Acquired" = the latch is open. The loop checks once, then subscribes and checks again
  // (so an opening between the two is not missed), then sleeps until a message. Opening takes
  // nothing, so a cancel has nothing to give back.
  Attempt attempt = [latch](AttemptCallback callback) {
    get_count(latch, [callback = std::move(callback)](Status status, std::int64_t count) mutable {
      if (status) return callback(std::move(status), {});
      callback({}, AttemptResult{count <= 0, std::chrono::milliseconds{-1}});
    });
  };
  AcquireLoop::Options options;
  options.channel = latch->channel;
  options.unknown_hint = std::chrono::milliseconds{latch->recheck_ms.load()};
  if (wait) options.deadline = Clock::now() + *wait;
  AcquireLoop::start(latch->core, std::move(options), std::move(attempt), std::move(done), nullptr,
                     cancel);
}

// Not retried after a lost reply: a count-down that did run must not count twice.
void CountDownLatch::start_count_down(const State& latch, detail::Done<void> done) {
  using namespace detail;
  Command command{"EVALSHA", count_down_script().sha1(), "2", latch->name, latch->channel};
  command.arg(latch->publish_command);
  latch->core->eval(count_down_script(), std::move(command),
                    [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                      done(status_of(ec, reply));
                    });
}

void CountDownLatch::start_try_set_count(const State& latch, std::int64_t count,
                                         detail::Done<bool> done) {
  using namespace detail;
  if (count <= 0) {
    return done(Status(make_error_code(errc::invalid_argument), "the count must be positive"),
                false);
  }
  Command command{"EVALSHA", try_set_count_script().sha1(), "2", latch->name, latch->channel};
  command.arg(count).arg(latch->publish_command);
  latch->core->eval(try_set_count_script(), std::move(command),
                    [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                      done(status_of(ec, reply), !ec && reply.integer == 1);
                    });
}

void CountDownLatch::start_count(const State& latch, detail::Done<std::int64_t> done) {
  detail::get_count(latch,
                    [done = std::move(done)](detail::Status status, std::int64_t count) mutable {
                      done(std::move(status), std::max<std::int64_t>(count, 0));
                    });
}

void CountDownLatch::start_delete(const State& latch, detail::Done<bool> done) {
  using namespace detail;
  Command command{"EVALSHA", delete_script().sha1(), "2", latch->name, latch->channel};
  command.arg(latch->publish_command);
  latch->core->eval(delete_script(), std::move(command),
                    [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                      done(status_of(ec, reply), !ec && reply.integer == 1);
                    });
}

bool CountDownLatch::try_set_count(std::int64_t count) {
  return async_try_set_count(count, detail::blocking("try_set_count count-down latch", name()));
}

void CountDownLatch::count_down() {
  async_count_down(detail::blocking("count_down count-down latch", name()));
}

std::int64_t CountDownLatch::count() const {
  return async_count(detail::blocking("count count-down latch", name()));
}

void CountDownLatch::await() {
  async_await(std::nullopt, detail::blocking("await count-down latch", name()));
}

bool CountDownLatch::await_ms(std::chrono::milliseconds timeout) {
  return async_await(timeout, detail::blocking("await count-down latch", name()));
}

void CountDownLatch::set_recheck_interval(std::chrono::milliseconds interval) {
  if (interval.count() <= 0) {
    throw error(errc::invalid_argument,
                "count-down latch '" + state_->name + "': the re-check interval must be positive");
  }
  state_->recheck_ms = interval.count();
}

std::chrono::milliseconds CountDownLatch::recheck_interval() const noexcept {
  return std::chrono::milliseconds{state_->recheck_ms.load()};
}

bool CountDownLatch::delete_object() {
  return async_delete(detail::blocking("delete count-down latch", name()));
}

}  // namespace redisson
