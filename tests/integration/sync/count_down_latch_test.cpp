// The count-down latch against a real redis-server: awaiters in several processes released by
// the last count_down, timeouts, Redisson's layout (a string count, the always-braced
// redisson_countdownlatch__channel__{n} channel with "1" / "0" messages), and clear errors
// that change nothing.
#include "redisson/count_down_latch.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/error.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>
#include <atomic>
#include <cstdio>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_count_down_latch_test {

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

std::string channel_of(const std::string& name) {
  return "redisson_countdownlatch__channel__{" + name + "}";
}

// A process of its own: 4 threads await the latch "start" on one client; exit status 0 when
// all were released in time by the message. args: the server's URL.
REDISSON_TEST_CHILD(await_start_latch) {
  constexpr int kThreads = 4;
  Client client(config_for(args.at(0)));
  redisson::CountDownLatch latch(client, "start");
  // Only the "0" message can release them in time: the fallback re-check is a minute.
  latch.set_recheck_interval(60s);
  std::atomic<int> released{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      if (latch.await_for(50s)) ++released;
    });
  }
  for (auto& thread : threads) thread.join();
  if (released != kThreads) return 2;
  return latch.count() == 0 ? 0 : 3;
}

}  // namespace

TEST(CountDownLatch, AwaitersAcrossProcessesAreReleasedByTheLastCountDown) {
  RedisServer server;
  constexpr int kProcesses = 3;
  {
    Client client(config_for(server));
    ASSERT_TRUE(redisson::CountDownLatch(client, "start").try_set_count(3));
  }
  const auto children = spawn_children("await_start_latch", kProcesses, {server.url()});
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "start");
  // One subscription per client: every process is waiting.
  ASSERT_TRUE(subscribers_are(server, channel_of("start"), kProcesses));
  latch.count_down();
  EXPECT_EQ(latch.count(), 2);
  latch.count_down();
  EXPECT_EQ(server.command({"GET", "start"}), "1");
  latch.count_down();
  EXPECT_EQ(server.command({"EXISTS", "start"}), "0");  // at zero the key is deleted
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_TRUE(subscribers_are(server, channel_of("start"), 0));
}

TEST(CountDownLatch, AwaitForTimesOutWhenNeverCountedDown) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "stuck");
  ASSERT_TRUE(latch.try_set_count(1));
  EXPECT_FALSE(latch.await_for(200ms));
  EXPECT_FALSE(latch.await_for(0ms));
  EXPECT_FALSE(latch.await_until(std::chrono::steady_clock::now() + 100ms));
  EXPECT_FALSE(latch.async_await(50ms, asio::use_future).get());
  EXPECT_FALSE(latch.try_wait());
  EXPECT_EQ(latch.count(), 1);
  EXPECT_EQ(server.command({"GET", "stuck"}), "1");
  EXPECT_TRUE(subscribers_are(server, channel_of("stuck"), 0));
}

TEST(CountDownLatch, LayoutAndMessagesMatchRedisson) {
  RedisServer server;
  Client client(config_for(server));
  Messages messages;
  auto subscription = client.subscribe(channel_of("layout"), messages.sink());
  redisson::CountDownLatch latch(client, "layout");
  EXPECT_EQ(latch.count(), 0);
  EXPECT_TRUE(latch.try_wait());
  latch.await();  // open: returns at once
  EXPECT_TRUE(latch.try_set_count(2));
  EXPECT_EQ(server.command({"TYPE", "layout"}), "string");
  EXPECT_EQ(server.command({"GET", "layout"}), "2");
  EXPECT_FALSE(latch.try_set_count(5));  // still counting down
  EXPECT_EQ(server.command({"GET", "layout"}), "2");
  latch.count_down();
  EXPECT_EQ(server.command({"GET", "layout"}), "1");
  latch.count_down();
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
  latch.count_down();  // an open latch stays open
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
  EXPECT_EQ(latch.count(), 0);
  EXPECT_TRUE(latch.await_for(0ms));
  EXPECT_TRUE(latch.try_set_count(1));  // reusable once open
  EXPECT_TRUE(latch.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
  EXPECT_FALSE(latch.delete_object());
  // "1": count set; "0": reached zero; "1": set again; "1": deleted.
  const std::vector<std::string> expected{"1", "0", "1", "1"};
  EXPECT_TRUE(eventually([&] { return messages.get() == expected; }))
      << ::testing::PrintToString(messages.get());
}

TEST(CountDownLatch, ChannelAlwaysHasBraces) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "job{7}");
  latch.set_recheck_interval(60s);
  ASSERT_TRUE(latch.try_set_count(1));
  auto waiting = latch.async_await(std::nullopt, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_countdownlatch__channel__{job{7}}", 1));
  latch.count_down();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
}

TEST(CountDownLatch, DeleteOpensTheLatchForAwaiters) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "deleted");
  latch.set_recheck_interval(60s);
  ASSERT_TRUE(latch.try_set_count(5));
  auto waiting = latch.async_await(std::nullopt, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, channel_of("deleted"), 1));
  Client other(config_for(server));
  EXPECT_TRUE(redisson::CountDownLatch(other, "deleted").delete_object());
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
}

