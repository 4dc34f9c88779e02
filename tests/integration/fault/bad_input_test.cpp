// Bad input on every synchronizer's public entry points: empty, huge and binary names, keys of
// the wrong type, negative and huge durations. Each call gives a clear redisson::error (or, for
// names Redis accepts, simply works), never crashes or hangs, and a refused call leaves Redis
// exactly as it was (every key's DUMP and whether it expires).
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <string>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/redis_server.hpp"

namespace fault_bad_input_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::client_config;
using redisson::test::RedisServer;

namespace {

using Snapshot = std::map<std::string, std::string>;

// Every key's serialized value and whether it has a TTL (not the TTL itself, which moves).
Snapshot snapshot(const RedisServer& server) {
  Snapshot out;
  const auto keys = server.command({"KEYS", "*"});
  if (keys == "(empty array)") return out;
  std::size_t start = 0;
  while (start <= keys.size()) {
    const auto end = std::min(keys.find('\n', start), keys.size());
    const auto key = keys.substr(start, end - start);
    const auto ttl = std::stoll(server.command({"PTTL", key}));
    out[key] = server.command({"DUMP", key}) + (ttl >= 0 ? "|expires" : "|persistent");
    start = end + 1;
  }
  return out;
}

// Config's reconnect back-off: these tests never lose their server.
Config bad_input_config(const RedisServer& server) {
  return client_config(server.url(), {.reconnect_max_delay = Config{}.reconnect_max_delay});
}

// Runs `call`, which must throw redisson::error with one of `allowed`, and checks that Redis did
// not change. Returns the message for the failure output.
void expect_refused(const RedisServer& server, const std::string& what,
                    std::initializer_list<errc> allowed, const std::function<void()>& call) {
  const auto before = snapshot(server);
  try {
    call();
    ADD_FAILURE() << what << ": accepted";
  } catch (const redisson::error& e) {
    bool expected = false;
    for (auto code : allowed) expected = expected || e.code() == code;
    EXPECT_TRUE(expected) << what << ": " << e.code().message() << " (" << e.what() << ")";
    EXPECT_NE(std::string(e.what()), "") << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": not a redisson::error: " << e.what();
  }
  EXPECT_EQ(snapshot(server), before) << what << ": Redis changed";
}

}  // namespace

TEST(BadInput, EmptyNamesAreRefusedByEverySynchronizer) {
  RedisServer server;
  Client client(bad_input_config(server));
  const auto invalid = {errc::invalid_argument};
  expect_refused(server, "lock", invalid, [&] { redisson::Lock(client, "").try_lock(); });
  expect_refused(server, "fair lock", invalid, [&] { redisson::FairLock(client, "").try_lock(); });
  expect_refused(server, "fenced lock", invalid,
                 [&] { redisson::FencedLock(client, "").try_lock(); });
  expect_refused(server, "spin lock", invalid, [&] { redisson::SpinLock(client, "").try_lock(); });
  expect_refused(server, "read-write lock", invalid,
                 [&] { redisson::ReadWriteLock(client, "").write_lock().try_lock(); });
  expect_refused(server, "semaphore", invalid,
                 [&] { redisson::Semaphore(client, "").try_set_permits(1); });
  expect_refused(server, "permit-expirable semaphore", invalid,
                 [&] { redisson::PermitExpirableSemaphore(client, "").try_set_permits(1); });
  expect_refused(server, "count-down latch", invalid,
                 [&] { redisson::CountDownLatch(client, "").try_set_count(1); });
}

