#include "redisson/count_down_latch.hpp"

#include <atomic>
#include <charconv>

#include "client/blocking.hpp"
#include "client/client_core.hpp"
#include "redisson/client.hpp"
#include "sync/acquire_loop.hpp"
#include "lua_scripts.hpp"

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

void get_count(const std::shared_ptr<CountDownLatchState>& latch, IntCallback done) {
  latch->core->submit(Command{"GET", latch->name},
                      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                        std::int64_t count = 0;
                        if (!ec) ec = parse_count(reply, count);
                        done(ec, count);
                      });
}

}  // namespace

asio::any_io_executor latch_executor(const CountDownLatchState& latch) {
  return latch.core->executor();
}

void latch_await(const std::shared_ptr<CountDownLatchState>& latch,
                 std::optional<std::chrono::milliseconds> wait, BoolCallback done) {
  if (wait && wait->count() < 0) {
    return done(make_error_code(errc::invalid_argument), false);
  }
  // "Acquired" = the latch is open. The loop checks once, then subscribes and checks again
  // (so an opening between the two is not missed), then sleeps until a message.
  Attempt attempt = [latch](AttemptCallback callback) {
    get_count(latch,
              [callback = std::move(callback)](std::error_code ec, std::int64_t count) mutable {
                if (ec) return callback(ec, {});
                callback({}, AttemptResult{count <= 0, std::chrono::milliseconds{-1}});
              });
  };
  AcquireLoop::Options options;
  options.channel = latch->channel;
  options.unknown_hint = std::chrono::milliseconds{latch->recheck_ms.load()};
  if (wait) options.deadline = Clock::now() + *wait;
  AcquireLoop::start(latch->core, std::move(options), std::move(attempt), std::move(done));
}

// Not retried after a lost reply: a count-down that did run must not count twice.
void latch_count_down(const std::shared_ptr<CountDownLatchState>& latch, VoidCallback done) {
  Command command{"EVALSHA", count_down_script().sha1(), "2", latch->name, latch->channel};
  command.arg(latch->publish_command);
  latch->core->eval(
      count_down_script(), std::move(command),
      [done = std::move(done)](std::error_code ec, const Reply&) mutable { done(ec); });
}

void latch_try_set_count(const std::shared_ptr<CountDownLatchState>& latch, std::int64_t count,
                         BoolCallback done) {
  if (count <= 0) return done(make_error_code(errc::invalid_argument), false);
  Command command{"EVALSHA", try_set_count_script().sha1(), "2", latch->name, latch->channel};
  command.arg(count).arg(latch->publish_command);
  latch->core->eval(try_set_count_script(), std::move(command),
                    [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                      done(ec, !ec && reply.integer == 1);
                    });
}

void latch_count(const std::shared_ptr<CountDownLatchState>& latch, IntCallback done) {
  get_count(latch, [done = std::move(done)](std::error_code ec, std::int64_t count) mutable {
    done(ec, std::max<std::int64_t>(count, 0));
  });
}

void latch_delete(const std::shared_ptr<CountDownLatchState>& latch, BoolCallback done) {
  Command command{"EVALSHA", delete_script().sha1(), "2", latch->name, latch->channel};
  command.arg(latch->publish_command);
  latch->core->eval(delete_script(), std::move(command),
                    [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                      done(ec, !ec && reply.integer == 1);
                    });
}

}  // namespace detail

CountDownLatch::CountDownLatch(std::shared_ptr<detail::ClientCore> core, std::string name) {
  if (name.empty()) {
    throw error(errc::invalid_argument, "a count-down latch name must not be empty");
  }
  state_ = std::make_shared<detail::CountDownLatchState>(std::move(core), std::move(name));
}

CountDownLatch Client::get_count_down_latch(std::string name) const {
  return CountDownLatch(core_, std::move(name));
}

const std::string& CountDownLatch::name() const noexcept { return state_->name; }

bool CountDownLatch::try_set_count(std::int64_t count) {
  if (count <= 0) {
    throw error(errc::invalid_argument,
                "count-down latch '" + state_->name + "': the count must be positive");
  }
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::latch_try_set_count(state_, count, std::move(done));
      },
      "try_set_count count-down latch '" + state_->name + "'");
}

void CountDownLatch::count_down() {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::latch_count_down(
            state_, [done = std::move(done)](std::error_code ec) mutable { done(ec, !ec); });
      },
      "count_down count-down latch '" + state_->name + "'");
}

std::int64_t CountDownLatch::count() const {
  return detail::wait_or_throw<std::int64_t>(
      *state_->core,
      [&](detail::IntCallback done) { detail::latch_count(state_, std::move(done)); },
      "count count-down latch '" + state_->name + "'");
}

void CountDownLatch::await() {
  detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) {
        detail::latch_await(state_, std::nullopt, std::move(done));
      },
      "await count-down latch '" + state_->name + "'");
}

bool CountDownLatch::await_ms(std::chrono::milliseconds timeout) {
  if (timeout.count() < 0) {
    throw error(errc::invalid_argument,
                "count-down latch '" + state_->name + "': the timeout must not be negative");
  }
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) { detail::latch_await(state_, timeout, std::move(done)); },
      "await count-down latch '" + state_->name + "'");
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
  return detail::wait_or_throw<bool>(
      *state_->core,
      [&](detail::BoolCallback done) { detail::latch_delete(state_, std::move(done)); },
      "delete count-down latch '" + state_->name + "'");
}

}  // namespace redisson
