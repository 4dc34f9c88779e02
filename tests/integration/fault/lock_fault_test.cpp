// Locks through the fault proxy: a holder cut off past its lease, a waiter whose pub/sub
// connection breaks while the release message is published, and an unlock whose reply is lost.
// (lock_test.cpp covers the same scripts with the network intact; these are what a network
// fault adds.)
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <future>

#include "fault/fault_proxy.hpp"
#include "redisson/fair_lock.hpp"
#include "redisson/fenced_lock.hpp"
#include "redisson/lock.hpp"
#include "redisson/read_write_lock.hpp"
#include "redisson/redisson.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace fault_lock_fault_test {

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
  auto lock = redisson::Lock(holder, "cut-off");
  std::atomic<std::uint64_t> lost_owner{0};
  lock.on_lost([&](redisson::OwnerId owner) { lost_owner = owner.value(); });
  ASSERT_TRUE(lock.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  proxy.partition();
  // Renewals cannot reach Redis: the lease runs out and someone else may take the lock.
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "cut-off"}) == "0"; }, 10s));
  auto taken = redisson::Lock(other, "cut-off");
  ASSERT_TRUE(
      taken.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  proxy.heal();
  // The first renewal that gets through answers "gone": the holder is told, never left believing.
  EXPECT_TRUE(eventually([&] { return lost_owner.load() == 1; }, 10s));
  EXPECT_TRUE(lock.lost(redisson::OwnerId(1)));
  try {
    lock.async_unlock(redisson::OwnerId(1), asio::use_future).get();
    FAIL() << "unlock of a lost lock succeeded";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner) << e.what();
  }
  EXPECT_EQ(server.command({"HGETALL", "cut-off"}), other.id() + ":2\n1");
  taken.async_unlock(redisson::OwnerId(2), asio::use_future).get();
}

TEST(LockFault, FencingTokenOfTheNewHolderIsHigherAfterAPartition) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client holder(config_for(proxy.url(), 900ms));
  Client other(config_for(server.url()));
  auto lock = redisson::FencedLock(holder, "fenced-cut");
  const auto first =
      lock.async_try_lock_and_get_token(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future)
          .get();
  ASSERT_TRUE(first.has_value());
  proxy.partition();
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", "fenced-cut"}) == "0"; }, 10s));
  auto taken = redisson::FencedLock(other, "fenced-cut");
  const auto second =
      taken.async_try_lock_and_get_token(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future)
          .get();
  ASSERT_TRUE(second.has_value());
  // The partitioned holder may still believe it holds the lock; a resource that refuses tokens
  // lower than the highest it has seen refuses it.
  EXPECT_GT(*second, *first);
  proxy.heal();
  EXPECT_TRUE(eventually([&] { return lock.lost(redisson::OwnerId(1)); }, 10s));
  taken.async_unlock(redisson::OwnerId(2), asio::use_future).get();
}

// How one run of the scenario below ended.
enum class ResetRun {
  woke,   // the waiter slept through the reset and took the lock after the unlock
  raced,  // its re-check went out on the command connection before the client saw that reset
};