TEST(BadInput, HugeAndBinaryNamesWorkAndLeaveNothingBehind) {
  RedisServer server;
  Client client(bad_input_config(server));
  const std::string names[] = {
      std::string(1 << 20, 'n'), std::string("a\0b{c}\r\nd", 9), "{", "}", "{}",
      std::string("\xff\xfe", 2)};
  for (const auto& name : names) {
    const auto label = "name of " + std::to_string(name.size()) + " bytes";
    {
      auto lock = redisson::Lock(client, name);
      ASSERT_TRUE(lock.try_lock()) << label;
      EXPECT_EQ(server.command({"EXISTS", name}), "1") << label;
      lock.unlock();
    }
    {
      auto lock = redisson::FairLock(client, name);
      ASSERT_TRUE(lock.try_lock()) << label;
      lock.unlock();
    }
    {
      auto lock = redisson::ReadWriteLock(client, name);
      ASSERT_TRUE(lock.read_lock().try_lock()) << label;
      lock.read_lock().unlock();
      ASSERT_TRUE(lock.write_lock().try_lock()) << label;
      lock.write_lock().unlock();
    }
    {
      redisson::Semaphore semaphore(client, name);
      ASSERT_TRUE(semaphore.try_set_permits(1)) << label;
      ASSERT_TRUE(semaphore.try_acquire()) << label;
      EXPECT_FALSE(semaphore.try_acquire()) << label;
      semaphore.release();
      EXPECT_EQ(semaphore.available_permits(), 1) << label;
      EXPECT_TRUE(semaphore.delete_object()) << label;
    }
    {
      redisson::CountDownLatch latch(client, name);
      ASSERT_TRUE(latch.try_set_count(1)) << label;
      latch.count_down();
      EXPECT_TRUE(latch.await_for(0ms)) << label;
    }
    // Only request latches (they make a retried unlock, release or semaphore acquire safe) may
    // stay, and only with a TTL.
    const char* stray =
        "local n = 0 for _, k in ipairs(redis.call('keys', '*')) do "
        "if not (string.find(k, '^redisson_unlock_latch') or "
        "string.find(k, '^redisson_release_latch') or "
        "string.find(k, '^redisson_acquire_latch')) or redis.call('pttl', k) < 0 then "
        "n = n + 1 end end return n";
    EXPECT_EQ(server.command({"EVAL", stray, "0"}), "0") << label << ": keys left behind";
  }
}

TEST(BadInput, KeysOfTheWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(bad_input_config(server));
  server.command({"SET", "string", "hello"});
  server.command({"HSET", "hash", "field", "1"});
  server.command({"RPUSH", "list", "a"});
  server.command({"SET", "redisson_lock_queue:{queued}", "not a list"});
  server.command({"HSET", "redisson_lock_token:{tokened}", "f", "v"});
  server.command({"SET", "{expiring}:timeout", "not a zset"});
  const auto typed = {errc::wrong_type, errc::server_error};

  expect_refused(server, "lock on a string", typed,
                 [&] { redisson::Lock(client, "string").try_lock(); });
  expect_refused(server, "lock on a list", typed, [&] { redisson::Lock(client, "list").lock(); });
  expect_refused(server, "fair lock on a string", typed,
                 [&] { redisson::FairLock(client, "string").try_lock(); });
  expect_refused(server, "fair lock whose queue is a string", typed,
                 [&] { redisson::FairLock(client, "queued").try_lock_for(10ms); });
  expect_refused(server, "fenced lock on a string", typed,
                 [&] { redisson::FencedLock(client, "string").try_lock(); });
  expect_refused(server, "fenced lock whose token counter is a hash", typed,
                 [&] { redisson::FencedLock(client, "tokened").try_lock(); });
  expect_refused(server, "spin lock on a string", typed,
                 [&] { redisson::SpinLock(client, "string").try_lock(); });
  expect_refused(server, "write lock on a string", typed,
                 [&] { redisson::ReadWriteLock(client, "string").write_lock().try_lock(); });
  expect_refused(server, "read lock on a list", typed,
                 [&] { redisson::ReadWriteLock(client, "list").read_lock().try_lock(); });
  expect_refused(server, "semaphore acquire on a hash", typed,
                 [&] { redisson::Semaphore(client, "hash").try_acquire(); });
  expect_refused(server, "semaphore release on a hash", typed,
                 [&] { redisson::Semaphore(client, "hash").release(); });
  expect_refused(server, "semaphore permits of a hash", typed,
                 [&] { redisson::Semaphore(client, "hash").available_permits(); });
  expect_refused(server, "semaphore add_permits on a list", typed,
                 [&] { redisson::Semaphore(client, "list").add_permits(2); });
  expect_refused(server, "semaphore acquire on a non-number", typed,
                 [&] { redisson::Semaphore(client, "string").try_acquire(); });
  expect_refused(server, "permit-expirable semaphore on a hash", typed,
                 [&] { redisson::PermitExpirableSemaphore(client, "hash").try_acquire(); });
  server.command({"SET", "expiring", "1"});
  expect_refused(server, "permit-expirable semaphore whose timeouts are a string", typed,
                 [&] { redisson::PermitExpirableSemaphore(client, "expiring").try_acquire(); });
  server.command({"DEL", "expiring"});
  expect_refused(server, "latch count of a hash", typed,
                 [&] { redisson::CountDownLatch(client, "hash").count(); });
  expect_refused(server, "latch count_down on a list", typed,
                 [&] { redisson::CountDownLatch(client, "list").count_down(); });
  expect_refused(server, "latch await on a hash", typed,
                 [&] { redisson::CountDownLatch(client, "hash").await_for(10ms); });
}

