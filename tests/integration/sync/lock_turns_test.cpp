// A Lock's waiters take turns (src/sync/lua/lock_acquire_in_turn.lua): a waiter that finds the
// lock taken writes itself into an order (a sorted set by since when it waits), and a free lock
// goes to the longest waiter; a younger one that gets there first defers to it for a short grace,
// after which it goes ahead and drops the late one. An acquisition's first attempt, a single try
// (wait 0) and Java Redisson's waiters keep the first-come rule.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_lock_turns_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::OwnerId;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::Messages;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

constexpr auto kGenerous = 20s;

const std::string kLock = "turns";
const std::string kWaiters = "redisson_lock_waiters:{turns}";
const std::string kLate = "redisson_lock_waiters_late:{turns}";
const std::string kChannel = "redisson_lock__channel:{turns}";

// One attempt with the script itself: `waited_us` as the client would send it, a grace of 50 ms
// unless given.
std::string attempt(const RedisServer& server, const std::string& field, long waited_us,
                    const std::string& reentrant = "1", long grace_us = 50000) {
  const std::string source(redisson::detail::lua::lock_acquire_in_turn.source);
  return server.command({"EVAL", source, "3", kLock, kWaiters, kLate, "30000", field,
                         std::to_string(waited_us), std::to_string(grace_us), reentrant});
}

std::string rank_of(const RedisServer& server, const std::string& field) {
  return server.command({"ZRANK", kWaiters, field});
}

// The {sleep, ahead} reply's ahead.
std::string ahead_in(const std::string& reply) { return reply.substr(reply.rfind('\n') + 1); }

}  // namespace