// The proxy resets the waiter client's pub/sub and command connections at once. The waiter
// re-checks when its subscription is interrupted. When the client sees the command connection's
// reset first, the re-check waits for the reconnect; when it sees the pub/sub one first, the
// re-check is written to the dead command connection and fails with connection_lost (it may have
// run: the wait reports the outage, as documented). Which reset the client reads first is the
// kernel's; such a run says nothing about the wake-up path and is run again.
// (void, with `run` as its result, so that ASSERT can stop it.)
void wait_through_a_pubsub_reset(ResetRun& run) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client holder(config_for(server.url()));
  Client waiter_client(config_for(proxy.url()));
  auto held = redisson::Lock(holder, "wake-me");
  // A long explicit lease: the waiter's fallback (the lock's TTL) is far beyond the test's wait,
  // so only the resubscribe-and-recheck path can wake it in time.
  ASSERT_TRUE(held.async_try_lock(redisson::OwnerId(1), 0ms, 60000ms, asio::use_future).get());
  auto waiter = redisson::Lock(waiter_client, "wake-me");
  server.command({"CONFIG", "RESETSTAT"});
  auto acquired = waiter.async_lock(redisson::OwnerId(2), asio::use_future);
  const std::string channel = "redisson_lock__channel:{wake-me}";
  ASSERT_TRUE(subscribers_are(server, channel, 1));
  // The reset must find the waiter asleep: an attempt whose connection is reset fails the wait
  // (an outage is reported, not slept on). Its two attempts are: before and after subscribing.
  ASSERT_TRUE(eventually([&] {
    return server.command({"INFO", "commandstats"}).find("cmdstat_evalsha:calls=2,") !=
           std::string::npos;
  }));
  // The server ran the second attempt; its reply may still be on its way to the waiter. A PING
  // on the same connection is answered after it, and replies are handled in order: once the PING
  // is answered, the waiter has read its attempt's reply and sleeps.
  waiter_client.async_execute(redisson::Command{"PING"}, asio::use_future).get();
  proxy.refuse_new(true);
  proxy.reset_all();
  ASSERT_TRUE(subscribers_are(server, channel, 0));
  held.async_unlock(redisson::OwnerId(1), asio::use_future)
      .get();  // its release message reaches nobody
  if (acquired.wait_for(100ms) == std::future_status::ready) {
    try {
      acquired.get();
      ADD_FAILURE() << "acquired while the waiter's connections were refused";
    } catch (const std::system_error& e) {  // asio::use_future's type, not redisson::error
      EXPECT_EQ(e.code(), errc::connection_lost) << e.what();
    }
    run = ResetRun::raced;
    return;
  }
  proxy.refuse_new(false);
  ASSERT_EQ(acquired.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(acquired.get());
  EXPECT_EQ(server.command({"HGETALL", "wake-me"}), waiter_client.id() + ":2\n1");
  waiter.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  run = ResetRun::woke;
}

TEST(LockFault, WaiterWhosePubSubConnectionIsResetStillAcquiresAfterTheUnlock) {
  // Up to five runs for one that tells (a race lost four times in a row would be news).
  int raced = 0;
  for (auto run = ResetRun::raced; raced < 5; ++raced) {
    wait_through_a_pubsub_reset(run);
    if (HasFatalFailure() || run == ResetRun::woke) break;
  }
  EXPECT_LT(raced, 5) << "every run's re-check raced the command connection's reset";
}

TEST(LockFault, UnlockWhoseReplyIsLostIsRetriedWithoutDoubleDecrement) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  auto config = config_for(proxy.url());
  config.command_timeout = 3000ms;
  Client client(config);
  // Load the unlock script first: a NOSCRIPT reply held by the proxy would stop the unlock
  // from running at all.
  auto warm_up = redisson::Lock(client, "warm-up");
  ASSERT_TRUE(
      warm_up.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future).get());
  warm_up.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  auto lock = redisson::Lock(client, "twice");
  ASSERT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future).get());
  ASSERT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future).get());
  const auto field = lock.owner_field(redisson::OwnerId(7));
  ASSERT_EQ(server.command({"HGET", "twice", field}), "2");
  proxy.block(Direction::server_to_client);
  auto unlocked = lock.async_unlock(redisson::OwnerId(7), asio::use_future);
  // The unlock ran on the server; its reply is held by the proxy and then lost with the
  // connection. The client cannot know whether it ran, so it sends the same request again.
  ASSERT_TRUE(eventually([&] { return server.command({"HGET", "twice", field}) == "1"; }));
  proxy.reset_all();
  proxy.heal();
  ASSERT_EQ(unlocked.wait_for(20s), std::future_status::ready);
  EXPECT_NO_THROW(unlocked.get());
  // The retry found the unlock latch and did not decrement a second time.
  EXPECT_EQ(server.command({"HGET", "twice", field}), "1");
  EXPECT_EQ(lock.async_hold_count(redisson::OwnerId(7), asio::use_future).get(), 1);
  lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "twice"}), "0");
}