TEST(BadInput, NegativeDurationsAndCountsAreInvalidArguments) {
  RedisServer server;
  Client client(bad_input_config(server));
  server.command({"SET", "sem", "3"});
  server.command({"SET", "latch", "1"});
  const auto invalid = {errc::invalid_argument};
  expect_refused(server, "lock wait", invalid,
                 [&] { redisson::Lock(client, "l").try_lock_for(-1ms); });
  expect_refused(server, "lock lease", invalid, [&] { redisson::Lock(client, "l").lock(-1ms); });
  expect_refused(server, "fair lock lease", invalid,
                 [&] { redisson::FairLock(client, "l").try_lock_for(1ms, -1ms); });
  expect_refused(server, "fenced lock wait", invalid,
                 [&] { redisson::FencedLock(client, "l").try_lock_for(-5s); });
  expect_refused(server, "spin lock lease", invalid,
                 [&] { redisson::SpinLock(client, "l").lock(-1ms); });
  expect_refused(server, "write lock wait", invalid,
                 [&] { redisson::ReadWriteLock(client, "l").write_lock().try_lock_for(-1ms); });
  expect_refused(server, "semaphore wait", invalid,
                 [&] { redisson::Semaphore(client, "sem").try_acquire_for(-1ms); });
  expect_refused(server, "semaphore negative permits", invalid,
                 [&] { redisson::Semaphore(client, "sem").try_acquire(-1); });
  expect_refused(server, "semaphore release of negative permits", invalid,
                 [&] { redisson::Semaphore(client, "sem").release(-2); });
  expect_refused(server, "permit-expirable semaphore lease", invalid,
                 [&] { redisson::PermitExpirableSemaphore(client, "pes").try_acquire(1ms, -1ms); });
  expect_refused(server, "latch negative count", invalid,
                 [&] { redisson::CountDownLatch(client, "latch2").try_set_count(-1); });
  expect_refused(server, "latch wait", invalid,
                 [&] { redisson::CountDownLatch(client, "latch").await_for(-1ms); });
}

