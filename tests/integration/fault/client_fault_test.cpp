// The client core through the fault proxy: what a partition, a reset and refused reconnects do to
// commands in flight, and that the client comes back by itself. (client_test.cpp covers CLIENT
// KILL, a stopped server and DEBUG SLEEP; these are the faults only a network makes.)
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <future>

#include "fault/fault_proxy.hpp"
#include "redisson/client.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/redis_server.hpp"

namespace fault_client_fault_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::errc;
using redisson::test::answers;
using redisson::test::Direction;
using redisson::test::eventually;
using redisson::test::fault_config;
using redisson::test::FaultProxy;
using redisson::test::RedisServer;

TEST(ClientFault, DeadlineFiresAsTimeoutDuringPartitionAndClientRecoversAfterHeal) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 300ms));
  ASSERT_TRUE(answers(client));
  proxy.partition();
  for (int i = 0; i < 3; ++i) {
    std::error_code ec;
    client.execute({"SET", "during", std::to_string(i)}, ec);
    EXPECT_EQ(ec, errc::timeout) << ec.message();
  }
  proxy.heal();
  // Held commands reach the server now; their late replies are dropped, and new commands get
  // their own replies, in order.
  EXPECT_TRUE(eventually([&] { return answers(client); }));
  EXPECT_EQ(client.execute({"SET", "after", "1"}).str, "OK");
  EXPECT_EQ(client.execute({"GET", "after"}).str, "1");
  EXPECT_EQ(client.execute({"INCR", "n"}).integer, 1);
}

TEST(ClientFault, ResetFailsCommandsInFlightWithConnectionLostAndClientReconnects) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 20000ms));
  ASSERT_TRUE(answers(client));
  proxy.block(Direction::server_to_client);
  auto in_flight = client.async_execute(Command{"INCR", "ran"}, asio::use_future);
  ASSERT_TRUE(eventually([&] { return server.command({"GET", "ran"}) == "1"; }));
  const auto before = proxy.accepted();
  proxy.reset_all();
  proxy.heal();
  ASSERT_EQ(in_flight.wait_for(10s), std::future_status::ready);
  try {
    in_flight.get();
    FAIL() << "a command whose connection broke cannot have a reply";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::connection_lost) << e.what();
  }
  EXPECT_TRUE(eventually([&] { return answers(client); }));
  EXPECT_GT(proxy.accepted(), before);
  EXPECT_EQ(client.execute({"INCR", "ran"}).integer, 2);  // the lost one ran exactly once
}

TEST(ClientFault, ReconnectAttemptsBackOffWhileRefusedAndSucceedOnceHealed) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 1000ms));
  ASSERT_TRUE(answers(client));
  proxy.refuse_new(true);
  const auto before = proxy.accepted();
  const auto start = std::chrono::steady_clock::now();
  proxy.reset_all();
  ASSERT_TRUE(eventually([&] { return proxy.accepted() >= before + 6; }));
  // Back-off delays are 0, 100, 200, 200, ... ms (capped by reconnect_max_delay): six attempts
  // cannot fit in a quarter second even with two connections retrying; a client retrying in a
  // hot loop would make thousands.
  EXPECT_GE(std::chrono::steady_clock::now() - start, 250ms);
  EXPECT_FALSE(client.connected());
  std::error_code ec;
  client.execute({"PING"}, ec);
  EXPECT_TRUE(ec == errc::timeout || ec == errc::connection_lost) << ec.message();
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return answers(client); }));
  EXPECT_TRUE(client.connected());
}

TEST(ClientFault, LatencyBelowTheDeadlineOnlySlowsCommands) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 5000ms));
  proxy.set_latency(Direction::both, 50ms);
  std::vector<std::future<redisson::Reply>> replies;
  for (int i = 0; i < 100; ++i) {
    replies.push_back(client.async_execute(Command{"INCR", "slow"}, asio::use_future));
  }
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(replies[static_cast<std::size_t>(i)].get().integer, i + 1);
}

// Found by `make chaos`: a connection whose peer never answers and never closes (half-open TCP;
// there, a proxy socket kept alive by another process) left every command timing out for the
// rest of the run. The server here runs what it is sent, but its replies never come back.
TEST(ClientFault, ConnectionThatNeverAnswersIsReopenedAfterTwoTimeouts) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 300ms));
  ASSERT_TRUE(answers(client));
  const auto before = proxy.accepted();
  proxy.block(Direction::server_to_client);
  std::error_code ec;
  client.execute({"SET", "first", "1"}, ec);
  EXPECT_EQ(ec, errc::timeout) << ec.message();
  EXPECT_EQ(proxy.accepted(), before) << "one timeout alone is a slow server, not a dead one";
  client.execute({"SET", "second", "1"}, ec);
  EXPECT_EQ(ec, errc::timeout) << ec.message();
  // Not one byte came back across two deadlines: the client drops the connection and dials
  // again (and again, while replies stay blocked).
  EXPECT_TRUE(eventually([&] { return proxy.accepted() > before; }, 5s))
      << "the client kept waiting on a connection that never answers";
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return answers(client); }));
  EXPECT_EQ(client.execute({"GET", "second"}).str, "1");  // it did run; only the reply was lost
}

}  // namespace fault_client_fault_test
