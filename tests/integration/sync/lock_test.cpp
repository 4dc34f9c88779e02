// The re-entrant lock against a real redis-server: exclusion across processes, re-entrancy,
// leases and the watchdog, waking on the release message, retry-safe unlock, and the exact
// Redisson data layout (so Java Redisson processes can share the lock).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <csignal>
#include <future>
#include <mutex>
#include <thread>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "watchdog/hold_registry.hpp"
#include "watchdog/watchdog.hpp"

namespace sync_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::spawn_child;
using redisson::test::spawn_children;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

constexpr const char* kForeignOwner = "11111111-2222-3333-4444-555555555555:1";

long long to_int(const std::string& text) { return std::stoll(text); }

constexpr int kCounterIncrements = 150;

// A process of its own: kCounterIncrements non-atomic GET+SET increments of "counter", each
// under the lock. args: the server's URL.
REDISSON_TEST_CHILD(increment_counter_under_lock) {
  Client client(config_for(args.at(0)));
  auto lock = redisson::Lock(client, "counter-lock");
  for (int i = 0; i < kCounterIncrements; ++i) {
    std::lock_guard guard(lock);
    auto value = client.execute({"GET", "counter"});
    const long long n = value.is_null() ? 0 : std::stoll(value.str);
    client.execute(redisson::Command{"SET", "counter"}.arg(static_cast<std::int64_t>(n + 1)));
  }
  return 0;
}

// Takes "doomed" with a 1 s watchdog lease, writes a byte to the fd args[1], then waits to be
// killed. args: the server's URL, the fd.
REDISSON_TEST_CHILD(hold_lock_until_killed) {
  Client client(config_for(args.at(0), 1000ms));
  auto lock = redisson::Lock(client, "doomed");
  lock.lock();
  char byte = 1;
  [[maybe_unused]] auto n = write(std::stoi(args.at(1)), &byte, 1);
  pause();
  return 0;
}

}  // namespace

TEST(Lock, MutualExclusionAcrossProcessesKeepsNonAtomicCounterExact) {
  RedisServer server;
  constexpr int kProcesses = 4;
  const auto children = spawn_children("increment_counter_under_lock", kProcesses, {server.url()});
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_EQ(to_int(server.command({"GET", "counter"})), kProcesses * kCounterIncrements);
  EXPECT_EQ(server.command({"EXISTS", "counter-lock"}), "0");
}

TEST(Lock, ReentrantHoldsAreCounted) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "re");
  lock.lock();
  lock.lock();
  EXPECT_TRUE(lock.try_lock());
  EXPECT_EQ(lock.hold_count(), 3);
  lock.unlock();
  EXPECT_EQ(lock.hold_count(), 2);
  EXPECT_TRUE(lock.is_locked());
  lock.unlock();
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
  EXPECT_EQ(lock.hold_count(), 0);
  {
    std::error_code unlock_error;
    lock.unlock(unlock_error);
    EXPECT_EQ(unlock_error, errc::not_owner) << "unlock of a free lock succeeded";
  }
}

TEST(Lock, HeldLockLooksExactlyLikeRedissonLayout) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "layout");
  lock.lock();
  lock.lock();
  const auto expected_field =
      client.id() + ":" + std::to_string(redisson::OwnerId::current_thread().value());
  EXPECT_EQ(server.command({"TYPE", "layout"}), "hash");
  EXPECT_EQ(server.command({"HGETALL", "layout"}), expected_field + "\n2");
  const auto pttl = to_int(server.command({"PTTL", "layout"}));
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 30000);
  // The client id is a UUID, the owner a decimal number, as Redisson's <UUID>:<threadId>.
  EXPECT_EQ(client.id().size(), 36u);
  EXPECT_EQ(client.id()[14], '4');
  lock.unlock();
  lock.unlock();
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
}

TEST(Lock, WorksWithStandardLockGuards) {
  RedisServer server;
  Client client(config_for(server));
  auto a = redisson::Lock(client, "a");
  auto b = redisson::Lock(client, "b");
  {
    std::scoped_lock both(a, b);
    EXPECT_EQ(server.command({"EXISTS", "a", "b"}), "2");
  }
  EXPECT_EQ(server.command({"EXISTS", "a", "b"}), "0");
  {
    std::unique_lock guard(a, std::defer_lock);
    EXPECT_TRUE(guard.try_lock_for(100ms));
  }
  EXPECT_EQ(server.command({"EXISTS", "a"}), "0");
}