TEST(BadInput, HugeDurationsNeverOverflowIntoNonsense) {
  RedisServer server;
  Client client(bad_input_config(server));
  constexpr auto forever = std::chrono::hours::max();
  // A huge wait on something free is one successful attempt.
  auto lock = redisson::Lock(client, "huge");
  ASSERT_TRUE(lock.try_lock_for(forever));
  lock.unlock();
  auto fenced = redisson::FencedLock(client, "huge-fenced");
  ASSERT_TRUE(fenced.try_lock_for(forever));
  fenced.unlock();
  redisson::Semaphore semaphore(client, "huge-sem");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  ASSERT_TRUE(semaphore.try_acquire_for(forever));
  semaphore.release();
  redisson::CountDownLatch latch(client, "huge-latch");
  EXPECT_TRUE(latch.await_for(forever));  // absent latch: open
  EXPECT_TRUE(latch.await_until(std::chrono::steady_clock::time_point::max()));

  // A huge lease is either refused or a lease that still ends (never a key without expiry).
  auto check_lease = [&](const std::string& what, const std::string& key,
                         const std::function<bool()>& take, const std::function<void()>& release) {
    const auto before = snapshot(server);
    bool taken = false;
    try {
      taken = take();
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << what << ": " << e.what();
      EXPECT_EQ(snapshot(server), before) << what << ": refused, yet Redis changed";
      return;
    }
    ASSERT_TRUE(taken) << what;
    if (!key.empty()) {
      EXPECT_GE(std::stoll(server.command({"PTTL", key})), 0) << what << ": no expiry";
    }
    release();
  };
  check_lease(
      "lock", "huge", [&] { return lock.try_lock_for(0ms, forever); }, [&] { lock.unlock(); });
  auto fair = redisson::FairLock(client, "huge-fair");
  check_lease(
      "fair lock", "huge-fair", [&] { return fair.try_lock_for(0ms, forever); },
      [&] { fair.unlock(); });
  auto write = redisson::ReadWriteLock(client, "huge-rw").write_lock();
  check_lease(
      "write lock", "huge-rw", [&] { return write.try_lock_for(0ms, forever); },
      [&] { write.unlock(); });
  auto spin = redisson::SpinLock(client, "huge-spin");
  check_lease(
      "spin lock", "huge-spin", [&] { return spin.try_lock_for(0ms, forever); },
      [&] { spin.unlock(); });
  redisson::PermitExpirableSemaphore pes(client, "huge-pes");
  ASSERT_TRUE(pes.try_set_permits(1));
  std::string permit;
  check_lease(
      "permit-expirable semaphore", "",
      [&] {
        auto id = pes.try_acquire(0ms, std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::hours(1000000)));
        if (id) permit = *id;
        return id.has_value();
      },
      [&] { pes.release(permit); });
}

// A command with no arguments would go out as "*0\r\n", which Redis silently skips: no reply,
// so every later reply on that connection would complete the wrong caller.
TEST(BadInput, EmptyCommandIsRefusedAndTheConnectionStaysInStep) {
  RedisServer server;
  Client client(bad_input_config(server));
  expect_refused(server, "execute of an empty command", {errc::invalid_argument},
                 [&] { client.execute(redisson::Command{}); });
  std::error_code ec;
  client.execute(redisson::Command{}, ec);
  EXPECT_EQ(ec, errc::invalid_argument);
  auto async = client.async_execute(redisson::Command{}, asio::use_future);
  try {
    async.get();
    ADD_FAILURE() << "async_execute of an empty command was accepted";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_EQ(client.execute({"ECHO", "in step"}).str, "in step");
}

TEST(BadInput, MultiLockRefusesAnEmptyListAndBadDurations) {
  RedisServer server;
  Client client(bad_input_config(server));
  try {
    redisson::MultiLock empty(std::vector<redisson::Lock>{});
    ADD_FAILURE() << "a MultiLock of no locks was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
  redisson::MultiLock multi{redisson::Lock(client, "m1"), redisson::Lock(client, "m2")};
  const auto invalid = {errc::invalid_argument};
  expect_refused(server, "multi lock wait", invalid, [&] { (void)multi.try_lock_for(-1ms); });
  expect_refused(server, "multi lock lease", invalid, [&] { multi.lock(0ms); });
  expect_refused(server, "multi lock try lease", invalid,
                 [&] { (void)multi.try_lock_for(10ms, -1ms); });
}

namespace {

// One I/O thread serves every connection of a client: more would race its unsynchronised
// handlers, so a Config asking for them is refused up front, saying why.
TEST(BadInput, MoreThanOneIoThreadIsRefusedWithTheReason) {
  RedisServer server;
  for (const int threads : {0, 2, 4}) {
    auto config = bad_input_config(server);
    config.io_threads = threads;
    try {
      Client client(config);
      ADD_FAILURE() << "io_threads = " << threads << " accepted";
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("io_threads must be 1"), std::string::npos) << e.what();
    }
  }
}

}  // namespace

}  // namespace fault_bad_input_test