TEST(CountDownLatch, ForeignCountDownInRedissonLayoutWakesAwaiter) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "shared");
  latch.set_recheck_interval(60s);
  server.command({"SET", "shared", "1"});
  std::promise<bool> opened;
  std::thread waiting([&] { opened.set_value(latch.await_for(50s)); });
  ASSERT_TRUE(subscribers_are(server, channel_of("shared"), 1));
  // A Java Redisson count-down: decrement; at zero delete and publish "0".
  const std::string count_down =
      "local v = redis.call('decr', KEYS[1]); if v <= 0 then redis.call('del', KEYS[1]) end; "
      "if v == 0 then redis.call('publish', KEYS[2], '0') end";
  server.command({"EVAL", count_down, "2", "shared", channel_of("shared")});
  auto result = opened.get_future();
  ASSERT_EQ(result.wait_for(20s), std::future_status::ready);
  waiting.join();
  EXPECT_TRUE(result.get());
}

TEST(CountDownLatch, AsyncTwinsWork) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "async");
  EXPECT_TRUE(latch.async_try_set_count(2, asio::use_future).get());
  EXPECT_EQ(latch.async_count(asio::use_future).get(), 2);
  auto waiting = latch.async_await(std::nullopt, asio::use_future);
  latch.async_count_down(asio::use_future).get();
  EXPECT_EQ(latch.async_count(asio::use_future).get(), 1);
  latch.async_count_down(asio::use_future).get();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_TRUE(latch.async_try_set_count(1, asio::use_future).get());
  EXPECT_TRUE(latch.async_delete_object(asio::use_future).get());
  EXPECT_EQ(server.command({"EXISTS", "async"}), "0");
}

TEST(CountDownLatch, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  expect_error(
      errc::invalid_argument, [&] { redisson::CountDownLatch(client, ""); }, "empty name");
  redisson::CountDownLatch latch(client, "args");
  expect_error(
      errc::invalid_argument, [&] { latch.try_set_count(0); }, "count 0");
  expect_error(
      errc::invalid_argument, [&] { latch.try_set_count(-3); }, "count -3");
  expect_error(
      errc::invalid_argument, [&] { latch.await_for(-1ms); }, "timeout -1ms");
  expect_error(
      errc::invalid_argument, [&] { latch.set_recheck_interval(0s); }, "recheck");
  expect_error(
      errc::invalid_argument, [&] { latch.async_try_set_count(-1, asio::use_future).get(); },
      "async count -1");
  expect_error(
      errc::invalid_argument, [&] { latch.async_await(-5ms, asio::use_future).get(); },
      "async timeout -5ms");
  EXPECT_EQ(server.command({"EXISTS", "args"}), "0");

  server.command({"HSET", "hashed", "field", "value"});
  redisson::CountDownLatch wrong(client, "hashed");
  expect_error(
      errc::wrong_type, [&] { wrong.try_set_count(1); }, "try_set_count");
  expect_error(
      errc::wrong_type, [&] { wrong.count_down(); }, "count_down");
  expect_error(
      errc::wrong_type, [&] { wrong.count(); }, "count");
  expect_error(
      errc::wrong_type, [&] { wrong.await(); }, "await");
  expect_error(
      errc::wrong_type, [&] { wrong.await_for(1s); }, "await_for");
  expect_error(
      errc::wrong_type, [&] { wrong.delete_object(); }, "delete_object");
  EXPECT_EQ(server.command({"HGETALL", "hashed"}), "field\nvalue");

  server.command({"SET", "text", "hello"});
  redisson::CountDownLatch text(client, "text");
  expect_error(
      errc::wrong_type, [&] { text.count_down(); }, "text count_down");
  expect_error(
      errc::wrong_type, [&] { text.try_set_count(2); }, "text try_set_count");
  expect_error(
      errc::wrong_type, [&] { text.await_for(1s); }, "text await_for");
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
}

// A cancelled await (Asio per-operation cancellation) stops waiting at once and completes with
// operation_aborted; the latch is untouched.
TEST(CountDownLatch, CancelledAwaitStopsWaitingAndReportsAborted) {
  RedisServer server;
  std::promise<std::pair<std::error_code, bool>> outcome;
  asio::cancellation_signal cancel;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "cancelled");
  latch.set_recheck_interval(60s);  // only a message or the cancel ends the wait
  ASSERT_TRUE(latch.try_set_count(1));
  latch.async_await(std::nullopt, asio::bind_cancellation_slot(
                                      cancel.slot(), [&](std::error_code ec, bool opened) {
                                        outcome.set_value({ec, opened});
                                      }));
  ASSERT_TRUE(subscribers_are(server, "redisson_countdownlatch__channel__{cancelled}", 1));
  cancel.emit(asio::cancellation_type::terminal);
  auto done = outcome.get_future();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready) << "the cancel did not stop the wait";
  const auto [ec, opened] = done.get();
  EXPECT_EQ(ec, std::error_code(asio::error::operation_aborted)) << ec.message();
  EXPECT_FALSE(opened);
  EXPECT_EQ(latch.count(), 1);
}

}  // namespace sync_count_down_latch_test
