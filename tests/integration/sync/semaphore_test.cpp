// The counting semaphore against a real redis-server: never more holders than permits across
// processes, waking on the release message, the exact Redisson layout (a string count and the
// redisson_sc channel carrying the new count), and clear errors that change nothing.
#include "redisson/semaphore.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/error.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>
#include <cstdio>
#include <future>
#include <mutex>
#include <optional>
#include <semaphore>
#include <thread>
#include <vector>

#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_semaphore_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::Messages;
using redisson::test::RedisServer;
using redisson::test::spawn_children;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

constexpr int kPoolPermits = 2;

// A process of its own: 150 rounds of taking a permit of "pool" and counting, in Redis, how
// many are inside at once ("violations" when more than kPoolPermits). args: the server's URL.
REDISSON_TEST_CHILD(use_pool_permits) {
  Client client(config_for(args.at(0)));
  redisson::Semaphore semaphore(client, "pool");
  for (int i = 0; i < 150; ++i) {
    semaphore.acquire();
    const auto inside = client.execute({"INCR", "inside"}).integer;
    if (inside > kPoolPermits) client.execute({"INCR", "violations"});
    if (inside == kPoolPermits) client.execute({"INCR", "full"});
    client.execute({"DECR", "inside"});
    semaphore.release();
  }
  return 0;
}

}  // namespace

TEST(Semaphore, HoldersNeverExceedPermitsAcrossProcesses) {
  RedisServer server;
  constexpr int kProcesses = 4;
  {
    Client client(config_for(server));
    ASSERT_TRUE(redisson::Semaphore(client, "pool").try_set_permits(kPoolPermits));
  }
  const auto children = spawn_children("use_pool_permits", kProcesses, {server.url()});
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_EQ(server.command({"GET", "violations"}), "(nil)");
  EXPECT_EQ(server.command({"GET", "inside"}), "0");
  EXPECT_EQ(server.command({"GET", "pool"}), std::to_string(kPoolPermits));
  // Informational: how often both permits were in use at once (contention really happened).
  std::printf("rounds with all %d permits held: %s\n", kPoolPermits,
              server.command({"GET", "full"}).c_str());
}

// The undo of an acquisition no replica acknowledged (Config::sync_replicas). After a failover
// the client may send it to the new master, which never saw the acquisition: there it must add
// nothing, and where the acquisition was taken it gives the permits back once.
TEST(Semaphore, GivingBackAnAcquisitionActsOnlyWhereItWasTakenAndOnce) {
  RedisServer server;
  server.command({"SET", "undo", "2"});
  const std::string acquire(redisson::detail::lua::semaphore_try_acquire.source);
  const std::string give_back(redisson::detail::lua::semaphore_give_back.source);
  const std::string latch = "redisson_acquire_latch:{undo}:request-1";
  auto undo = [&] {
    return server.command(
        {"EVAL", give_back, "3", "undo", "redisson_sc:{undo}", latch, "1", "publish"});
  };
  // A node that never saw the acquisition (no latch): nothing given back.
  EXPECT_EQ(undo(), "(nil)");
  EXPECT_EQ(server.command({"GET", "undo"}), "2");

  EXPECT_EQ(server.command({"EVAL", acquire, "2", "undo", latch, "1", "10000", "1"}), "1");
  EXPECT_EQ(server.command({"GET", "undo"}), "1");
  EXPECT_EQ(undo(), "2");      // given back where it was taken
  EXPECT_EQ(undo(), "(nil)");  // a resend: once only
  EXPECT_EQ(server.command({"GET", "undo"}), "2");
}

