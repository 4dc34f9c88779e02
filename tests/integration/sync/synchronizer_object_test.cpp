// The synchronizers as Objects against a real redis-server: Semaphore, PermitExpirableSemaphore
// and CountDownLatch have every Object operation (expire, remaining_time_to_live, clear_expire,
// exists, rename, touch, size_in_memory, delete_object), on all their keys, also through an
// Object&; a latch's delete wakes its awaiters (Redisson's deleteAsync publishes); a key of
// another type is a clear error that changes nothing.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/count_down_latch.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/permit_expirable_semaphore.hpp"
#include "redisson/semaphore.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_synchronizer_object_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
using redisson::test::subscribers_are;

namespace {

std::int64_t pttl(const RedisServer& server, const std::string& key) {
  return std::stoll(server.command({"PTTL", key}));
}

// The expiry operations on `object`, whose keys are `keys` (all existing).
void expect_expiry_on_all_keys(const RedisServer& server, redisson::Object& object,
                               const std::vector<std::string>& keys) {
  EXPECT_TRUE(object.exists());
  EXPECT_EQ(object.remaining_time_to_live(), -1ms);
  EXPECT_TRUE(object.expire(60s));
  const auto left = object.remaining_time_to_live();
  EXPECT_GT(left, 0ms);
  EXPECT_LE(left, 60s);
  for (const auto& key : keys) {
    EXPECT_GT(pttl(server, key), 0) << key;
    EXPECT_LE(pttl(server, key), 60'000) << key;
  }
  EXPECT_TRUE(object.clear_expire());
  EXPECT_FALSE(object.clear_expire());  // nothing left to clear
  EXPECT_EQ(object.remaining_time_to_live(), -1ms);
  for (const auto& key : keys) EXPECT_EQ(pttl(server, key), -1) << key;

  EXPECT_TRUE(object.expire_at(std::chrono::system_clock::now() + 120s));
  EXPECT_GT(object.remaining_time_to_live(), 60s);
  for (const auto& key : keys) EXPECT_GT(pttl(server, key), 60'000) << key;
  EXPECT_TRUE(object.async_clear_expire(asio::use_future).get());
  EXPECT_TRUE(object.async_expire(30s, asio::use_future).get());
  EXPECT_GT(object.async_remaining_time_to_live(asio::use_future).get(), 0ms);
  EXPECT_TRUE(object.async_clear_expire(asio::use_future).get());

  EXPECT_TRUE(object.touch());
  EXPECT_TRUE(object.async_touch(asio::use_future).get());
  EXPECT_GT(object.size_in_memory(), 0);
  EXPECT_TRUE(object.async_exists(asio::use_future).get());
}

// The same on an object that does not exist.
void expect_absent(redisson::Object& object) {
  EXPECT_FALSE(object.exists());
  EXPECT_EQ(object.remaining_time_to_live(), -2ms);
  EXPECT_FALSE(object.expire(10s));
  EXPECT_FALSE(object.clear_expire());
  EXPECT_FALSE(object.touch());
  EXPECT_EQ(object.size_in_memory(), 0);
  EXPECT_FALSE(object.delete_object());
  expect_error(
      errc::server_error, [&] { object.rename("elsewhere"); }, "rename of nothing");
}

}  // namespace

TEST(SemaphoreObject, ExpiryTouchSizeAndExistsActOnTheCountKey) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "sem");
  expect_absent(semaphore);
  ASSERT_TRUE(semaphore.try_set_permits(3));
  expect_expiry_on_all_keys(server, semaphore, {"sem"});
  EXPECT_EQ(semaphore.available_permits(), 3);
}

TEST(SemaphoreObject, RenamedSemaphoreWorksUnderItsNewName) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "old-sem");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  ASSERT_TRUE(semaphore.try_acquire());
  semaphore.rename("new-sem");
  EXPECT_EQ(semaphore.name(), "new-sem");
  EXPECT_EQ(server.command({"EXISTS", "old-sem"}), "0");
  EXPECT_EQ(server.command({"GET", "new-sem"}), "1");
  EXPECT_EQ(semaphore.available_permits(), 1);
  // A waiter on the new name is woken by a release through the renamed handle.
  redisson::Semaphore other(client, "new-sem");
  other.set_recheck_interval(60s);  // only the release message can wake it in time
  ASSERT_TRUE(other.try_acquire());
  auto waiting = other.async_acquire(1, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{new-sem}", 1));
  semaphore.release();
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(semaphore.available_permits(), 0);
}

TEST(SemaphoreObject, DeleteObjectDeletesTheCountAlsoThroughAnObjectReference) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, "gone");
  ASSERT_TRUE(semaphore.try_set_permits(5));
  redisson::Object& object = semaphore;
  EXPECT_TRUE(object.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "gone"}), "0");
  EXPECT_FALSE(semaphore.delete_object());
  ASSERT_TRUE(semaphore.try_set_permits(1));
  EXPECT_TRUE(semaphore.async_delete_object(asio::use_future).get());
  EXPECT_EQ(semaphore.available_permits(), 0);
}

TEST(SemaphoreObject, WrongTypeKeyIsAClearErrorAndStays) {
  RedisServer server;
  Client client(config_for(server));
  server.command({"RPUSH", "listed", "x"});
  redisson::Semaphore semaphore(client, "listed");
  redisson::Object& object = semaphore;
  expect_error(
      errc::wrong_type, [&] { object.delete_object(); }, "delete_object");
  expect_error(
      errc::wrong_type, [&] { semaphore.available_permits(); }, "available_permits");
  EXPECT_EQ(server.command({"TYPE", "listed"}), "list");
}

