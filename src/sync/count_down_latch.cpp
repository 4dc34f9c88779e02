#include "redisson/count_down_latch.hpp"

#include <algorithm>

#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/synchronizer.hpp"

namespace redisson {
namespace detail {

struct CountDownLatchState : SynchronizerState {
  CountDownLatchState(std::shared_ptr<ClientCore> core_in, const std::string& name_in)
      // Always braces, even when the name has some (Redisson's rule for this channel).
      : SynchronizerState(std::move(core_in), name_in,
                          "redisson_countdownlatch__channel__{" + name_in + "}") {}
};

}  // namespace detail

namespace {

// Redisson's RedissonCountDownLatch.deleteAsync: DEL, then "1" on the channel so awaiters look
// again (and find the latch open).
void delete_latch(const detail::ObjectPtr& object, detail::Done<Reply>& done) {
  const auto latch = detail::state_of<detail::CountDownLatchState>(object);
  detail::eval_delete(
      latch->core,
      detail::lua::count_down_latch_delete({latch->name, latch->channel}, {latch->publish_command}),
      done);
}

constexpr detail::ObjectHooks kCountDownLatch{
    .make_attached = &detail::make_synchronizer_state<detail::CountDownLatchState>,
    .delete_keys = &delete_latch};

}  // namespace

CountDownLatch::CountDownLatch(const Client& client, std::string name)
    : detail::Synchronizer(detail::make_object(client, std::move(name), nullptr, "count-down latch",
                                               &kCountDownLatch)) {}

void CountDownLatch::start_await(const detail::ObjectPtr& object,
                                 std::optional<std::chrono::milliseconds> wait,
                                 const detail::CancellationPtr& cancel, detail::Done<bool> done) {
  const auto latch = detail::state_of<detail::CountDownLatchState>(object);
  using namespace detail;
  if (wait && wait->count() < 0)
    return done(invalid_argument("the timeout must not be negative"), false);
  // "Acquired" = the latch is open. The loop checks once, then subscribes and checks again
  // (so an opening between the two is not missed), then sleeps until a message. Opening takes
  // nothing, so a cancel has nothing to give back.
  Attempt attempt = [latch](AttemptCallback callback, ReadSlot* /*read*/) {
    get_count(*latch, [callback = std::move(callback)](Status status, std::int64_t count) mutable {
      if (status) return callback(std::move(status), {});
      callback({}, AttemptResult{count <= 0, std::chrono::milliseconds{-1}});
    });
  };
  AcquireLoop::start(latch->core, wait_options(*latch, wait), std::move(attempt), std::move(done),
                     nullptr, cancel);
}

// Not retried after a lost reply: a count-down that did run must not count twice.
void CountDownLatch::start_count_down(const detail::ObjectPtr& object, detail::Done<void> done) {
  const auto latch = detail::state_of<detail::CountDownLatchState>(object);
  detail::eval_status(latch->core,
                      detail::lua::count_down_latch_count_down({latch->name, latch->channel},
                                                               {latch->publish_command}),
                      "count_down", std::move(done));
}

void CountDownLatch::start_try_set_count(const detail::ObjectPtr& object, std::int64_t count,
                                         detail::Done<bool> done) {
  const auto latch = detail::state_of<detail::CountDownLatchState>(object);
  using namespace detail;
  if (count <= 0) return done(invalid_argument("the count must be positive"), false);
  eval_flag(latch->core,
            lua::count_down_latch_try_set_count({latch->name, latch->channel},
                                                {count, latch->publish_command}),
            "try_set_count", std::move(done));
}

void CountDownLatch::start_count(const detail::ObjectPtr& object, detail::Done<std::int64_t> done) {
  const auto latch = detail::state_of<detail::CountDownLatchState>(object);
  detail::get_count(*latch,
                    [done = std::move(done)](detail::Status status, std::int64_t count) mutable {
                      done(std::move(status), std::max<std::int64_t>(count, 0));
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

}  // namespace redisson
