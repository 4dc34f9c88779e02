// A caller on its own thread that finds the connection idle writes its command to the socket
// itself (net/connection.hpp). These tests drive that path where it can go wrong: a command too
// big for one send (the rest goes through the I/O thread), callers racing each other and the
// I/O thread's own writes, and a deadline that must still hold without the I/O thread's help.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <functional>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace client_caller_write_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::errc;
using redisson::Reply;
using redisson::test::client_config;
using redisson::test::eventually;
using redisson::test::RedisServer;

// 16 MiB is more than a loopback socket takes in one non-blocking send: the rest is written by
// the I/O thread, and the commands after it must still line up with their replies.
TEST(CallerWrite, CommandLargerThanTheSocketBufferArrivesWhole) {
  RedisServer server;
  Client client(client_config(server.url(), {.command_timeout = 30000ms}));
  std::string big(16 * 1024 * 1024, 'x');
  for (std::size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + i % 26);
  EXPECT_EQ(client.execute({"SET", "big", big}).str, "OK");
  EXPECT_EQ(client.execute({"STRLEN", "big"}).integer, static_cast<std::int64_t>(big.size()));
  EXPECT_EQ(client.execute({"GETRANGE", "big", "40960", "40970"}).str, big.substr(40960, 11));
  // Another caller right behind a big write finds the connection busy and queues.
  auto writer = std::async(std::launch::async, [&] { return client.execute({"SET", "b2", big}); });
  std::vector<std::int64_t> counts;
  for (int i = 0; i < 50; ++i) counts.push_back(client.execute({"INCR", "n"}).integer);
  EXPECT_EQ(writer.get().str, "OK");
  for (int i = 0; i < 50; ++i) EXPECT_EQ(counts[static_cast<std::size_t>(i)], i + 1);
  EXPECT_EQ(server.command({"STRLEN", "b2"}), std::to_string(big.size()));
}

// Blocking callers on several threads, with a pipelined flood from the I/O thread's own
// callbacks at the same time: every reply reaches its own caller.
TEST(CallerWrite, ThreadsAndThePipelineNeverGetEachOthersReplies) {
  RedisServer server;
  Client client(server.url());
  constexpr int kThreads = 6;
  constexpr int kRounds = 1500;
  std::atomic<int> mismatches{0};
  std::atomic<bool> flooding{true};
  std::atomic<int> flood_replies{0};
  std::atomic<int> flood_in_flight{0};
  // Each reply of the flood sends the next command from the I/O thread, keeping 32 in flight.
  std::function<void()> send_next = [&] {
    ++flood_in_flight;
    client.async_execute(Command{"INCR", "flood"}, [&](std::error_code ec, const Reply&) {
      if (ec) ++mismatches;
      ++flood_replies;
      if (flooding) send_next();
      --flood_in_flight;
    });
  };
  for (int i = 0; i < 32; ++i) send_next();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string key = "caller:" + std::to_string(t);
      for (int i = 1; i <= kRounds; ++i) {
        std::error_code ec;
        const auto reply = client.execute({"INCR", key}, ec);
        if (ec || reply.integer != i) ++mismatches;
        const auto echo = client.execute({"ECHO", key + ":" + std::to_string(i)}, ec);
        if (ec || echo.str != key + ":" + std::to_string(i)) ++mismatches;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  flooding = false;
  // The flood's callbacks use this frame: let the last of them finish first.
  for (int i = 0; i < 2000 && flood_in_flight.load() > 0; ++i) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(flood_in_flight.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(server.command({"GET", "caller:" + std::to_string(t)}), std::to_string(kRounds));
  }
  EXPECT_EQ(server.command({"GET", "flood"}), std::to_string(flood_replies.load()));
}

// The first command arms the deadline timer; a later one written by its caller, due after that
// timer, relies on the timer's expiry re-arming for it (no message to the I/O thread). A server
// stuck in DEBUG SLEEP must still make it time out instead of waiting for the late reply.
TEST(CallerWrite, LaterDeadlineIsKeptWithoutTheIoThreadBeingTold) {
  RedisServer server;
  Client client(client_config(server.url(), {.command_timeout = 600ms}));
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
  std::this_thread::sleep_for(200ms);  // still before the first command's deadline
  std::error_code ec;
  client.execute({"DEBUG", "SLEEP", "3"}, ec);
  EXPECT_EQ(ec, errc::timeout);
  // Once the server is back, the late reply is dropped and the connection (or its replacement,
  // if it was presumed dead) is in step with its callers.
  EXPECT_TRUE(eventually([&] {
    std::error_code again;
    return client.execute({"ECHO", "after"}, again).str == "after" && !again;
  }));
  EXPECT_EQ(client.execute({"ECHO", "next"}).str, "next");
}

}  // namespace client_caller_write_test