TEST(Semaphore, LayoutIsAStringCountAndChangesPublishTheNewCount) {
  RedisServer server;
  Client client(config_for(server));
  Messages messages;
  auto subscription = client.subscribe("redisson_sc:{layout}", messages.sink());
  redisson::Semaphore semaphore(client, "layout");
  EXPECT_EQ(semaphore.available_permits(), 0);
  EXPECT_FALSE(semaphore.try_acquire());  // absent: no permits
  EXPECT_TRUE(semaphore.try_set_permits(3));
  EXPECT_FALSE(semaphore.try_set_permits(7));
  EXPECT_EQ(server.command({"TYPE", "layout"}), "string");
  EXPECT_EQ(server.command({"GET", "layout"}), "3");
  EXPECT_EQ(server.command({"PTTL", "layout"}), "-1");
  EXPECT_TRUE(semaphore.try_acquire(2));
  EXPECT_EQ(server.command({"GET", "layout"}), "1");
  EXPECT_FALSE(semaphore.try_acquire(2));  // all or nothing
  EXPECT_EQ(server.command({"GET", "layout"}), "1");
  semaphore.release();
  EXPECT_EQ(server.command({"GET", "layout"}), "2");
  semaphore.add_permits(-5);
  EXPECT_EQ(server.command({"GET", "layout"}), "-3");
  semaphore.release();  // -2: nobody can acquire, so nothing is published
  EXPECT_EQ(semaphore.available_permits(), -2);
  EXPECT_FALSE(semaphore.try_acquire());
  EXPECT_EQ(semaphore.drain_permits(), -2);  // a negative count is reset, as Java's
  EXPECT_EQ(server.command({"GET", "layout"}), "0");
  semaphore.add_permits(4);
  EXPECT_EQ(semaphore.drain_permits(), 4);
  EXPECT_EQ(server.command({"GET", "layout"}), "0");
  EXPECT_EQ(semaphore.drain_permits(), 0);
  EXPECT_TRUE(semaphore.try_acquire(0));  // zero permits: nothing to take
  semaphore.release(0);
  EXPECT_EQ(server.command({"GET", "layout"}), "0");
  EXPECT_TRUE(semaphore.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
  EXPECT_FALSE(semaphore.delete_object());
  // Changes publish the new count when it is positive (Java Redisson's listener passes it to
  // Semaphore#release, which refuses negative numbers).
  const std::vector<std::string> expected{"3", "2", "4"};
  EXPECT_TRUE(eventually([&] { return messages.get() == expected; }))
      << ::testing::PrintToString(messages.get());
}

TEST(Semaphore, ReleaseWakesBlockedAcquirerByMessage) {
  RedisServer server;
  Client holder_client(config_for(server));
  redisson::Semaphore holder(holder_client, "wake");
  ASSERT_TRUE(holder.try_set_permits(0));
  Client waiter_client(config_for(server));
  redisson::Semaphore waiter(waiter_client, "wake");
  // Without the message the waiter would re-check only after a minute.
  waiter.set_recheck_interval(60s);
  std::promise<bool> acquired;
  std::thread waiting([&] { acquired.set_value(waiter.try_acquire_for(50s)); });
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{wake}", 1));
  holder.release();
  auto result = acquired.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s re-check
  waiting.join();
  EXPECT_TRUE(result.get());
  EXPECT_EQ(server.command({"GET", "wake"}), "0");
  // A waiter that got its permits leaves no subscription behind.
  EXPECT_TRUE(subscribers_are(server, "redisson_sc:{wake}", 0));
}

TEST(Semaphore, ReleaseOfSeveralPermitsWakesSeveralWaiters) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "many");
  semaphore.set_recheck_interval(60s);
  std::vector<std::future<bool>> waiters;
  for (int i = 0; i < 3; ++i) waiters.push_back(semaphore.async_acquire(1, asio::use_future));
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{many}", 1));
  Client other(config_for(server));
  redisson::Semaphore(other, "many").release(3);
  for (auto& waiter : waiters) {
    ASSERT_EQ(waiter.wait_for(20s), std::future_status::ready);
    EXPECT_TRUE(waiter.get());
  }
  EXPECT_EQ(server.command({"GET", "many"}), "0");
}

TEST(Semaphore, AcquireOfSeveralPermitsWaitsUntilEnoughAreFree) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "pair");
  semaphore.set_recheck_interval(60s);
  ASSERT_TRUE(semaphore.try_set_permits(1));
  auto waiting = semaphore.async_acquire(2, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{pair}", 1));
  EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout);  // one permit is not two
  EXPECT_EQ(server.command({"GET", "pair"}), "1");
  semaphore.release();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"GET", "pair"}), "0");
}