TEST(LockTurns, ScriptOrdersWaitersBySinceWhenTheyWait) {
  RedisServer server;
  ASSERT_EQ(attempt(server, "holder:1", 0), "(nil)");
  // Taken: each waiter is written in, the one waiting longest first.
  EXPECT_EQ(ahead_in(attempt(server, "young:1", 1'000)), "0");
  EXPECT_EQ(ahead_in(attempt(server, "old:1", 900'000)), "0");
  EXPECT_EQ(rank_of(server, "young:1"), "1");
  // A waiter's since stays the earliest it gave (the clocks of client and server differ a little).
  attempt(server, "old:1", 10);
  EXPECT_EQ(rank_of(server, "old:1"), "0");
  EXPECT_EQ(server.command({"PTTL", kWaiters}).size() >= 5, true);  // ~90 s: lease + a minute

  // Free: the younger defers (told the grace and that nobody is ahead once the older has it)...
  server.command({"DEL", kLock});
  EXPECT_EQ(attempt(server, "young:1", 2'000), "50\n0");
  EXPECT_EQ(server.command({"EXISTS", kLock}), "0");
  EXPECT_EQ(server.command({"EXISTS", kLate}), "1");
  // ...and so does anyone younger after it, told to sleep until the release (or ten graces).
  EXPECT_EQ(attempt(server, "newcomer:1", 0), "500\n1");
  // The longest waiter takes it and leaves the order; the marker of its lateness goes too.
  EXPECT_EQ(attempt(server, "old:1", 950'000), "(nil)");
  EXPECT_EQ(server.command({"HGET", kLock, "old:1"}), "1");
  EXPECT_EQ(rank_of(server, "old:1"), "(nil)");
  EXPECT_EQ(server.command({"EXISTS", kLate}), "0");
  EXPECT_EQ(server.command({"ZCARD", kWaiters}), "2");

  // The rest in turn: the order and its keys are gone once nobody waits.
  server.command({"DEL", kLock});
  EXPECT_EQ(attempt(server, "young:1", 3'000), "(nil)");
  server.command({"DEL", kLock});
  EXPECT_EQ(attempt(server, "newcomer:1", 1'000), "(nil)");
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
  EXPECT_EQ(server.command({"EXISTS", kLate}), "0");
}

TEST(LockTurns, ScriptGivesTheLockToAYoungerWaiterOnceTheGraceHasPassed) {
  RedisServer server;
  server.command({"ZADD", kWaiters, "1", "gone:1"});  // waited since 1970: gone long ago
  // A grace of 100 ms: the script remembers for ten graces (1 s) that the older waiter is late,
  // so the second attempt must come after the grace and within that second. (A 1 ms grace left
  // a 10 ms window, which a loaded machine's redis-cli start missed.)
  ASSERT_EQ(attempt(server, "live:1", 0, "1", 100'000), "100\n0");
  std::this_thread::sleep_for(150ms);  // past the grace
  EXPECT_EQ(attempt(server, "live:1", 160'000, "1", 100'000), "(nil)");
  EXPECT_EQ(server.command({"HGET", kLock, "live:1"}), "1");
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");  // the late one was dropped
  EXPECT_EQ(server.command({"EXISTS", kLate}), "0");
}

TEST(LockTurns, ScriptKeepsTheLockLayoutForReentryAndRefusals) {
  RedisServer server;
  ASSERT_EQ(attempt(server, "me:1", 0), "(nil)");
  EXPECT_EQ(attempt(server, "me:1", 0), "(nil)");
  EXPECT_EQ(server.command({"HGET", kLock, "me:1"}), "2");
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");  // a holder never waits
  // Not re-entrant: the holder asking again is refused and nothing changes.
  EXPECT_EQ(attempt(server, "me:1", 0, "0"), "-3");
  EXPECT_EQ(server.command({"HGET", kLock, "me:1"}), "2");
  // A key of another type: WRONGTYPE, left as it was.
  server.command({"SET", "turns", "text"});
  EXPECT_NE(attempt(server, "me:1", 0).find("WRONGTYPE"), std::string::npos);
  EXPECT_EQ(server.command({"GET", "turns"}), "text");
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
}

// Redis writes a release message to the channel's subscribers in the order they subscribed. The
// younger waiter's client subscribed first (a subscription of its own), so it hears every release
// first: under the first-come rule it would win most of these rounds.
TEST(LockTurns, TheLongestWaiterGetsTheLockAlthoughAYoungerOneHearsTheReleaseFirst) {
  RedisServer server;
  Client holder_client(config_for(server));
  Client old_client(config_for(server));
  Client young_client(config_for(server));
  Messages heard;
  auto early = young_client.subscribe(kChannel, heard.sink());
  ASSERT_TRUE(subscribers_are(server, kChannel, 1));
  auto holder = redisson::Lock(holder_client, kLock);
  auto old_waiter = redisson::Lock(old_client, kLock);
  auto young_waiter = redisson::Lock(young_client, kLock);

  for (int round = 0; round < 5; ++round) {
    ASSERT_TRUE(holder.async_try_lock(OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
    auto old_turn = old_waiter.async_lock(OwnerId(2), asio::use_future);
    ASSERT_TRUE(eventually([&] { return rank_of(server, old_client.id() + ":2") == "0"; }));
    auto young_turn = young_waiter.async_lock(OwnerId(3), asio::use_future);
    ASSERT_TRUE(eventually([&] { return rank_of(server, young_client.id() + ":3") == "1"; }));

    holder.async_unlock(OwnerId(1), asio::use_future).get();
    ASSERT_EQ(old_turn.wait_for(kGenerous), std::future_status::ready);
    EXPECT_TRUE(old_turn.get());
    EXPECT_EQ(young_turn.wait_for(50ms), std::future_status::timeout) << "round " << round;
    old_waiter.async_unlock(OwnerId(2), asio::use_future).get();
    ASSERT_EQ(young_turn.wait_for(kGenerous), std::future_status::ready);
    EXPECT_TRUE(young_turn.get());
    young_waiter.async_unlock(OwnerId(3), asio::use_future).get();
  }
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
}

TEST(LockTurns, AWaiterThatStopsWaitingLeavesTheOrder) {
  RedisServer server;
  Client holder_client(config_for(server));
  Client waiter_client(config_for(server));
  auto holder = redisson::Lock(holder_client, kLock);
  auto waiter = redisson::Lock(waiter_client, kLock);
  ASSERT_TRUE(holder.try_lock());
  EXPECT_FALSE(waiter.try_lock_for(300ms));
  // (It leaves without holding up the caller: the removal may land just after the return.)
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", kWaiters}) == "0"; }));
  holder.unlock();
}

// A waiter that went away without leaving (a crashed process) holds a free lock up for one grace.
TEST(LockTurns, AWaiterThatIsGoneDoesNotHoldTheLockUp) {
  RedisServer server;
  Client holder_client(config_for(server));
  Client client(config_for(server));
  server.command({"ZADD", kWaiters, "1", "gone:1"});
  auto holder = redisson::Lock(holder_client, kLock);
  auto lock = redisson::Lock(client, kLock);
  // A first attempt keeps the first-come rule: it takes a free lock at once, past the order.
  ASSERT_TRUE(lock.try_lock());
  EXPECT_EQ(server.command({"ZCARD", kWaiters}), "1");
  lock.unlock();
  ASSERT_TRUE(lock.try_lock_for(10s));
  EXPECT_EQ(server.command({"ZCARD", kWaiters}), "1");
  lock.unlock();

  // A waiter defers to the older entry for the grace, then goes ahead and drops it.
  ASSERT_TRUE(holder.try_lock());
  auto waiting = lock.async_try_lock(OwnerId(2), 10s, std::nullopt, asio::use_future);
  ASSERT_TRUE(eventually([&] { return rank_of(server, client.id() + ":2") == "1"; }));
  holder.unlock();
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
  lock.async_unlock(OwnerId(2), asio::use_future).get();
}

}  // namespace sync_lock_turns_test