TEST(PermitExpirableSemaphoreObject, ExpiryTouchAndSizeActOnBothKeys) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "pes");
  expect_absent(semaphore);
  ASSERT_TRUE(semaphore.try_set_permits(2));
  const auto permit = semaphore.acquire();  // makes the timeout zset
  ASSERT_EQ(server.command({"EXISTS", "{pes}:timeout"}), "1");
  const std::int64_t count_only = std::stoll(server.command({"MEMORY", "USAGE", "pes"}));
  expect_expiry_on_all_keys(server, semaphore, {"pes", "{pes}:timeout"});
  EXPECT_GT(semaphore.size_in_memory(), count_only);
  semaphore.release(permit);
  EXPECT_EQ(semaphore.available_permits(), 2);
}

TEST(PermitExpirableSemaphoreObject, RenameMovesBothKeysAndPermitsStayValid) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "pes-old");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  const auto held = semaphore.acquire();
  semaphore.rename("pes-new");
  EXPECT_EQ(semaphore.name(), "pes-new");
  EXPECT_EQ(server.command({"EXISTS", "pes-old", "{pes-old}:timeout"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "pes-new", "{pes-new}:timeout"}), "2");
  EXPECT_EQ(semaphore.available_permits(), 1);
  semaphore.release(held);  // the permit moved with its zset
  EXPECT_EQ(semaphore.available_permits(), 2);
  redisson::PermitExpirableSemaphore other(client, "pes-new");
  const auto permit = other.try_acquire();
  ASSERT_TRUE(permit.has_value());
  EXPECT_TRUE(semaphore.try_release(*permit));
}

TEST(PermitExpirableSemaphoreObject, DeleteObjectDeletesBothKeys) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "pes-del");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  const auto permit = semaphore.acquire(1h);
  redisson::Object& object = semaphore;
  EXPECT_TRUE(object.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "pes-del", "{pes-del}:timeout"}), "0");
  EXPECT_FALSE(semaphore.async_delete_object(asio::use_future).get());
  EXPECT_FALSE(semaphore.try_release(permit));
}

TEST(PermitExpirableSemaphoreObject, WrongTypeKeyIsAClearErrorAndStays) {
  RedisServer server;
  Client client(config_for(server));
  server.command({"SET", "{pes-wrong}:timeout", "text"});
  redisson::PermitExpirableSemaphore semaphore(client, "pes-wrong");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  expect_error(
      errc::wrong_type, [&] { semaphore.delete_object(); }, "delete_object");
  EXPECT_EQ(server.command({"EXISTS", "pes-wrong", "{pes-wrong}:timeout"}), "2");
}

TEST(CountDownLatchObject, ExpiryTouchSizeAndExistsActOnTheCountKey) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "latch");
  expect_absent(latch);
  ASSERT_TRUE(latch.try_set_count(2));
  expect_expiry_on_all_keys(server, latch, {"latch"});
  EXPECT_EQ(latch.count(), 2);
}

TEST(CountDownLatchObject, RenamedLatchWorksUnderItsNewName) {
  RedisServer server;
  Client client(config_for(server));
  redisson::CountDownLatch latch(client, "latch-old");
  ASSERT_TRUE(latch.try_set_count(1));
  latch.rename("latch-new");
  EXPECT_EQ(latch.name(), "latch-new");
  EXPECT_EQ(server.command({"EXISTS", "latch-old"}), "0");
  EXPECT_EQ(latch.count(), 1);
  redisson::CountDownLatch other(client, "latch-new");
  other.set_recheck_interval(60s);  // only the "0" message can wake it in time
  auto waiting = other.async_await(std::nullopt, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_countdownlatch__channel__{latch-new}", 1));
  latch.count_down();  // publishes on the new name's channel
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
}

TEST(CountDownLatchObject, DeleteObjectWakesAwaitersAsRedissonDoes) {
  RedisServer server;
  Client client(config_for(server));
  Client other_client(config_for(server));
  redisson::CountDownLatch latch(client, "closing");
  ASSERT_TRUE(latch.try_set_count(3));
  redisson::CountDownLatch awaiter(other_client, "closing");
  awaiter.set_recheck_interval(60s);  // only the delete's message can wake it in time
  auto waiting = awaiter.async_await(std::nullopt, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_countdownlatch__channel__{closing}", 1));
  redisson::Object& object = latch;
  EXPECT_TRUE(object.delete_object());
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(server.command({"EXISTS", "closing"}), "0");
  EXPECT_FALSE(latch.async_delete_object(asio::use_future).get());
}

TEST(CountDownLatchObject, WrongTypeKeyIsAClearErrorAndStays) {
  RedisServer server;
  Client client(config_for(server));
  server.command({"SADD", "set-latch", "x"});
  redisson::CountDownLatch latch(client, "set-latch");
  redisson::Object& object = latch;
  expect_error(
      errc::wrong_type, [&] { object.delete_object(); }, "delete_object");
  expect_error(
      errc::wrong_type, [&] { latch.count(); }, "count");
  EXPECT_EQ(server.command({"TYPE", "set-latch"}), "set");
}

}  // namespace sync_synchronizer_object_test