TEST(Lock, UnlockByNonOwnerFailsAndKeepsLock) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "owned");
  lock.lock();
  std::error_code other_thread_error;
  std::thread([&] { lock.unlock(other_thread_error); }).join();
  EXPECT_EQ(other_thread_error, errc::not_owner);
  EXPECT_EQ(lock.hold_count(), 1);
  // A second client (another process, for Redis) is not the owner either.
  Client other(config_for(server));
  EXPECT_TRUE([&] {
    std::error_code ec;
    redisson::Lock(other, "owned").unlock(ec);
    return ec;
  }());
  EXPECT_TRUE(lock.is_held_by_current_thread());
  lock.unlock();
}

TEST(Lock, LeaseExpiryLetsAnotherOwnerInAndOldUnlockFails) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "leased");
  lock.lock(300ms);
  EXPECT_LE(lock.remaining_lease(), 300ms);
  Client other(config_for(server));
  auto other_lock = redisson::Lock(other, "leased");
  bool acquired = false;
  std::thread([&] { acquired = other_lock.try_lock_for(5s); }).join();
  EXPECT_TRUE(acquired);
  {
    std::error_code unlock_error;
    lock.unlock(unlock_error);
    EXPECT_EQ(unlock_error, errc::not_owner) << "unlock after the lease ran out succeeded";
  }
  EXPECT_EQ(server.command({"HLEN", "leased"}), "1");  // the new owner's hold is intact
}

TEST(Lock, WatchdogKeepsLockPastSeveralLeasesAndStopsAfterUnlock) {
  RedisServer server;
  // 1.2 s lease, renewed every 400 ms: loose enough for a loaded CI machine under ASan.
  Client client(config_for(server, 1200ms));
  auto lock = redisson::Lock(client, "watched");
  lock.lock();
  // Over three lease periods: without renewal the key would be gone after one.
  const auto until = std::chrono::steady_clock::now() + 4s;
  while (std::chrono::steady_clock::now() < until) {
    ASSERT_EQ(server.command({"EXISTS", "watched"}), "1");
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_FALSE(lock.lost());
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            1u);
  lock.unlock();
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
  // After unlock nothing recreates or renews it.
  server.command({"HSET", "watched", "someone:1", "1"});
  server.command({"PEXPIRE", "watched", "500"});
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "watched"}) == "0"; }, 5s));
}

TEST(Lock, ExplicitLeaseIsNotRenewed) {
  RedisServer server;
  Client client(config_for(server, 600ms));
  auto lock = redisson::Lock(client, "fixed");
  lock.lock(400ms);
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "fixed"}) == "0"; }, 5s));
}

TEST(Lock, OwnerLearnsWhenWatchdogFindsLockGone) {
  RedisServer server;
  Client client(config_for(server, 600ms));
  auto lock = redisson::Lock(client, "fragile");
  std::atomic<std::uint64_t> lost_owner{0};
  lock.on_lost([&](redisson::OwnerId owner) { lost_owner = owner.value(); });
  lock.lock();
  server.command({"DEL", "fragile"});
  EXPECT_TRUE(eventually([&] { return lost_owner.load() != 0; }, 5s));
  EXPECT_EQ(lost_owner.load(), redisson::OwnerId::current_thread().value());
  EXPECT_TRUE(lock.lost());
  EXPECT_FALSE(lock.is_held_by_current_thread());
  EXPECT_TRUE([&] {
    std::error_code ec;
    lock.unlock(ec);
    return ec;
  }());
  lock.lock();  // taking it again clears the lost state
  EXPECT_FALSE(lock.lost());
  lock.unlock();
}

TEST(Lock, HolderKilledWithSigkillFreesLockWithinOneLease) {
  RedisServer server;
  int ready_pipe[2];
  ASSERT_EQ(pipe(ready_pipe), 0);
  const pid_t holder =
      spawn_child("hold_lock_until_killed", {server.url(), std::to_string(ready_pipe[1])});
  close(ready_pipe[1]);  // a child that dies before writing then fails the read at once
  char byte = 0;
  ASSERT_EQ(read(ready_pipe[0], &byte, 1), 1);
  ASSERT_EQ(server.command({"EXISTS", "doomed"}), "1");
  kill(holder, SIGKILL);
  wait_exit(holder);
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "doomed");
  // The lease was 1 s; allow generous slack for a loaded machine, but far below "never".
  const auto pttl = to_int(server.command({"PTTL", "doomed"}));
  EXPECT_GT(pttl, 0) << "the killed holder's lock must outlive it until its lease ends";
  EXPECT_TRUE(lock.try_lock_for(10s));
  lock.unlock();
  close(ready_pipe[0]);
}

