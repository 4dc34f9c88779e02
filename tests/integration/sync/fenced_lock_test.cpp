// The fenced lock against a real redis-server: tokens that strictly increase across processes
// and re-entry, the counter's layout next to Lock's hash, async owners, and clear errors.
#include "redisson/fenced_lock.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/use_future.hpp>
#include <future>
#include <thread>
#include <vector>

#include "redisson/redisson.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_fenced_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::RedisServer;
using redisson::test::spawn_children;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

constexpr int kFencedAcquisitions = 40;

// A process of its own: takes the fenced lock kFencedAcquisitions times and plays the
// resource, which remembers the newest token it saw; an older one is a fencing failure (exit
// status 4). args: the server's URL.
REDISSON_TEST_CHILD(take_fenced_tokens) {
  Client client(config_for(args.at(0)));
  auto lock = redisson::FencedLock(client, "fence");
  for (int i = 0; i < kFencedAcquisitions; ++i) {
    const auto token = lock.lock_and_get_token();
    const auto newest = client.execute({"GET", "newest-token"});
    if (!newest.is_null() && std::stoll(newest.str) >= token) {
      std::fprintf(stderr, "token %lld after %s\n", static_cast<long long>(token),
                   newest.str.c_str());
      return 4;
    }
    client.execute(redisson::Command{"SET", "newest-token"}.arg(token));
    lock.unlock();
  }
  return 0;
}

}  // namespace

TEST(FencedLock, TokensStrictlyIncreaseAcrossProcesses) {
  RedisServer server;
  constexpr int kProcesses = 3;
  const auto children = spawn_children("take_fenced_tokens", kProcesses, {server.url()});
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  const auto total = std::to_string(kProcesses * kFencedAcquisitions);
  EXPECT_EQ(server.command({"GET", "redisson_lock_token:{fence}"}), total);
  EXPECT_EQ(server.command({"GET", "newest-token"}), total);
  EXPECT_EQ(server.command({"EXISTS", "fence"}), "0");
}

TEST(FencedLock, ReentrantAcquisitionsDrawNewTokensAndTokenReadsTheCounter) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FencedLock(client, "reentry");
  EXPECT_EQ(lock.token(), 0);
  const auto first = lock.lock_and_get_token();
  const auto second = lock.lock_and_get_token();
  EXPECT_EQ(second, first + 1);
  EXPECT_EQ(lock.token(), second);
  const auto third = lock.try_lock_and_get_token(0ms);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(*third, second + 1);
  EXPECT_TRUE(lock.try_lock());  // Lockable: still draws a token
  EXPECT_EQ(lock.token(), *third + 1);
  EXPECT_EQ(lock.hold_count(), 4);
  // Another thread is refused and draws nothing.
  std::optional<std::int64_t> other{-1};
  std::thread([&] { other = lock.try_lock_and_get_token(50ms); }).join();
  EXPECT_FALSE(other.has_value());
  EXPECT_EQ(lock.token(), *third + 1);
  for (int i = 0; i < 4; ++i) lock.unlock();
  EXPECT_FALSE(lock.is_locked());
  EXPECT_EQ(lock.token(), *third + 1);  // the counter outlives the lock
  EXPECT_EQ(lock.lock_and_get_token(500ms), *third + 2);
  EXPECT_LE(lock.remaining_lease(), 500ms);
  lock.unlock();
}

