// The waiting loop's subscription linger (src/sync/acquire_loop.cpp, Config::subscription_linger):
// a waiter that comes back while its channel is still subscribed listens before its first
// attempt, sends no SUBSCRIBE and is still woken by the release message; the channel is let
// go once the linger has passed.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_acquire_loop_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::test::client_config;
using redisson::test::command_calls;
using redisson::test::eventually;
using redisson::test::numsub;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

constexpr const char* kChannel = "redisson_lock__channel:{linger}";

// Config's reconnect back-off: these tests never lose their server.
Config linger_config(const RedisServer& server, std::chrono::milliseconds linger) {
  auto config = client_config(server.url(), {.command_timeout = 5000ms,
                                             .reconnect_max_delay = Config{}.reconnect_max_delay});
  config.subscription_linger = linger;
  return config;
}

// The holder releases once the waiter's lock() has made an attempt (answered with the PTTL, a
// 30 s sleep): only the release message can wake it within the wait given.
void hand_over_once(RedisServer& server, redisson::Lock& holder, redisson::Lock& waiter) {
  holder.lock();
  const auto attempts_before = command_calls(server, "evalsha");
  auto acquired = std::async(std::launch::async, [&] {
    const bool got = waiter.try_lock_for(20s);
    if (got) waiter.unlock();
    return got;
  });
  ASSERT_TRUE(eventually([&] { return command_calls(server, "evalsha") > attempts_before; }));
  ASSERT_TRUE(subscribers_are(server, kChannel, 1));
  holder.unlock();
  EXPECT_TRUE(acquired.get());
}

}  // namespace

TEST(AcquireLoop, AWaiterComingBackWithinTheLingerSendsNoSubscribeAndIsStillWoken) {
  RedisServer server;
  Client holder_client(linger_config(server, 60s));
  Client waiter_client(linger_config(server, 60s));
  auto holder = redisson::Lock(holder_client, "linger");
  auto waiter = redisson::Lock(waiter_client, "linger");

  hand_over_once(server, holder, waiter);
  const auto subscribes = command_calls(server, "subscribe");
  EXPECT_EQ(subscribes, 1);
  // The waiter's channel stays subscribed after its wait ended...
  EXPECT_EQ(numsub(server, kChannel), std::string(kChannel) + "\n1");
  // ...so its next waits listen at once and are woken by the release without subscribing again.
  hand_over_once(server, holder, waiter);
  hand_over_once(server, holder, waiter);
  EXPECT_EQ(command_calls(server, "subscribe"), subscribes);
  EXPECT_EQ(command_calls(server, "unsubscribe"), 0);
}

TEST(AcquireLoop, TheChannelIsReleasedOnceTheLingerHasPassed) {
  RedisServer server;
  Client holder_client(linger_config(server, 0ms));
  Client waiter_client(linger_config(server, 200ms));
  auto holder = redisson::Lock(holder_client, "linger");
  auto waiter = redisson::Lock(waiter_client, "linger");

  hand_over_once(server, holder, waiter);
  EXPECT_TRUE(subscribers_are(server, kChannel, 0));
  EXPECT_EQ(command_calls(server, "unsubscribe"), 1);
  // A later wait subscribes afresh and is woken as before.
  hand_over_once(server, holder, waiter);
  EXPECT_EQ(command_calls(server, "subscribe"), 2);
}

TEST(AcquireLoop, WithoutLingerTheChannelIsReleasedWhenTheWaitEnds) {
  RedisServer server;
  Client holder_client(linger_config(server, 0ms));
  Client waiter_client(linger_config(server, 0ms));
  auto holder = redisson::Lock(holder_client, "linger");
  auto waiter = redisson::Lock(waiter_client, "linger");

  hand_over_once(server, holder, waiter);
  EXPECT_TRUE(subscribers_are(server, kChannel, 0));
  hand_over_once(server, holder, waiter);
  EXPECT_EQ(command_calls(server, "subscribe"), 2);
  EXPECT_TRUE(eventually([&] { return command_calls(server, "unsubscribe") == 2; }));
}

}  // namespace sync_acquire_loop_test
