// Locks through the fault proxy: a holder cut off past its lease, a waiter whose pub/sub
// connection breaks while the release message is published, and an unlock whose reply is lost.
// (lock_test.cpp covers the same scripts with the network intact; these are what a network
// fault adds.)
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <future>

#include "fault/fault_proxy.hpp"
#include "redisson/client.hpp"
#include "redisson/fenced_lock.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::Direction;
using redisson::test::eventually;
using redisson::test::FaultProxy;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

Config config_for(std::string_view url, std::chrono::milliseconds watchdog = 30000ms) {
  auto config = redisson::test::fault_config(url, 1000ms);
  config.lock_watchdog_timeout = watchdog;
  return config;
}

}  // namespace

TEST(LockFault, HolderPartitionedPastItsLeaseLosesTheLockAndLearnsIt) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client holder(config_for(proxy.url(), 900ms));
  Client other(config_for(server.url()));
  auto lock = holder.get_lock("cut-off");
  std::atomic<std::uint64_t> lost_owner{0};
  lock.on_lost([&](std::uint64_t owner) { lost_owner = owner; });
  ASSERT_TRUE(lock.async_try_lock(1, 0ms, std::nullopt, asio::use_future).get());
  proxy.partition();
  // Renewals cannot reach Redis: the lease runs out and someone else may take the lock.
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "cut-off"}) == "0"; }, 10s));
  auto taken = other.get_lock("cut-off");
  ASSERT_TRUE(taken.async_try_lock(2, 0ms, std::nullopt, asio::use_future).get());
  proxy.heal();
  // The first renewal that gets through answers "gone": the holder is told, never left believing.
  EXPECT_TRUE(eventually([&] { return lost_owner.load() == 1; }, 10s));
  EXPECT_TRUE(lock.lost(1));
  try {
    lock.async_unlock(1, asio::use_future).get();
    FAIL() << "unlock of a lost lock succeeded";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner) << e.what();
  }
  EXPECT_EQ(server.command({"HGETALL", "cut-off"}), other.id() + ":2\n1");
  taken.async_unlock(2, asio::use_future).get();
}

TEST(LockFault, FencingTokenOfTheNewHolderIsHigherAfterAPartition) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client holder(config_for(proxy.url(), 900ms));
  Client other(config_for(server.url()));
  auto lock = holder.get_fenced_lock("fenced-cut");
  const auto first =
      lock.async_try_lock_and_get_token(1, 0ms, std::nullopt, asio::use_future).get();
  ASSERT_TRUE(first.has_value());
  proxy.partition();
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "fenced-cut"}) == "0"; }, 10s));
  auto taken = other.get_fenced_lock("fenced-cut");
  const auto second =
      taken.async_try_lock_and_get_token(2, 0ms, std::nullopt, asio::use_future).get();
  ASSERT_TRUE(second.has_value());
  // The partitioned holder may still believe it holds the lock; a resource that refuses tokens
  // lower than the highest it has seen refuses it.
  EXPECT_GT(*second, *first);
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return lock.lost(1); }, 10s));
  taken.async_unlock(2, asio::use_future).get();
}

TEST(LockFault, WaiterWhosePubSubConnectionIsResetStillAcquiresAfterTheUnlock) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client holder(config_for(server.url()));
  Client waiter_client(config_for(proxy.url()));
  auto held = holder.get_lock("wake-me");
  // A long explicit lease: the waiter's fallback (the lock's TTL) is far beyond the test's wait,
  // so only the resubscribe-and-recheck path can wake it in time.
  ASSERT_TRUE(held.async_try_lock(1, 0ms, 60000ms, asio::use_future).get());
  auto waiter = waiter_client.get_lock("wake-me");
  auto acquired = waiter.async_lock(2, asio::use_future);
  const std::string channel = "redisson_lock__channel:{wake-me}";
  ASSERT_TRUE(subscribers_are(server, channel, 1));
  proxy.refuse_new(true);
  proxy.reset_all();
  ASSERT_TRUE(subscribers_are(server, channel, 0));
  held.async_unlock(1, asio::use_future).get();  // its release message reaches nobody
  EXPECT_EQ(acquired.wait_for(100ms), std::future_status::timeout);
  proxy.refuse_new(false);
  ASSERT_EQ(acquired.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(acquired.get());
  EXPECT_EQ(server.command({"HGETALL", "wake-me"}), waiter_client.id() + ":2\n1");
  waiter.async_unlock(2, asio::use_future).get();
}

TEST(LockFault, UnlockWhoseReplyIsLostIsRetriedWithoutDoubleDecrement) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  auto config = config_for(proxy.url());
  config.command_timeout = 3000ms;
  Client client(config);
  // Load the unlock script first: a NOSCRIPT reply held by the proxy would stop the unlock
  // from running at all.
  auto warm_up = client.get_lock("warm-up");
  ASSERT_TRUE(warm_up.async_try_lock(7, 0ms, std::nullopt, asio::use_future).get());
  warm_up.async_unlock(7, asio::use_future).get();
  auto lock = client.get_lock("twice");
  ASSERT_TRUE(lock.async_try_lock(7, 0ms, std::nullopt, asio::use_future).get());
  ASSERT_TRUE(lock.async_try_lock(7, 0ms, std::nullopt, asio::use_future).get());
  const auto field = lock.owner_field(7);
  ASSERT_EQ(server.command({"HGET", "twice", field}), "2");
  proxy.block(Direction::server_to_client);
  auto unlocked = lock.async_unlock(7, asio::use_future);
  // The unlock ran on the server; its reply is held by the proxy and then lost with the
  // connection. The client cannot know whether it ran, so it sends the same request again.
  ASSERT_TRUE(eventually([&] { return server.command({"HGET", "twice", field}) == "1"; }));
  proxy.reset_all();
  proxy.heal();
  ASSERT_EQ(unlocked.wait_for(20s), std::future_status::ready);
  EXPECT_NO_THROW(unlocked.get());
  // The retry found the unlock latch and did not decrement a second time.
  EXPECT_EQ(server.command({"HGET", "twice", field}), "1");
  EXPECT_EQ(lock.async_hold_count(7, asio::use_future).get(), 1);
  lock.async_unlock(7, asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "twice"}), "0");
}