TEST(Lock, WaiterIsWokenByReleaseMessageNotByLease) {
  RedisServer server;
  Client holder_client(config_for(server));
  auto holder = redisson::Lock(holder_client, "wake");
  holder.lock(60s);  // a waiter that relied on the lease would sleep for a minute
  Client waiter_client(config_for(server));
  auto waiter = redisson::Lock(waiter_client, "wake");
  std::promise<bool> acquired;
  std::thread waiting([&] {
    acquired.set_value(waiter.try_lock_for(50s));
    waiter.unlock();
  });
  // Wait until the waiter subscribed, then release.
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{wake}", 1));
  holder.unlock();
  auto result = acquired.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s lease
  EXPECT_TRUE(result.get());
  waiting.join();
  // A waiter that got its lock leaves no subscription behind.
  EXPECT_TRUE(subscribers_are(server, "redisson_lock__channel:{wake}", 0));
}

TEST(Lock, WaiterThatGivesUpCleansUpItsSubscription) {
  RedisServer server;
  Client client(config_for(server));
  server.command({"HSET", "busy", kForeignOwner, "1"});
  server.command({"PEXPIRE", "busy", "60000"});
  auto lock = redisson::Lock(client, "busy");
  EXPECT_FALSE(lock.try_lock_for(200ms));
  EXPECT_FALSE(lock.try_lock());
  EXPECT_TRUE(subscribers_are(server, "redisson_lock__channel:{busy}", 0));
  EXPECT_EQ(server.command({"HGET", "busy", kForeignOwner}), "1");
}

TEST(Lock, ForeignRedissonLockBlocksUsAndItsPublishWakesUs) {
  RedisServer server;
  // A Java Redisson client's acquire, as a raw script in that exact layout.
  const std::string acquire =
      "if redis.call('exists', KEYS[1]) == 0 then "
      "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); "
      "return nil end return redis.call('pttl', KEYS[1])";
  const std::string release =
      "redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], '0'); return 1";
  server.command({"EVAL", acquire, "1", "shared", "60000", kForeignOwner});
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "shared");
  EXPECT_FALSE(lock.try_lock());
  std::promise<bool> acquired;
  std::thread waiting([&] { acquired.set_value(lock.try_lock_for(50s)); });
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{shared}", 1));
  server.command({"EVAL", release, "2", "shared", "redisson_lock__channel:{shared}"});
  auto result = acquired.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
  waiting.join();
  EXPECT_TRUE(result.get());
}

TEST(Lock, RetriedUnlockAfterLostReplyDoesNotDoubleDecrement) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "retry");
  lock.lock();
  lock.lock();
  // The exact unlock command, sent twice with one request id: as when the first reply is lost
  // and the client retries.
  const auto field = lock.owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  const std::string latch = "redisson_unlock_latch:{retry}:0123456789abcdef0123456789abcdef";
  const std::string source(redisson::detail::lua::lock_unlock.source);
  auto send = [&] {
    return server.command({"EVAL", source, "3", "retry", "redisson_lock__channel:{retry}", latch,
                           "0", "30000", field, "publish", "20000"});
  };
  const std::string first = send();
  const std::string second = send();
  EXPECT_EQ(first, "0");
  EXPECT_EQ(second, "0");
  EXPECT_EQ(lock.hold_count(), 1);
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
}

TEST(Lock, AsyncOwnersAreIndependentOfThreads) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "async");
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future)
                  .get());  // re-entry
  EXPECT_FALSE(
      lock.async_try_lock(redisson::OwnerId(8), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(lock.async_hold_count(redisson::OwnerId(7), asio::use_future).get(), 2);
  auto waiting = lock.async_lock(redisson::OwnerId(8), asio::use_future);
  lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  EXPECT_EQ(waiting.wait_for(1s), std::future_status::timeout);  // 7 still holds once
  lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"HGETALL", "async"}), client.id() + ":8\n1");
  try {
    lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
  lock.async_unlock(redisson::OwnerId(8), asio::use_future).get();
}

TEST(Lock, ForceUnlockFreesAndWakesWaiters) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "forced");
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = lock.async_lock(redisson::OwnerId(2), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{forced}", 1));
  EXPECT_TRUE(lock.force_unlock());
  EXPECT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_TRUE(lock.force_unlock());
  EXPECT_FALSE(lock.force_unlock());
}