TEST(FencedLock, HeldLockLooksExactlyLikeRedissonLayout) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FencedLock(client, "layout");
  EXPECT_EQ(lock.token_key(), "redisson_lock_token:{layout}");
  EXPECT_EQ(lock.lock_and_get_token(), 1);
  EXPECT_EQ(lock.lock_and_get_token(), 2);
  const auto field = lock.owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  EXPECT_EQ(server.command({"TYPE", "layout"}), "hash");
  EXPECT_EQ(server.command({"HGETALL", "layout"}), field + "\n2");
  const auto pttl = std::stoll(server.command({"PTTL", "layout"}));
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 30000);
  EXPECT_EQ(server.command({"TYPE", "redisson_lock_token:{layout}"}), "string");
  EXPECT_EQ(server.command({"GET", "redisson_lock_token:{layout}"}), "2");
  EXPECT_EQ(server.command({"PTTL", "redisson_lock_token:{layout}"}), "-1");
  // Waiters sleep on Lock's channel and Lock's unlock wakes them.
  auto waiting = lock.async_try_lock_and_get_token(redisson::OwnerId(9), std::nullopt, std::nullopt,
                                                   asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{layout}", 1));
  lock.unlock();
  lock.unlock();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_EQ(waiting.get(), std::optional<std::int64_t>(3));
  EXPECT_EQ(server.command({"HGETALL", "layout"}), client.id() + ":9\n1");
  lock.async_unlock(redisson::OwnerId(9), asio::use_future).get();
  // A hash-tagged name keeps its tag: P(prefix, n) = "prefix:n".
  EXPECT_EQ(redisson::FencedLock(client, "{app}res").token_key(), "redisson_lock_token:{app}res");
}

TEST(FencedLock, AsyncOwnersGetTokens) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FencedLock(client, "async");
  EXPECT_EQ(
      lock.async_try_lock_and_get_token(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future)
          .get(),
      std::optional<std::int64_t>(1));
  EXPECT_EQ(
      lock.async_try_lock_and_get_token(redisson::OwnerId(8), 0ms, std::nullopt, asio::use_future)
          .get(),
      std::nullopt);
  EXPECT_TRUE(lock.async_try_lock(redisson::OwnerId(7), 0ms, std::nullopt, asio::use_future)
                  .get());  // re-entry
  EXPECT_EQ(lock.async_hold_count(redisson::OwnerId(7), asio::use_future).get(), 2);
  auto waiting = lock.async_lock(redisson::OwnerId(8), asio::use_future);
  lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(lock.token(), 3);
  try {
    lock.async_unlock(redisson::OwnerId(7), asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
  EXPECT_TRUE(lock.async_force_unlock(asio::use_future).get());
  EXPECT_FALSE(lock.force_unlock());
  EXPECT_EQ(lock.token(), 3);
}

TEST(FencedLock, WorksWithStandardLockGuards) {
  RedisServer server;
  Client client(config_for(server));
  auto lock = redisson::FencedLock(client, "guarded");
  {
    std::unique_lock guard(lock, std::defer_lock);
    EXPECT_TRUE(guard.try_lock_for(100ms));
    EXPECT_TRUE(lock.is_held_by_current_thread());
  }
  EXPECT_FALSE(lock.is_locked());
  EXPECT_EQ(lock.token(), 1);
}

TEST(FencedLock, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  EXPECT_THROW(redisson::FencedLock(client, ""), redisson::error);
  auto lock = redisson::FencedLock(client, "args");
  try {
    lock.try_lock_and_get_token(-1ms);
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_THROW(lock.lock_and_get_token(0ms), redisson::error);
  EXPECT_THROW(lock.lock(-5ms), redisson::error);
  EXPECT_THROW(lock.try_lock_for(1s, 0s), redisson::error);
  try {
    lock.async_try_lock_and_get_token(redisson::OwnerId(1), 1s, -1ms, asio::use_future).get();
    FAIL();
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_EQ(server.command({"EXISTS", "args", "redisson_lock_token:{args}"}), "0");

  // The lock's key holding a string: WRONGTYPE, and no token drawn.
  server.command({"SET", "text", "hello"});
  try {
    redisson::FencedLock(client, "text").lock();
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
  EXPECT_EQ(server.command({"EXISTS", "redisson_lock_token:{text}"}), "0");
  // The counter holding a hash, or text that is not a number: refused, no lock taken.
  server.command({"HSET", "redisson_lock_token:{hashed}", "f", "v"});
  try {
    redisson::FencedLock(client, "hashed").try_lock();
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(server.command({"EXISTS", "hashed"}), "0");
  server.command({"SET", "redisson_lock_token:{texted}", "abc"});
  auto texted = redisson::FencedLock(client, "texted");
  EXPECT_THROW(texted.try_lock(), redisson::error);
  EXPECT_EQ(server.command({"EXISTS", "texted"}), "0");
  try {
    texted.token();
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(server.command({"GET", "redisson_lock_token:{texted}"}), "abc");
}

}  // namespace sync_fenced_lock_test
