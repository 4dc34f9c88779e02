// The TCP fault proxy (tests/fault/) against a real redis-server: it forwards, and each fault
// does to a real client what the network would.
#include "fault/fault_proxy.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <future>
#include <string>

#include "redisson/client.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/redis_server.hpp"

namespace fault_fault_proxy_test {

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

namespace {

// A connect timeout of 2 s: some tests hold the handshake for a while on purpose.
Config through(const FaultProxy& proxy, std::chrono::milliseconds command_timeout = 1000ms) {
  return fault_config(proxy.url(), command_timeout, 2000ms);
}

}  // namespace

TEST(FaultProxy, ForwardsCommandsAndRepliesBothWays) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy));
  EXPECT_EQ(client.execute({"SET", "k", "v"}).str, "OK");
  EXPECT_EQ(client.execute({"GET", "k"}).str, "v");
  EXPECT_EQ(server.command({"GET", "k"}), "v");
  EXPECT_GE(proxy.open_connections(), 1u);
  EXPECT_GT(proxy.bytes_forwarded(Direction::client_to_server), 0u);
  EXPECT_GT(proxy.bytes_forwarded(Direction::server_to_client), 0u);
}

TEST(FaultProxy, LargeValuesPassThroughASmallBoundedBuffer) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port(), /*buffer_limit=*/4096);
  Client client(through(proxy, 10000ms));
  std::string big(1 << 20, 'x');
  for (std::size_t i = 0; i < big.size(); i += 997) big[i] = static_cast<char>('a' + i % 26);
  EXPECT_EQ(client.execute({"SET", "big", big}).str, "OK");
  EXPECT_EQ(client.execute({"GET", "big"}).str, big);
}

TEST(FaultProxy, LatencyLongerThanTheDeadlineTimesCommandsOut) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy, 300ms));
  proxy.set_latency(Direction::server_to_client, 2000ms);
  std::error_code ec;
  client.execute({"SET", "slow", "1"}, ec);
  EXPECT_EQ(ec, errc::timeout);
  // The command itself went through; only its reply was late.
  EXPECT_TRUE(eventually([&] { return server.command({"GET", "slow"}) == "1"; }));
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return answers(client); }));
}

TEST(FaultProxy, PartitionHoldsTrafficAndHealDeliversIt) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy, 20000ms));
  ASSERT_TRUE(answers(client));
  proxy.partition();
  auto pending = client.async_execute(Command{"SET", "held", "yes"}, asio::use_future);
  EXPECT_EQ(pending.wait_for(300ms), std::future_status::timeout);
  EXPECT_EQ(server.command({"EXISTS", "held"}), "0");
  EXPECT_GE(proxy.open_connections(), 1u);  // a partition keeps the sockets open
  proxy.heal();
  ASSERT_EQ(pending.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(pending.get().str, "OK");
  EXPECT_EQ(server.command({"GET", "held"}), "yes");
}

TEST(FaultProxy, OneWayBlockLetsCommandsRunButLosesTheirReplies) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy, 20000ms));
  ASSERT_TRUE(answers(client));
  proxy.block(Direction::server_to_client);
  auto pending = client.async_execute(Command{"INCR", "ran"}, asio::use_future);
  EXPECT_TRUE(eventually([&] { return server.command({"GET", "ran"}) == "1"; }));
  EXPECT_EQ(pending.wait_for(100ms), std::future_status::timeout);
  proxy.heal();
  ASSERT_EQ(pending.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(pending.get().integer, 1);
}

TEST(FaultProxy, ResetAllBreaksConnectionsAndClientReconnects) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy));
  ASSERT_TRUE(answers(client));
  const auto before = proxy.accepted();
  proxy.reset_all();
  EXPECT_TRUE(eventually([&] { return proxy.accepted() > before && answers(client); }));
}

TEST(FaultProxy, RefusedConnectionsKeepFailingUntilHealed) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(through(proxy));
  ASSERT_TRUE(answers(client));
  proxy.refuse_new(true);
  proxy.reset_all();
  const auto before = proxy.accepted();
  // The client keeps trying (each attempt is accepted and reset) and stays disconnected.
  ASSERT_TRUE(eventually([&] { return proxy.accepted() >= before + 2; }));
  EXPECT_FALSE(client.connected());
  EXPECT_EQ(proxy.open_connections(), 0u);
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return answers(client); }));
}

TEST(FaultProxy, StopsCleanlyWithOpenAndHeldConnections) {
  RedisServer server;
  auto proxy = std::make_unique<FaultProxy>(server.host(), server.port());
  Client client(through(*proxy, 500ms));
  ASSERT_TRUE(answers(client));
  proxy->partition();
  auto pending = client.async_execute(Command{"PING"}, asio::use_future);
  proxy->stop();
  proxy->stop();  // idempotent
  ASSERT_EQ(pending.wait_for(10s), std::future_status::ready);
  EXPECT_THROW(pending.get(), std::system_error);
  proxy.reset();
  EXPECT_EQ(server.command({"PING"}), "PONG");
}

}  // namespace fault_fault_proxy_test
