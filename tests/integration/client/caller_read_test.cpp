// A blocking execute() on an idle connection reads its own reply (redisson/detail/read_slot.hpp).
// These tests drive that path where it can go wrong: pushes and other replies parsed by the caller
// must reach the I/O thread in order, and a connection that breaks under a reading caller must
// end its call at once, not at the command's deadline.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace client_caller_read_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::client_config;
using redisson::test::eventually;
using redisson::test::RedisServer;

// With client-side tracking on, writing a key this connection read sends it an invalidation
// push next to the write's reply: the caller must answer with the reply, never with the push.
TEST(CallerRead, APushNextToTheReplyIsNotTakenForIt) {
  RedisServer server;
  Client client(server.url());
  ASSERT_EQ(client.execute({"CLIENT", "TRACKING", "ON"}).str, "OK");
  for (int i = 0; i < 200; ++i) {
    const auto value = std::to_string(i);
    client.execute({"GET", "tracked"});  // tracked from here on
    EXPECT_EQ(client.execute({"SET", "tracked", value}).str, "OK");
    EXPECT_EQ(client.execute({"GET", "tracked"}).str, value);
    EXPECT_EQ(client.execute({"PING"}).str, "PONG");
  }
}

// An invalidation push that arrives while the caller waits for a blocking command's reply
// comes first on the socket: the caller must skip it and hand it on, then take the answer.
TEST(CallerRead, APushBeforeTheReplyIsHandedOnAndTheReplyTaken) {
  RedisServer server;
  Client client(client_config(server.url(), {.command_timeout = 20000ms}));
  ASSERT_EQ(client.execute({"CLIENT", "TRACKING", "ON"}).str, "OK");
  const auto id = client.execute({"CLIENT", "ID"}).integer;
  for (int round = 0; round < 3; ++round) {
    client.execute({"GET", "watched"});  // tracked: the next write to it sends us a push
    auto waiter = std::async(std::launch::async, [&] {
      return client.execute({"BLPOP", "work", "10"});
    });
    ASSERT_TRUE(eventually([&] {
      return server.command({"CLIENT", "LIST", "ID", std::to_string(id)}).find("cmd=blpop") !=
             std::string::npos;
    }));
    server.command({"SET", "watched", std::to_string(round)});  // the push, while we wait
    server.command({"RPUSH", "work", "job" + std::to_string(round)});
    const auto reply = waiter.get();
    ASSERT_EQ(reply.elements.size(), 2U);
    EXPECT_EQ(reply.elements[0].str, "work");
    EXPECT_EQ(reply.elements[1].str, "job" + std::to_string(round));
    EXPECT_EQ(client.execute({"PING"}).str, "PONG");
  }
}

// The server closes the connection while the caller waits for its reply (a BLPOP that would
// block 8 s): the call fails with connection_lost right away, and the client reconnects.
TEST(CallerRead, AConnectionClosedUnderTheCallerEndsItsCallAtOnce) {
  RedisServer server;
  Client client(client_config(server.url(), {.command_timeout = 20000ms}));
  const auto id = client.execute({"CLIENT", "ID"}).integer;
  auto waiter = std::async(std::launch::async, [&] {
    std::error_code ec;
    const auto started = std::chrono::steady_clock::now();
    client.execute({"BLPOP", "never-filled", "8"}, ec);
    return std::make_pair(ec, std::chrono::steady_clock::now() - started);
  });
  ASSERT_TRUE(eventually([&] {
    return server.command({"CLIENT", "LIST", "ID", std::to_string(id)}).find("cmd=blpop") !=
           std::string::npos;
  }));
  server.command({"CLIENT", "KILL", "ID", std::to_string(id)});
  const auto [ec, took] = waiter.get();
  EXPECT_EQ(ec, errc::connection_lost);
  EXPECT_LT(took, 7s);  // not when the BLPOP would have ended
  EXPECT_TRUE(eventually([&] {
    std::error_code again;
    return client.execute({"ECHO", "back"}, again).str == "back" && !again;
  }));
}

// Callers on several threads: one reads its reply while the others' commands queue behind it
// on the same connection; the replies it parses for them are delivered by the I/O thread.
TEST(CallerRead, RepliesParsedForCommandsQueuedBehindReachTheirCallers) {
  RedisServer server;
  Client client(server.url());
  constexpr int kThreads = 4;
  constexpr int kRounds = 2000;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        const auto word = std::to_string(t) + ":" + std::to_string(i);
        std::error_code ec;
        if (client.execute({"ECHO", word}, ec).str != word || ec) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

// A reply larger than one read arrives in many pieces: the caller reads and parses until it is
// whole, with the other commands' replies behind it handed on.
TEST(CallerRead, AReplyLargerThanOneReadIsAssembled) {
  RedisServer server;
  Client client(client_config(server.url(), {.command_timeout = 30000ms}));
  std::string big(6 * 1024 * 1024, 'x');
  for (std::size_t i = 0; i < big.size(); i += 1000) big[i] = static_cast<char>('a' + i % 26);
  server.command({"SET", "big", big});
  for (int round = 0; round < 3; ++round) {
    auto behind = std::async(std::launch::async, [&] {
      std::vector<std::string> echoes;
      for (int i = 0; i < 200; ++i)
        echoes.push_back(client.execute({"ECHO", std::to_string(i)}).str);
      return echoes;
    });
    EXPECT_EQ(client.execute({"GET", "big"}).str, big);
    const auto echoes = behind.get();
    for (int i = 0; i < 200; ++i) EXPECT_EQ(echoes[static_cast<std::size_t>(i)], std::to_string(i));
  }
}

}  // namespace client_caller_read_test
