// Asio per-operation cancellation of lock acquisitions: a cancelled wait completes with
// operation_aborted and never takes the lock afterwards; a grant that raced the cancel is given
// back; a fair waiter leaves the queue; nothing is renewed for a cancelled acquisition.
#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/use_future.hpp>
#include <future>
#include <optional>
#include <variant>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "watchdog/hold_registry.hpp"
#include "watchdog/watchdog.hpp"

namespace sync_lock_cancel_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::OwnerId;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

struct Outcome {
  std::error_code ec;
  bool acquired = false;
};

std::size_t watched(const Client& client) {
  return redisson::detail::ClientAccess::core(client)
      ->service<redisson::detail::Watchdog>()
      .holds()
      .watched();
}

// Starts an async acquisition of `lock` by `owner` that waits (someone else holds it) with a
// cancellation slot, and returns the signal and the outcome's future.
template <class LockType>
std::future<Outcome> start_cancellable_wait(const Client& client, LockType& lock, OwnerId owner,
                                            asio::cancellation_signal& signal) {
  auto outcome = std::make_shared<std::promise<Outcome>>();
  auto future = outcome->get_future();
  // Slots are not thread-safe: the handler (which has no executor of its own) completes on the
  // client's I/O thread, so the signal is emitted there too.
  asio::post(client.get_executor(), [&lock, owner, &signal, outcome] {
    lock.async_lock(owner, asio::bind_cancellation_slot(
                               signal.slot(), [outcome](std::error_code ec, bool acquired) {
                                 outcome->set_value({ec, acquired});
                               }));
  });
  return future;
}

void emit_on(const Client& client, asio::cancellation_signal& signal) {
  std::promise<void> emitted;
  asio::post(client.get_executor(), [&] {
    signal.emit(asio::cancellation_type::terminal);
    emitted.set_value();
  });
  emitted.get_future().wait();
}

}  // namespace

TEST(LockCancel, ACancelledWaitEndsAbortedAndNeverTakesTheLockLater) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Lock lock(client, "cancelled");
  lock.lock();  // held by this thread

  asio::cancellation_signal signal;
  const auto waiter = client.new_owner_id();
  auto outcome = start_cancellable_wait(client, lock, waiter, signal);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{cancelled}", 1));
  emit_on(client, signal);
  ASSERT_EQ(outcome.wait_for(10s), std::future_status::ready);
  const auto result = outcome.get();
  EXPECT_EQ(result.ec, asio::error::operation_aborted) << result.ec.message();
  EXPECT_FALSE(result.acquired);

  // The release wakes nobody who could take it: the lock stays free, and nothing is renewed.
  lock.unlock();
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{cancelled}", 0));
  EXPECT_EQ(server.command({"EXISTS", "cancelled"}), "0");
  EXPECT_EQ(lock.async_hold_count(waiter, asio::use_future).get(), 0);
  EXPECT_EQ(watched(client), 0u);
}

TEST(LockCancel, AWaitRacedByATimerInACoroutineGivesUpCleanly) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Lock lock(client, "raced");
  lock.lock();

  using namespace asio::experimental::awaitable_operators;
  asio::io_context io;
  std::optional<std::size_t> winner;
  const auto owner = client.new_owner_id();
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        asio::steady_timer timer(co_await asio::this_coro::executor, 300ms);
        auto result = co_await (lock.async_lock(owner, asio::use_awaitable) ||
                                timer.async_wait(asio::use_awaitable));
        winner = result.index();
      },
      asio::detached);
  io.run_for(20s);
  ASSERT_TRUE(winner.has_value());
  EXPECT_EQ(*winner, 1u);  // the timer

  lock.unlock();
  EXPECT_TRUE(subscribers_are(server, "redisson_lock__channel:{raced}", 0));
  EXPECT_EQ(server.command({"EXISTS", "raced"}), "0");
  EXPECT_EQ(watched(client), 0u);
}

TEST(LockCancel, AGrantThatRacedTheCancelIsGivenBack) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Lock lock(client, "granted");

  // The handler's executor does not run until the grant has arrived, so the cancel lands between
  // the grant and the handler: exactly the race to undo.
  asio::io_context handler_io;
  asio::cancellation_signal signal;
  std::optional<Outcome> outcome;
  const auto owner = client.new_owner_id();
  lock.async_lock(owner, asio::bind_cancellation_slot(
                             signal.slot(), asio::bind_executor(
                                                handler_io, [&](std::error_code ec, bool acquired) {
                                                  outcome = Outcome{ec, acquired};
                                                })));
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "granted"}) == "1"; }));
  ASSERT_TRUE(eventually([&] { return watched(client) == 1; }));
  signal.emit(asio::cancellation_type::terminal);  // handler_io is not running: no race on the slot
  handler_io.run_for(5s);
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->ec, asio::error::operation_aborted);
  EXPECT_FALSE(outcome->acquired);
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "granted"}) == "0"; }));
  // The registry forgets the hold when the release's reply arrives, just after the key is gone.
  EXPECT_TRUE(eventually([&] { return watched(client) == 0; }));
}

TEST(LockCancel, ACancelledFairWaiterLeavesTheQueue) {
  RedisServer server;
  Client client(config_for(server));
  redisson::FairLock lock(client, "fair-cancelled");
  lock.lock();

  asio::cancellation_signal signal;
  auto outcome = start_cancellable_wait(client, lock, client.new_owner_id(), signal);
  ASSERT_TRUE(eventually([&] {
    return server.command({"LLEN", "redisson_lock_queue:{fair-cancelled}"}) == "1";
  }));
  emit_on(client, signal);
  ASSERT_EQ(outcome.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(outcome.get().ec, asio::error::operation_aborted);
  EXPECT_TRUE(eventually([&] {
    return server.command({"LLEN", "redisson_lock_queue:{fair-cancelled}"}) == "0";
  }));

  // The next waiter is not stuck behind the one that left.
  lock.unlock();
  redisson::FairLock other(client, "fair-cancelled");
  EXPECT_EQ(other.async_try_lock(client.new_owner_id(), 0ms, std::nullopt, asio::use_future).get(),
            true);
}

}  // namespace sync_lock_cancel_test
