// The spin lock against a real redis-server: exclusion, timeouts, and waiting without any
// pub/sub (no SUBSCRIBE, no PUBLISH) in Lock's data layout.
#include "redisson/spin_lock.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace sync_spin_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;

namespace {

constexpr const char* kForeignOwner = "11111111-2222-3333-4444-555555555555:1";

// `calls` of one command in INFO commandstats (0 when it never ran).
std::int64_t pubsub_calls(const RedisServer& server) {
  std::int64_t calls = 0;
  for (const char* command : {"subscribe", "ssubscribe", "psubscribe", "publish", "spublish"}) {
    calls += command_calls(server, command);
  }
  return calls;
}

}  // namespace

TEST(SpinLock, MutualExclusionAcrossThreadsKeepsNonAtomicCounterExact) {
  RedisServer server;
  constexpr int kThreads = 3;
  constexpr int kIncrements = 100;
  long shared_counter = 0;  // deliberately not atomic: only the lock protects it
  // One client: its I/O thread orders the threads' replies, so a race detector sees the lock's
  // hand-over too (with a client per thread only Redis would order them).
  Client client(config_for(server));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      auto lock = redisson::SpinLock(client, "counter-lock");
      for (int i = 0; i < kIncrements; ++i) {
        std::lock_guard guard(lock);
        const long seen = shared_counter;
        auto value = client.execute({"GET", "counter"});
        const long long n = value.is_null() ? 0 : std::stoll(value.str);
        client.execute(redisson::Command{"SET", "counter"}.arg(static_cast<std::int64_t>(n + 1)));
        shared_counter = seen + 1;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(shared_counter, kThreads * kIncrements);
  EXPECT_EQ(server.command({"GET", "counter"}), std::to_string(kThreads * kIncrements));
  EXPECT_EQ(server.command({"EXISTS", "counter-lock"}), "0");
  EXPECT_EQ(pubsub_calls(server), 0);
}

TEST(SpinLock, TryLockForTimesOutWhileHeldAndChangesNothing) {
  RedisServer server;
  Client client(config_for(server));
  server.command({"HSET", "busy", kForeignOwner, "1"});
  server.command({"PEXPIRE", "busy", "60000"});
  auto lock = redisson::SpinLock(client, "busy");
  EXPECT_FALSE(lock.try_lock_for(200ms));
  EXPECT_FALSE(lock.try_lock());
  EXPECT_FALSE(lock.async_try_lock(redisson::OwnerId(5), 100ms, 1s, asio::use_future).get());
  EXPECT_EQ(server.command({"HGETALL", "busy"}), std::string(kForeignOwner) + "\n1");
  EXPECT_EQ(pubsub_calls(server), 0);
}

TEST(SpinLock, WaiterAcquiresAfterReleaseWithoutAnySubscription) {
  RedisServer server;
  Client holder_client(config_for(server));
  auto holder = redisson::SpinLock(holder_client, "spin");
  holder.lock(60s);  // the waiter cannot rely on the lease running out
  Client waiter_client(config_for(server));
  auto waiter = redisson::SpinLock(waiter_client, "spin");
  const auto evals_before = command_calls(server, "evalsha");
  std::promise<bool> acquired;
  std::thread waiting([&] {
    const bool got = waiter.try_lock_for(50s);
    acquired.set_value(got);
    if (got) waiter.unlock();
  });
  // Polling, not listening: its attempts keep coming, and it never subscribes.
  EXPECT_TRUE(eventually([&] { return command_calls(server, "evalsha") > evals_before + 5; }));
  EXPECT_EQ(server.command({"PUBSUB", "NUMSUB", "redisson_lock__channel:{spin}"}),
            "redisson_lock__channel:{spin}\n0");
  EXPECT_EQ(server.command({"PUBSUB", "CHANNELS"}), "(empty array)");
  holder.unlock();
  auto result = acquired.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s lease
  waiting.join();
  EXPECT_TRUE(result.get());
  EXPECT_EQ(pubsub_calls(server), 0);
  EXPECT_EQ(server.command({"EXISTS", "spin"}), "0");
}

TEST(SpinLock, LeaseExpiryLetsAPollerIn) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::SpinLock(client, "leased");
  lock.lock(300ms);
  bool acquired = false;
  std::thread([&] {
    acquired = lock.try_lock_for(10s);
    if (acquired) lock.unlock();
  }).join();
  EXPECT_TRUE(acquired);
  EXPECT_TRUE([&] {
    std::error_code ec;
    lock.unlock(ec);
    return ec;
  }());  // the first hold ran out
}

TEST(SpinLock, ReentrantHoldsUseLockLayoutAndNonOwnerUnlockFails) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::SpinLock(client, "layout");
  lock.lock();
  EXPECT_TRUE(lock.try_lock());
  EXPECT_EQ(lock.hold_count(), 2);
  const auto field = lock.owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  EXPECT_EQ(server.command({"TYPE", "layout"}), "hash");
  EXPECT_EQ(server.command({"HGETALL", "layout"}), field + "\n2");
  const auto pttl = std::stoll(server.command({"PTTL", "layout"}));
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 30000);
  std::error_code other_thread_error;
  std::thread([&] { lock.unlock(other_thread_error); }).join();
  EXPECT_EQ(other_thread_error, errc::not_owner);
  lock.unlock();
  EXPECT_TRUE(lock.is_held_by_current_thread());
  lock.unlock();
  EXPECT_FALSE(lock.is_locked());
  EXPECT_EQ(lock.remaining_lease(), -2ms);
  EXPECT_EQ(pubsub_calls(server), 0);  // unlock publishes nothing
}

TEST(SpinLock, AsyncOwnersAndForceUnlock) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::SpinLock(client, "async");
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(
      lock.async_try_lock(redisson::OwnerId(8), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = lock.async_lock(redisson::OwnerId(8), asio::use_future);
  EXPECT_TRUE(lock.async_force_unlock(asio::use_future).get());
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"HGETALL", "async"}), client.id() + ":8\n1");
  EXPECT_EQ(lock.async_hold_count(redisson::OwnerId(8), asio::use_future).get(), 1);
  try {
    lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
  lock.async_unlock(redisson::OwnerId(8), asio::use_future).get();
  EXPECT_FALSE(lock.force_unlock());
  EXPECT_EQ(pubsub_calls(server), 0);
}

TEST(SpinLock, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  EXPECT_THROW(redisson::SpinLock(client, ""), redisson::error);
  auto lock = redisson::SpinLock(client, "args");
  try {
    lock.try_lock_for(-1ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_THROW(lock.lock(0ms), redisson::error);
  EXPECT_THROW(lock.try_lock_for(1s, -1s), redisson::error);
  try {
    lock.async_try_lock(redisson::OwnerId(1), -5ms, std::nullopt, asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_EQ(server.command({"EXISTS", "args"}), "0");
  server.command({"SET", "text", "hello"});
  try {
    redisson::SpinLock(client, "text").try_lock_for(100ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
  EXPECT_TRUE(lock.try_lock_until(std::chrono::steady_clock::now() - 1s));
  lock.unlock();
}

}  // namespace sync_spin_lock_test