TEST(Lock, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  EXPECT_THROW(redisson::Lock(client, ""), redisson::error);
  auto lock = redisson::Lock(client, "args");
  try {
    lock.try_lock_for(-1ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_THROW(lock.lock(0ms), redisson::error);
  EXPECT_THROW(lock.lock(-5ms), redisson::error);
  EXPECT_THROW(lock.try_lock_for(1s, -1s), redisson::error);
  EXPECT_EQ(server.command({"EXISTS", "args"}), "0");
  server.command({"SET", "text", "hello"});
  auto wrong = redisson::Lock(client, "text");
  try {
    wrong.lock();
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
  // A deadline in the past is one attempt, as std::timed_mutex::try_lock_until.
  EXPECT_TRUE(lock.try_lock_until(std::chrono::steady_clock::now() - 1s));
  lock.unlock();
}

TEST(Lock, ServerGoingAwayFailsWaitingLockClearly) {
  RedisServer server;
  auto config = config_for(server);
  config.command_timeout = 500ms;
  config.retry_attempts = 0;
  Client client(config);
  server.command({"HSET", "gone", kForeignOwner, "1"});
  server.command({"PEXPIRE", "gone", "60000"});
  auto lock = redisson::Lock(client, "gone");
  auto waiting = lock.async_lock(redisson::OwnerId(1), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{gone}", 1));
  server.stop();
  // The waiter sleeps on a 60 s hint; losing its subscription makes it re-check, and the
  // re-check fails clearly instead of hanging.
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  try {
    waiting.get();
    FAIL() << "acquired a lock on a server that is gone";
  } catch (const std::system_error& e) {
    EXPECT_TRUE(e.code() == errc::timeout || e.code() == errc::connection_lost) << e.what();
  }
}

TEST(Lock, NonReentrantLockRefusesSecondAcquireByHolder) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::Lock(client, "once", redisson::non_reentrant);
  lock.lock();
  try {
    lock.lock();
    FAIL() << "a non-re-entrant lock was taken twice";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::already_held);
  }
  EXPECT_EQ(lock.hold_count(), 1);
  bool other_thread_got_it = true;
  std::thread([&] { other_thread_got_it = lock.try_lock(); }).join();
  EXPECT_FALSE(other_thread_got_it);
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
}

TEST(Lock, OneWrongTypedKeyDoesNotStopRenewalOfTheOthers) {
  RedisServer server;
  Client client(config_for(server, 900ms));
  auto replaced = redisson::Lock(client, "replaced");
  auto healthy = redisson::Lock(client, "healthy");
  std::atomic<int> lost{0};
  replaced.on_lost([&](redisson::OwnerId) { ++lost; });
  replaced.lock();
  healthy.lock();
  // Someone overwrites one lock with a string: that hold is lost, the other must live on.
  server.command({"SET", "replaced", "not a lock"});
  EXPECT_TRUE(eventually([&] { return lost.load() == 1; }, 5s));
  const auto until = std::chrono::steady_clock::now() + 2s;
  while (std::chrono::steady_clock::now() < until) {
    ASSERT_EQ(server.command({"EXISTS", "healthy"}), "1");
    std::this_thread::sleep_for(100ms);
  }
  healthy.unlock();
}

// A round's renewal calls go out a few at a time (watchdog.cpp): 6,000 locks are 12 calls of
// 500, more than are in flight at once, so every call after the first few depends on an answer
// sending the next one. Any lock a round left out would expire within one lease.
TEST(Lock, WatchdogRenewsMoreLocksThanOneRoundSendsAtOnce) {
  RedisServer server;
  // 1.5 s lease, renewed every 500 ms.
  Client client(config_for(server, 1500ms));
  constexpr int kLocks = 6000;
  std::vector<redisson::Lock> locks;
  locks.reserve(kLocks);
  for (int i = 0; i < kLocks; ++i) {
    locks.emplace_back(client, "many:" + std::to_string(i));
    locks.back().lock();
  }
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            static_cast<std::size_t>(kLocks));
  // Over two leases: a lock no round renewed would be gone by the end.
  const auto until = std::chrono::steady_clock::now() + 3500ms;
  while (std::chrono::steady_clock::now() < until) {
    ASSERT_EQ(server.command({"DBSIZE"}), std::to_string(kLocks));
    std::this_thread::sleep_for(200ms);
  }
  for (auto& lock : locks) {
    EXPECT_FALSE(lock.lost());
    lock.unlock();
  }
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
}

}  // namespace sync_lock_test
