// A non-fair Lock's releaser yields to the waiters its release woke (src/sync/release_yield.hpp):
// the unlock script says how many subscribers its message reached, the releasing client records
// a short window when some were other clients, and its next acquisition waits that window out.
// The tests raise the window's floor to seconds, so that a woken waiter's speed on a loaded
// machine never decides the outcome.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <future>
#include <optional>
#include <string>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/on_io.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "sync/release_yield.hpp"

namespace sync_lock_release_yield_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::OwnerId;
using redisson::test::config_for;
using redisson::test::Messages;
using redisson::test::on_io;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

constexpr auto kGenerous = 20s;

void set_min_window(const Client& client, std::chrono::nanoseconds floor) {
  on_io(client, [floor](redisson::detail::ClientCore& core) {
    core.service<redisson::detail::ReleaseYield>().set_min_window(floor);
    return true;
  });
}

bool yielding(const Client& client, const std::string& channel) {
  return on_io(client, [&channel](redisson::detail::ClientCore& core) {
    return core.service<redisson::detail::ReleaseYield>()
        .window(channel, redisson::detail::Clock::now())
        .has_value();
  });
}

// Right after the release, as a loop that re-locks would: without the yield the releaser usually
// wins, and had it won, the waiter could not get the lock until the releaser let go.
void expect_the_waiter_goes_first(redisson::Lock& mine, redisson::Lock& theirs,
                                  std::future<bool>& waiting) {
  auto again = mine.async_lock(OwnerId(1), asio::use_future);
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  theirs.async_unlock(OwnerId(2), asio::use_future).get();
  ASSERT_EQ(again.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(again.get());
  mine.async_unlock(OwnerId(1), asio::use_future).get();
  EXPECT_FALSE(mine.is_locked());
}

}  // namespace

TEST(LockReleaseYield, UnlockScriptCountsTheSubscribersItsReleaseReached) {
  RedisServer server;
  const std::string channel = "redisson_lock__channel:{counted}";
  const std::string source(redisson::detail::lua::lock_unlock.source);
  auto unlock = [&](const std::string& latch) {
    return server.command({"EVAL", source, "3", "counted", channel,
                           "redisson_unlock_latch:{counted}:" + latch, "0", "30000", "me:1",
                           "publish", "20000", "1"});
  };
  EXPECT_EQ(unlock("a"), "(nil)");  // not the owner
  server.command({"HSET", "counted", "me:1", "2"});
  EXPECT_EQ(unlock("b"), "0");  // one of two holds
  EXPECT_EQ(unlock("c"), "1");  // the last hold, nobody listening

  Client first(config_for(server));
  Client second(config_for(server));
  Messages heard;
  auto one = first.subscribe(channel, heard.sink());
  ASSERT_TRUE(subscribers_are(server, channel, 1));
  server.command({"HSET", "counted", "me:1", "1"});
  EXPECT_EQ(unlock("d"), "2");
  auto two = second.subscribe(channel, heard.sink());
  ASSERT_TRUE(subscribers_are(server, channel, 2));
  server.command({"HSET", "counted", "me:1", "1"});
  EXPECT_EQ(unlock("e"), "3");
  // A retry of that request id answers what the first attempt did, releasing nothing more.
  EXPECT_EQ(
      server.command({"EVAL", source, "3", "counted", channel, "redisson_unlock_latch:{counted}:e",
                      "0", "30000", "me:1", "publish", "20000", "0"}),
      "3");
}

TEST(LockReleaseYield, WaiterInAnotherClientWinsOverTheReleasersNextLock) {
  RedisServer server;
  Client releaser(config_for(server));
  Client waiter(config_for(server));
  set_min_window(releaser, 3s);
  auto mine = redisson::Lock(releaser, "turns");
  auto theirs = redisson::Lock(waiter, "turns");
  ASSERT_TRUE(mine.async_try_lock(OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = theirs.async_lock(OwnerId(2), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{turns}", 1));

  mine.async_unlock(OwnerId(1), asio::use_future).get();
  expect_the_waiter_goes_first(mine, theirs, waiting);
}

// A blocking unlock in a client that subscribes to nothing reads its reply on the caller's
// thread (redisson/detail/read_slot.hpp); the yield is the I/O thread's and must be in place
// before unlock() returns, or a lock() right after it goes first.
TEST(LockReleaseYield, ABlockingUnlockReadByItsCallerYieldsBeforeItReturns) {
  RedisServer server;
  Client releaser(config_for(server));
  Client waiter(config_for(server));
  set_min_window(releaser, 3s);
  auto mine = redisson::Lock(releaser, "turns");
  auto theirs = redisson::Lock(waiter, "turns");
  ASSERT_TRUE(mine.try_lock());
  auto waiting = theirs.async_lock(OwnerId(2), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{turns}", 1));

  mine.unlock();
  expect_the_waiter_goes_first(mine, theirs, waiting);
}

TEST(LockReleaseYield, SingleTryAndReentryAreNeverHeldBack) {
  RedisServer server;
  Client releaser(config_for(server));
  Client waiter(config_for(server));
  set_min_window(releaser, 600s);  // a held-back call would not finish within this test
  auto mine = redisson::Lock(releaser, "prompt");
  auto theirs = redisson::Lock(waiter, "prompt");
  ASSERT_TRUE(mine.async_try_lock(OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = theirs.async_lock(OwnerId(2), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{prompt}", 1));
  mine.async_unlock(OwnerId(1), asio::use_future).get();
  EXPECT_TRUE(yielding(releaser, "redisson_lock__channel:{prompt}"));
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  ASSERT_TRUE(waiting.get());

  // A single try asks whether the lock is free now: answered at once (no).
  auto single = mine.async_try_lock(OwnerId(1), 0ms, std::nullopt, asio::use_future);
  ASSERT_EQ(single.wait_for(kGenerous), std::future_status::ready);
  EXPECT_FALSE(single.get());
  theirs.async_unlock(OwnerId(2), asio::use_future).get();
  auto free_now = mine.async_try_lock(OwnerId(3), 0ms, std::nullopt, asio::use_future);
  ASSERT_EQ(free_now.wait_for(kGenerous), std::future_status::ready);
  ASSERT_TRUE(free_now.get());
  // Its holder re-entering, even with a wait, is not held back either.
  auto reentry = mine.async_try_lock(OwnerId(3), 10min, std::nullopt, asio::use_future);
  ASSERT_EQ(reentry.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(reentry.get());
  EXPECT_EQ(mine.async_hold_count(OwnerId(3), asio::use_future).get(), 2);
}

TEST(LockReleaseYield, ReleaseHeardOnlyByTheReleasersOwnSubscriptionDoesNotYield) {
  RedisServer server;
  auto config = config_for(server);
  config.subscription_linger = 600s;  // its subscription stays while the test runs
  Client client(config);
  set_min_window(client, 600s);
  auto lock = redisson::Lock(client, "alone");
  const std::string channel = "redisson_lock__channel:{alone}";
  ASSERT_TRUE(lock.async_try_lock(OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = lock.async_lock(OwnerId(2), asio::use_future);  // subscribes this client
  ASSERT_TRUE(subscribers_are(server, channel, 1));
  lock.async_unlock(OwnerId(1), asio::use_future).get();
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  ASSERT_TRUE(waiting.get());
  lock.async_unlock(OwnerId(2), asio::use_future).get();
  // Both releases reached only this client's own (now lingering) subscription.
  EXPECT_FALSE(yielding(client, channel));
  auto next = lock.async_lock(OwnerId(1), asio::use_future);
  ASSERT_EQ(next.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(next.get());
}

}  // namespace sync_lock_release_yield_test