TEST(Semaphore, TryAcquireForTimesOutAndLeavesNoSubscription) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "scarce");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  EXPECT_FALSE(semaphore.try_acquire_for(200ms, 2));
  EXPECT_FALSE(semaphore.try_acquire_until(std::chrono::steady_clock::now() + 100ms, 2));
  EXPECT_TRUE(subscribers_are(server, "redisson_sc:{scarce}", 0));
  EXPECT_EQ(server.command({"GET", "scarce"}), "1");
  // A deadline already passed is one attempt, as std::counting_semaphore::try_acquire_until.
  EXPECT_TRUE(semaphore.try_acquire_until(std::chrono::system_clock::now() - 1s));
  EXPECT_EQ(server.command({"GET", "scarce"}), "0");
}

TEST(Semaphore, ForeignReleaseInRedissonLayoutWakesWaiter) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "shared");
  semaphore.set_recheck_interval(60s);
  server.command({"SET", "shared", "0"});
  auto waiting = semaphore.async_acquire(1, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{shared}", 1));
  // A Java Redisson release: increment, publish the new count.
  const std::string release =
      "local v = redis.call('incrby', KEYS[1], ARGV[1]); redis.call('publish', KEYS[2], v)";
  server.command({"EVAL", release, "2", "shared", "redisson_sc:{shared}", "1"});
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"GET", "shared"}), "0");
}

TEST(Semaphore, NameWithHashTagKeepsChannelInItsSlot) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "jobs{eu}");
  semaphore.set_recheck_interval(60s);
  auto waiting = semaphore.async_acquire(1, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:jobs{eu}", 1));
  semaphore.add_permits(1);
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"GET", "jobs{eu}"}), "0");
}

TEST(Semaphore, AsyncTwinsWork) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "async");
  EXPECT_TRUE(semaphore.async_try_set_permits(2, asio::use_future).get());
  EXPECT_TRUE(semaphore.async_acquire(2, 0ms, asio::use_future).get());
  EXPECT_FALSE(semaphore.async_acquire(1, 0ms, asio::use_future).get());
  EXPECT_EQ(semaphore.async_available_permits(asio::use_future).get(), 0);
  semaphore.async_release(1, asio::use_future).get();
  semaphore.async_add_permits(2, asio::use_future).get();
  EXPECT_EQ(semaphore.async_drain_permits(asio::use_future).get(), 3);
  std::promise<std::error_code> released;
  semaphore.async_release(1, [&](std::error_code ec) { released.set_value(ec); });
  EXPECT_FALSE(released.get_future().get());
  EXPECT_TRUE(semaphore.async_delete_object(asio::use_future).get());
  EXPECT_EQ(server.command({"EXISTS", "async"}), "0");
}

TEST(Semaphore, HasTheShapeOfStdCountingSemaphore) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore distributed(client, "shape");
  distributed.try_set_permits(1);
  std::counting_semaphore<4> local(1);
  auto exercise = [](auto& semaphore) {
    semaphore.acquire();
    const bool second = semaphore.try_acquire();
    const bool timed = semaphore.try_acquire_for(10ms);
    semaphore.release();
    const bool until = semaphore.try_acquire_until(std::chrono::steady_clock::now() + 1s);
    semaphore.release();
    return !second && !timed && until;
  };
  EXPECT_TRUE(exercise(local));
  EXPECT_TRUE(exercise(distributed));
  EXPECT_EQ(server.command({"GET", "shape"}), "1");
}