// A hold the client never learnt of: the acquisition ran but its reply was lost (here: held back
// by the proxy past the command timeout). Before, the same thread's next lock() re-entered it
// (count 2, the client knowing of 1), its unlock left one hold, and every later lock()/unlock()
// pair renewed that hold's lease, so as long as the thread kept using the lock nobody else ever
// got it (found by `make chaos`: one worker kept the fair lock for 10 s while seven others
// timed out). Now the next acquisition sets the count to what the client knows plus one.
template <class MakeLock>
void lost_acquire_reply_is_not_kept(const char* what, MakeLock make_lock, const std::string& key) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(redisson::test::fault_config(proxy.url(), 300ms));
  Client other(server.url());
  auto lock = make_lock(client);
  lock.lock();  // loads the scripts: a NOSCRIPT reply held back would mean the script never ran
  lock.unlock();

  proxy.set_latency(Direction::server_to_client, 800ms);
  try {
    lock.lock();
    ADD_FAILURE() << what << ": lock() succeeded with its reply held back";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::timeout) << what << ": " << e.what();
  }
  EXPECT_EQ(server.command({"EXISTS", key}), "1") << what << ": the acquisition ran";
  proxy.heal();
  ASSERT_TRUE(eventually([&] { return redisson::test::answers(client); })) << what;

  lock.lock();
  lock.unlock();
  EXPECT_EQ(server.command({"EXISTS", key}), "0")
      << what << ": the hold whose reply was lost outlived the unlock";
  auto taker = make_lock(other);
  EXPECT_TRUE(taker.try_lock()) << what << ": another client could not take the lock";
  taker.unlock();
}

TEST(LockFault, AHoldWhoseAcquireReplyWasLostDoesNotOutliveTheNextUnlock) {
  lost_acquire_reply_is_not_kept(
      "lock", [](Client& c) { return redisson::Lock(c, "lost-reply:lock"); }, "lost-reply:lock");
  lost_acquire_reply_is_not_kept(
      "fair lock", [](Client& c) { return redisson::FairLock(c, "lost-reply:fair"); },
      "lost-reply:fair");
  lost_acquire_reply_is_not_kept(
      "fenced lock", [](Client& c) { return redisson::FencedLock(c, "lost-reply:fenced"); },
      "lost-reply:fenced");
}

// The other way a hold goes unknown: in a failover, an unlock the old master took that never
// reached the promoted replica. The server then counts one more hold of this owner than the
// client knows of; the unlock that the client thinks is its last answers "still held", and the
// acquisition after it puts the count right, so the pair after that releases the lock.
TEST(LockFault, AHoldLeftByAForgottenUnlockIsGoneAfterTheNextTwoPairs) {
  RedisServer server;
  Client client(server.url());
  auto lock = redisson::Lock(client, "forgotten-unlock");
  const auto field =
      client.id() + ":" + std::to_string(redisson::OwnerId::current_thread().value());
  ASSERT_EQ(server.command({"HSET", "forgotten-unlock", field, "1"}), "1");
  ASSERT_EQ(server.command({"PEXPIRE", "forgotten-unlock", "30000"}), "1");

  lock.lock();  // re-enters the forgotten hold: count 2
  lock.unlock();
  EXPECT_EQ(server.command({"HGET", "forgotten-unlock", field}), "1");
  lock.lock();  // the client knew of none: count set to 1
  lock.unlock();
  EXPECT_EQ(server.command({"EXISTS", "forgotten-unlock"}), "0");
}

TEST(LockFault, AWriteHoldWhoseAcquireReplyWasLostDoesNotOutliveTheNextUnlock) {
  lost_acquire_reply_is_not_kept(
      "write lock",
      [](Client& c) { return redisson::ReadWriteLock(c, "lost-reply:rw").write_lock(); },
      "lost-reply:rw");
}

}  // namespace fault_lock_fault_test