TEST(Semaphore, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  expect_error(
      errc::invalid_argument, [&] { redisson::Semaphore(client, ""); }, "empty name");
  redisson::Semaphore semaphore(client, "args");
  expect_error(
      errc::invalid_argument, [&] { semaphore.acquire(-1); }, "acquire(-1)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_acquire(-1); }, "try_acquire(-1)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_acquire_for(-1ms); }, "wait -1ms");
  expect_error(
      errc::invalid_argument, [&] { semaphore.release(-2); }, "release(-2)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_set_permits(-1); }, "set(-1)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.set_recheck_interval(0ms); }, "recheck");
  expect_error(
      errc::invalid_argument, [&] { semaphore.async_acquire(-1, 0ms, asio::use_future).get(); },
      "async_acquire(-1)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.async_acquire(1, -5ms, asio::use_future).get(); },
      "async wait -5ms");
  expect_error(
      errc::invalid_argument, [&] { semaphore.async_release(-1, asio::use_future).get(); },
      "async_release(-1)");
  EXPECT_EQ(server.command({"EXISTS", "args"}), "0");

  server.command({"HSET", "hashed", "field", "value"});
  redisson::Semaphore wrong(client, "hashed");
  expect_error(
      errc::wrong_type, [&] { wrong.acquire(); }, "acquire");
  expect_error(
      errc::wrong_type, [&] { wrong.try_acquire(); }, "try_acquire");
  expect_error(
      errc::wrong_type, [&] { wrong.try_acquire_for(1s); }, "try_acquire_for");
  expect_error(
      errc::wrong_type, [&] { wrong.release(); }, "release");
  expect_error(
      errc::wrong_type, [&] { wrong.try_set_permits(1); }, "try_set_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.add_permits(1); }, "add_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.drain_permits(); }, "drain_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.available_permits(); }, "available_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.delete_object(); }, "delete_object");
  EXPECT_EQ(server.command({"HGETALL", "hashed"}), "field\nvalue");

  // A string that is not a count is the wrong kind of value too.
  server.command({"SET", "text", "hello"});
  redisson::Semaphore text(client, "text");
  expect_error(
      errc::wrong_type, [&] { text.try_acquire(); }, "text try_acquire");
  expect_error(
      errc::wrong_type, [&] { text.release(); }, "text release");
  expect_error(
      errc::wrong_type, [&] { text.add_permits(-1); }, "text add_permits");
  expect_error(
      errc::wrong_type, [&] { text.drain_permits(); }, "text drain_permits");
  expect_error(
      errc::wrong_type, [&] { text.available_permits(); }, "text available_permits");
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
}

// A cancelled acquire (Asio per-operation cancellation) stops waiting at once, completes with
// operation_aborted, and leaves nothing behind that could take permits later.
TEST(Semaphore, CancelledAcquireTakesNothingAndReportsAborted) {
  RedisServer server;
  std::promise<std::pair<std::error_code, bool>> outcome;
  asio::cancellation_signal cancel;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "cancelled");
  semaphore.set_recheck_interval(60s);  // only a message or the cancel ends the wait
  semaphore.async_acquire(
      2, asio::bind_cancellation_slot(cancel.slot(), [&](std::error_code ec, bool acquired) {
        outcome.set_value({ec, acquired});
      }));
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{cancelled}", 1));  // it waits
  cancel.emit(asio::cancellation_type::terminal);
  auto done = outcome.get_future();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready) << "the cancel did not stop the wait";
  const auto [ec, acquired] = done.get();
  EXPECT_EQ(ec, std::error_code(asio::error::operation_aborted)) << ec.message();
  EXPECT_FALSE(acquired);
  // A waiter left behind would take both permits on the release message.
  semaphore.add_permits(2);
  Client other(config_for(server));
  EXPECT_TRUE(redisson::Semaphore(other, "cancelled").try_acquire_for(5s, 2));
}

// The server grants the permits, then the caller cancels before its handler ran (its executor
// is idle until then): the completion reports operation_aborted and the permits go back.
TEST(Semaphore, GrantThatRacesTheCancelIsGivenBack) {
  RedisServer server;
  asio::io_context caller;
  asio::cancellation_signal cancel;
  std::optional<std::pair<std::error_code, bool>> outcome;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "raced");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  semaphore.async_acquire(
      2, asio::bind_cancellation_slot(
             cancel.slot(), asio::bind_executor(caller, [&](std::error_code ec, bool acquired) {
               outcome.emplace(ec, acquired);
             })));
  ASSERT_TRUE(eventually([&] { return server.command({"GET", "raced"}) == "0"; }));
  cancel.emit(asio::cancellation_type::terminal);
  caller.run();  // returns once the handler ran
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->first, std::error_code(asio::error::operation_aborted))
      << outcome->first.message();
  EXPECT_FALSE(outcome->second);
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "raced"}) == "2";
  })) << server.command({"GET", "raced"});
}

}  // namespace sync_semaphore_test
