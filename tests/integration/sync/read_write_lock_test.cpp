// The read-write lock against a real redis-server: readers share, a writer excludes everyone,
// downgrade yes / upgrade no, dead readers' holds expire, a write unlock wakes every waiting
// reader, std::shared_lock / std::unique_lock, the watchdog, retry-safe unlock, and the exact
// Redisson data layout (so Java Redisson processes can share the lock).
#include "redisson/read_write_lock.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <csignal>
#include <future>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <thread>
#include <vector>

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

namespace sync_read_write_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::ReadWriteLock;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::spawn_child;
using redisson::test::spawn_children;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

using Hash = std::map<std::string, std::string>;

long long to_int(const std::string& text) { return std::stoll(text); }

// HGETALL as a map (the fixture joins reply elements with '\n').
Hash hash_of(const RedisServer& server, const std::string& key) {
  Hash hash;
  std::istringstream lines(server.command({"HGETALL", key}));
  std::string field;
  std::string value;
  while (std::getline(lines, field) && std::getline(lines, value)) hash[field] = value;
  return hash;
}

// The key of read hold `hold` of `field` on a lock named like "name" (no braces in it).
std::string hold_key(const std::string& name, const std::string& field, int hold) {
  return "{" + name + "}:" + field + ":rwlock_timeout:" + std::to_string(hold);
}

// Polls `pred` for `duration`; false as soon as it does not hold.
template <class Pred>
bool holds_throughout(Pred pred, std::chrono::milliseconds duration) {
  bool broken = false;
  const auto until = std::chrono::steady_clock::now() + duration;
  eventually(
      [&] {
        if (!pred()) broken = true;
        return broken || std::chrono::steady_clock::now() >= until;
      },
      duration + 5s, 20ms);
  return !broken;
}

template <class Body>
errc error_of(Body body) {
  try {
    body();
  } catch (const std::system_error& e) {
    if (e.code().category() == redisson::category()) return static_cast<errc>(e.code().value());
    ADD_FAILURE() << "unexpected error: " << e.what();
    return errc{};
  }
  ADD_FAILURE() << "no error";
  return errc{};
}

// The error an unlock(std::error_code&) reports (unlock() itself never throws).
template <class Unlock>
errc unlock_error_of(Unlock unlock) {
  std::error_code ec;
  unlock(ec);
  if (!ec) ADD_FAILURE() << "no error";
  return ec.category() == redisson::category() ? static_cast<errc>(ec.value()) : errc{};
}

// Takes a read lock of "doomed" with an 800 ms watchdog lease, writes a byte to the fd
// args[1], then waits to be killed. args: the server's URL, the fd.
REDISSON_TEST_CHILD(hold_read_lock_until_killed) {
  Client client(config_for(args.at(0), 800ms));
  auto rw = redisson::ReadWriteLock(client, "doomed");
  rw.lock_shared();
  char byte = 1;
  [[maybe_unused]] auto n = write(std::stoi(args.at(1)), &byte, 1);
  pause();
  return 0;
}

constexpr int kCounterRounds = 40;

// A process of its own: kCounterRounds rounds, alternately a writer adding 2 to "counter" in
// two steps and a reader that must never see it odd (exit status 2). args: the server's URL.
REDISSON_TEST_CHILD(write_and_read_counter) {
  Client client(config_for(args.at(0)));
  auto rw = redisson::ReadWriteLock(client, "counter-lock");
  auto get = [&] {
    auto value = client.execute({"GET", "counter"});
    return value.is_null() ? 0LL : std::stoll(value.str);
  };
  auto set = [&](long long n) {
    client.execute(redisson::Command{"SET", "counter"}.arg(static_cast<std::int64_t>(n)));
  };
  for (int i = 0; i < kCounterRounds; ++i) {
    if (i % 2 == 0) {
      std::unique_lock writer(rw);
      set(get() + 1);  // odd while the writer is half done
      set(get() + 1);
    } else {
      std::shared_lock reader(rw);
      if (get() % 2 != 0) return 2;  // saw a half-done write
    }
  }
  return 0;
}

}  // namespace

TEST(ReadWriteLock, ReadersShareAndKeepWritersOut) {
  RedisServer server;
  Client client(config_for(server));
  auto read = redisson::ReadWriteLock(client, "shared").read_lock();
  auto write = redisson::ReadWriteLock(client, "shared").write_lock();
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future)
                  .get());  // re-entry
  EXPECT_EQ(read.async_hold_count(redisson::OwnerId(2), asio::use_future).get(), 2);
  EXPECT_FALSE(
      write.async_try_lock(redisson::OwnerId(3), 0ms, std::nullopt, asio::use_future).get());
  Client other(config_for(server));
  auto other_rw = redisson::ReadWriteLock(other, "shared");
  bool other_read = false;
  bool other_write = true;
  std::thread([&] {
    other_read = other_rw.try_lock_shared();
    if (other_read) other_rw.unlock_shared();
  }).join();
  std::thread([&] { other_write = other_rw.try_lock_for(100ms); }).join();
  EXPECT_TRUE(other_read);
  EXPECT_FALSE(other_write);
  EXPECT_TRUE(read.is_locked());
  EXPECT_FALSE(write.is_locked());

  read.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  EXPECT_FALSE(write.async_try_lock(redisson::OwnerId(3), 0ms, std::nullopt, asio::use_future)
                   .get());  // 2 holds 1
  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "shared"}), "0");
  EXPECT_TRUE(
      write.async_try_lock(redisson::OwnerId(3), 0ms, std::nullopt, asio::use_future).get());
  write.async_unlock(redisson::OwnerId(3), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "shared"}), "0");
}

TEST(ReadWriteLock, WriterExcludesReadersAndWriters) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "exclusive");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  EXPECT_TRUE(
      write.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_TRUE(write.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future)
                  .get());  // re-entry
  EXPECT_EQ(write.async_hold_count(redisson::OwnerId(1), asio::use_future).get(), 2);
  EXPECT_FALSE(
      read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(
      write.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(
      read.async_try_lock(redisson::OwnerId(2), 50ms, std::nullopt, asio::use_future).get());
  Client other(config_for(server));
  auto other_rw = redisson::ReadWriteLock(other, "exclusive");
  bool other_read = true;
  bool other_write = true;
  std::thread([&] {
    other_read = other_rw.try_lock_shared();
    other_write = other_rw.try_lock();
  }).join();
  EXPECT_FALSE(other_read);
  EXPECT_FALSE(other_write);
  EXPECT_TRUE(write.is_locked());
  EXPECT_FALSE(read.is_locked());
  write.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_FALSE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future)
                   .get());  // 1 hold left
  write.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_FALSE(rw.is_locked());
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
}

TEST(ReadWriteLock, WriterDowngradesByTakingReadThenReleasingWrite) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "downgrade");
  const auto me = client.id() + ":" + std::to_string(redisson::OwnerId::current_thread().value());
  rw.lock();
  rw.lock_shared();  // the writer may read too
  EXPECT_EQ(hash_of(server, "downgrade"),
            (Hash{{"mode", "write"}, {me + ":write", "1"}, {me, "1"}}));
  rw.unlock();  // release the write hold: still reading
  EXPECT_EQ(hash_of(server, "downgrade"), (Hash{{"mode", "read"}, {me, "1"}}));
  EXPECT_TRUE(rw.read_lock().is_held_by_current_thread());
  EXPECT_FALSE(rw.write_lock().is_held_by_current_thread());
  EXPECT_GT(to_int(server.command({"PTTL", "downgrade"})), 0);
  bool other_read = false;
  bool other_write = true;
  std::thread([&] {
    other_read = rw.try_lock_shared();
    if (other_read) rw.unlock_shared();
    other_write = rw.try_lock();
  }).join();
  EXPECT_TRUE(other_read);
  EXPECT_FALSE(other_write);
  rw.unlock_shared();
  EXPECT_EQ(server.command({"EXISTS", "downgrade"}), "0");
  EXPECT_EQ(server.command({"EXISTS", hold_key("downgrade", me, 1)}), "0");
}

TEST(ReadWriteLock, UpgradeIsRefusedClearlyAndChangesNothing) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "upgrade");
  const auto me = client.id() + ":" + std::to_string(redisson::OwnerId::current_thread().value());
  rw.lock_shared();
  const Hash before{{"mode", "read"}, {me, "1"}};
  EXPECT_FALSE(rw.try_lock());
  EXPECT_FALSE(rw.try_lock_for(100ms));  // a bounded wait times out like anyone else's
  EXPECT_EQ(error_of([&] { rw.lock(); }), errc::already_held);
  EXPECT_EQ(error_of([&] { rw.write_lock().lock(60s); }), errc::already_held);
  EXPECT_EQ(error_of([&] { std::unique_lock writer(rw); }), errc::already_held);
  try {
    rw.lock();
  } catch (const redisson::error& e) {
    EXPECT_NE(std::string(e.what()).find("upgrade"), std::string::npos) << e.what();
  }
  // The async API refuses an unbounded wait for the same owner the same way.
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(5), 0ms, std::nullopt, asio::use_future).get());
  auto refused = write.async_lock(redisson::OwnerId(5), asio::use_future);
  ASSERT_EQ(refused.wait_for(20s), std::future_status::ready);
  EXPECT_EQ(error_of([&] { refused.get(); }), errc::already_held);
  read.async_unlock(redisson::OwnerId(5), asio::use_future).get();

  EXPECT_EQ(hash_of(server, "upgrade"), before);
  EXPECT_EQ(rw.write_lock().hold_count(), 0);
  rw.unlock_shared();
  rw.lock();  // with the read hold released, the write lock is free
  rw.unlock();
  EXPECT_EQ(server.command({"EXISTS", "upgrade"}), "0");
}

TEST(ReadWriteLock, KilledReaderHoldExpiresAndWriterGetsIn) {
  RedisServer server;
  int ready_pipe[2];
  ASSERT_EQ(pipe(ready_pipe), 0);
  const pid_t reader =
      spawn_child("hold_read_lock_until_killed", {server.url(), std::to_string(ready_pipe[1])});
  close(ready_pipe[1]);  // so a child that dies early ends the read instead of hanging it
  char byte = 0;
  const auto got = read(ready_pipe[0], &byte, 1);
  close(ready_pipe[0]);
  if (got != 1) kill(reader, SIGKILL);
  ASSERT_EQ(got, 1) << "the reader process died before taking its read lock";
  ASSERT_EQ(server.command({"HGET", "doomed", "mode"}), "read");
  const auto hold_keys = server.command({"KEYS", "{doomed}:*:rwlock_timeout:1"});
  ASSERT_NE(hold_keys, "(empty array)");
  const auto hold_ttl = to_int(server.command({"PTTL", hold_keys}));
  EXPECT_GT(hold_ttl, 0);
  EXPECT_LE(hold_ttl, 800);
  kill(reader, SIGKILL);
  wait_exit(reader);
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "doomed");
  EXPECT_TRUE(rw.try_lock_for(10s));
  EXPECT_EQ(server.command({"HGET", "doomed", "mode"}), "write");
  EXPECT_EQ(server.command({"EXISTS", hold_keys}), "0");
  rw.unlock();
}

TEST(ReadWriteLock, WriteUnlockWakesAllWaitingReaders) {
  RedisServer server;
  Client writer_client(config_for(server));
  auto writer = redisson::ReadWriteLock(writer_client, "wake-all").write_lock();
  writer.lock(60s);  // readers relying on the lease would sleep for a minute
  constexpr int kReaders = 3;
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<std::future<bool>> waiting;
  for (int i = 0; i < kReaders; ++i) {
    clients.push_back(std::make_unique<Client>(config_for(server)));
    auto read = redisson::ReadWriteLock(*clients.back(), "wake-all").read_lock();
    waiting.push_back(
        read.async_lock(redisson::OwnerId(static_cast<std::uint64_t>(i + 1)), asio::use_future));
  }
  // Every reader subscribed (one subscriber connection per client) and is asleep.
  ASSERT_TRUE(subscribers_are(server, "redisson_rwlock:{wake-all}", 3));
  for (auto& result : waiting) {
    EXPECT_EQ(result.wait_for(0ms), std::future_status::timeout);
  }
  writer.unlock();  // one message: "1"
  for (auto& result : waiting) {
    ASSERT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s lease
    EXPECT_TRUE(result.get());
  }
  const auto hash = hash_of(server, "wake-all");
  EXPECT_EQ(hash.size(), 1u + kReaders);
  EXPECT_EQ(hash.at("mode"), "read");
  for (int i = 0; i < kReaders; ++i) {
    EXPECT_EQ(hash.at(clients[i]->id() + ":" + std::to_string(i + 1)), "1");
  }
  // Readers that got their lock leave no subscription behind.
  EXPECT_TRUE(subscribers_are(server, "redisson_rwlock:{wake-all}", 0));
  for (int i = 0; i < kReaders; ++i) {
    redisson::ReadWriteLock(*clients[i], "wake-all")
        .read_lock()
        .async_unlock(redisson::OwnerId(static_cast<std::uint64_t>(i + 1)), asio::use_future)
        .get();
  }
  EXPECT_EQ(server.command({"EXISTS", "wake-all"}), "0");
}

TEST(ReadWriteLock, WorksWithSharedLockAndUniqueLock) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "std");
  {
    std::shared_lock reader(rw);
    EXPECT_EQ(server.command({"HGET", "std", "mode"}), "read");
    std::shared_lock again(rw, std::try_to_lock);  // read holds are re-entrant
    EXPECT_TRUE(again.owns_lock());
    EXPECT_EQ(rw.read_lock().hold_count(), 2);
  }
  EXPECT_EQ(server.command({"EXISTS", "std"}), "0");
  {
    std::unique_lock writer(rw);
    EXPECT_EQ(server.command({"HGET", "std", "mode"}), "write");
    std::shared_lock downgrade(rw, 100ms);  // the writer may read: try_lock_shared_for
    EXPECT_TRUE(downgrade.owns_lock());
  }
  EXPECT_EQ(server.command({"EXISTS", "std"}), "0");
  {
    std::unique_lock writer(rw, std::defer_lock);
    EXPECT_TRUE(writer.try_lock_until(std::chrono::steady_clock::now() + 1s));
    bool other_read = true;
    std::thread([&] {
      std::shared_lock reader(rw, std::chrono::steady_clock::now() + 50ms);
      other_read = reader.owns_lock();
    }).join();
    EXPECT_FALSE(other_read);
  }
  {
    // ReadLock and WriteLock are Lockable on their own.
    auto read = rw.read_lock();
    std::scoped_lock guard(read);
    EXPECT_EQ(server.command({"HGET", "std", "mode"}), "read");
  }
  {
    auto write = rw.write_lock();
    std::unique_lock guard(write, std::defer_lock);
    EXPECT_TRUE(guard.try_lock_for(100ms));
  }
  EXPECT_EQ(server.command({"EXISTS", "std"}), "0");
}

TEST(ReadWriteLock, HeldLockLooksExactlyLikeRedissonLayout) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "layout");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  const auto owner1 = client.id() + ":1";
  const auto owner2 = client.id() + ":2";
  EXPECT_EQ(read.owner_field(redisson::OwnerId(1)), owner1);
  EXPECT_EQ(write.owner_field(redisson::OwnerId(1)), owner1 + ":write");

  // Readers: one counter per owner, one lease key per hold.
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, 20s, asio::use_future).get());
  EXPECT_EQ(server.command({"TYPE", "layout"}), "hash");
  EXPECT_EQ(hash_of(server, "layout"), (Hash{{"mode", "read"}, {owner1, "2"}, {owner2, "1"}}));
  for (const auto& key : {hold_key("layout", owner1, 1), hold_key("layout", owner1, 2),
                          hold_key("layout", owner2, 1)}) {
    EXPECT_EQ(server.command({"TYPE", key}), "string") << key;
    EXPECT_EQ(server.command({"GET", key}), "1") << key;
    const auto ttl = to_int(server.command({"PTTL", key}));
    EXPECT_GT(ttl, 0) << key;
    EXPECT_LE(ttl, 30000) << key;
  }
  EXPECT_LE(to_int(server.command({"PTTL", hold_key("layout", owner2, 1)})), 20000);
  const auto pttl = to_int(server.command({"PTTL", "layout"}));
  EXPECT_GT(pttl, 20000);  // the longest read hold's lease: owner1's 30 s watchdog lease
  EXPECT_LE(pttl, 30000);

  // The highest hold goes first; the hash's lease is the longest lease left.
  read.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", hold_key("layout", owner1, 2)}), "0");
  EXPECT_EQ(server.command({"EXISTS", hold_key("layout", owner1, 1)}), "1");
  read.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(hash_of(server, "layout"), (Hash{{"mode", "read"}, {owner2, "1"}}));
  EXPECT_LE(to_int(server.command({"PTTL", "layout"})), 20000);
  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "layout"}), "0");
  EXPECT_EQ(server.command({"KEYS", "*rwlock_timeout*"}), "(empty array)");

  // Writer: one field "<owner>:write"; its read holds (downgrade) sit beside it.
  ASSERT_TRUE(
      write.async_try_lock(redisson::OwnerId(3), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(hash_of(server, "layout"), (Hash{{"mode", "write"}, {client.id() + ":3:write", "1"}}));
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(3), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(hash_of(server, "layout"),
            (Hash{{"mode", "write"}, {client.id() + ":3:write", "1"}, {client.id() + ":3", "1"}}));
  EXPECT_EQ(server.command({"EXISTS", hold_key("layout", client.id() + ":3", 1)}), "1");
  EXPECT_TRUE(rw.force_unlock());
  EXPECT_EQ(server.command({"KEYS", "*rwlock_timeout*"}), "(empty array)");

  // A name with a hash tag keeps it: n + ":" + owner, not "{n}:" + owner.
  auto tagged = redisson::ReadWriteLock(client, "a{tag}b").read_lock();
  ASSERT_TRUE(
      tagged.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(server.command({"EXISTS", "a{tag}b:" + owner1 + ":rwlock_timeout:1"}), "1");
  tagged.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(server.command({"EXISTS", "a{tag}b"}), "0");
}

TEST(ReadWriteLock, ReadUnlockPublishesZeroAndWriteUnlockPublishesOne) {
  RedisServer server;
  Client client(config_for(server));
  std::mutex mutex;
  std::vector<std::string> messages;
  auto subscription = client.subscribe("redisson_rwlock:{messages}", [&](std::string_view text) {
    std::lock_guard guard(mutex);
    messages.emplace_back(text);
  });
  auto rw = redisson::ReadWriteLock(client, "messages");
  rw.lock_shared();
  rw.unlock_shared();
  ASSERT_TRUE(eventually([&] {
    std::lock_guard guard(mutex);
    return messages.size() == 1;
  }));
  rw.lock();
  rw.unlock();
  ASSERT_TRUE(eventually([&] {
    std::lock_guard guard(mutex);
    return messages.size() == 2;
  }));
  std::lock_guard guard(mutex);
  EXPECT_EQ(messages, (std::vector<std::string>{"0", "1"}));
}

TEST(ReadWriteLock, WatchdogKeepsReadAndWriteHoldsAndStopsAfterUnlock) {
  RedisServer server;
  Client client(config_for(server, 600ms));
  auto rw = redisson::ReadWriteLock(client, "watched");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  const auto& watchdog =
      redisson::detail::ClientAccess::core(client)->service<redisson::detail::Watchdog>().holds();

  ASSERT_TRUE(
      write.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(watchdog.watched(), 1u);
  // Four lease periods: without renewal the key would be gone after one.
  EXPECT_TRUE(holds_throughout(
      [&] {
        return server.command({"HGET", "watched", "mode"}) == "write";
      },
      2400ms));
  EXPECT_FALSE(write.lost(redisson::OwnerId(1)));
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future)
                  .get());  // downgrade
  EXPECT_EQ(watchdog.watched(), 2u);
  write.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(watchdog.watched(), 1u);

  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_EQ(watchdog.watched(), 2u);  // one entry per (lock, owner, side)
  const auto key1 = hold_key("watched", client.id() + ":1", 1);
  const auto key2 = hold_key("watched", client.id() + ":2", 2);
  EXPECT_TRUE(holds_throughout(
      [&] {
        return server.command({"HGET", "watched", "mode"}) == "read" &&
               server.command({"EXISTS", key1, key2}) == "2";
      },
      2400ms));
  EXPECT_FALSE(read.lost(redisson::OwnerId(1)));
  EXPECT_FALSE(read.lost(redisson::OwnerId(2)));

  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  EXPECT_EQ(watchdog.watched(), 2u);  // owner 2 still holds one
  read.async_unlock(redisson::OwnerId(2), asio::use_future).get();
  read.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(watchdog.watched(), 0u);
  EXPECT_EQ(server.command({"EXISTS", "watched"}), "0");
  // After unlock nothing recreates or renews it.
  server.command({"HSET", "watched", "mode", "read", client.id() + ":1", "1"});
  server.command({"PEXPIRE", "watched", "500"});
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "watched"}) == "0"; }, 5s));
}

TEST(ReadWriteLock, ExplicitLeaseIsNotRenewedAndExpires) {
  RedisServer server;
  Client client(config_for(server, 600ms));
  auto rw = redisson::ReadWriteLock(client, "fixed");
  rw.read_lock().lock(300ms);
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "fixed"}) == "0"; }, 5s));
  rw.write_lock().lock(300ms);
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", "fixed"}) == "0"; }, 5s));
}

TEST(ReadWriteLock, OwnerLearnsWhenWatchdogFindsReadHoldGone) {
  RedisServer server;
  Client client(config_for(server, 600ms));
  auto read = redisson::ReadWriteLock(client, "fragile").read_lock();
  std::atomic<std::uint64_t> lost_owner{0};
  read.on_lost([&](redisson::OwnerId owner) { lost_owner = owner.value(); });
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(9), 0ms, std::nullopt, asio::use_future).get());
  server.command({"DEL", "fragile"});
  EXPECT_TRUE(eventually([&] { return lost_owner.load() != 0; }, 5s));
  EXPECT_EQ(lost_owner.load(), 9u);
  EXPECT_TRUE(read.lost(redisson::OwnerId(9)));
  EXPECT_EQ(redisson::detail::ClientAccess::core(client)
                ->service<redisson::detail::Watchdog>()
                .holds()
                .watched(),
            0u);
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(9), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(read.lost(redisson::OwnerId(9)));  // taking it again clears the lost state
  read.async_unlock(redisson::OwnerId(9), asio::use_future).get();
}

TEST(ReadWriteLock, UnlockByNonOwnerFailsAndChangesNothing) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "owned");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  rw.lock_shared();
  const auto snapshot = [&] {
    auto hash = hash_of(server, "owned");
    hash["*keys"] = server.command({"KEYS", "*rwlock_timeout*"});
    return hash;
  };
  const auto before = snapshot();
  errc other_read_error{};
  errc other_write_error{};
  std::thread([&] {
    other_read_error = unlock_error_of([&](std::error_code& ec) { rw.unlock_shared(ec); });
    other_write_error = unlock_error_of([&](std::error_code& ec) { rw.unlock(ec); });
  }).join();
  EXPECT_EQ(other_read_error, errc::not_owner);
  EXPECT_EQ(other_write_error, errc::not_owner);
  EXPECT_EQ(unlock_error_of([&](std::error_code& ec) { rw.unlock(ec); }),
            errc::not_owner);  // a reader is not the writer
  Client other(config_for(server));
  EXPECT_EQ(unlock_error_of([&](std::error_code& ec) {
              redisson::ReadWriteLock(other, "owned").unlock_shared(ec);
            }),
            errc::not_owner);
  EXPECT_EQ(snapshot(), before);
  rw.unlock_shared();

  ASSERT_TRUE(
      write.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  const auto held = snapshot();
  EXPECT_EQ(error_of([&] { write.async_unlock(redisson::OwnerId(2), asio::use_future).get(); }),
            errc::not_owner);
  // The writer holds no read hold: its read unlock is not an owner's either.
  EXPECT_EQ(error_of([&] { read.async_unlock(redisson::OwnerId(1), asio::use_future).get(); }),
            errc::not_owner);
  EXPECT_EQ(snapshot(), held);
  write.async_unlock(redisson::OwnerId(1), asio::use_future).get();
  EXPECT_EQ(error_of([&] { write.async_unlock(redisson::OwnerId(1), asio::use_future).get(); }),
            errc::not_owner);
  EXPECT_EQ(server.command({"EXISTS", "owned"}), "0");
}

TEST(ReadWriteLock, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  EXPECT_EQ(error_of([&] { redisson::ReadWriteLock(client, ""); }), errc::invalid_argument);
  auto rw = redisson::ReadWriteLock(client, "args");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  EXPECT_EQ(error_of([&] { rw.try_lock_for(-1ms); }), errc::invalid_argument);
  EXPECT_EQ(error_of([&] { rw.try_lock_shared_for(-1ms); }), errc::invalid_argument);
  EXPECT_EQ(error_of([&] { read.lock(0ms); }), errc::invalid_argument);
  EXPECT_EQ(error_of([&] { write.lock(-5ms); }), errc::invalid_argument);
  EXPECT_EQ(error_of([&] { read.try_lock_for(1s, -1s); }), errc::invalid_argument);
  EXPECT_EQ(
      error_of([&] {
        write.async_try_lock(redisson::OwnerId(1), -1ms, std::nullopt, asio::use_future).get();
      }),
      errc::invalid_argument);
  EXPECT_EQ(
      error_of([&] { read.async_try_lock(redisson::OwnerId(1), 1s, 0ms, asio::use_future).get(); }),
      errc::invalid_argument);
  EXPECT_EQ(server.command({"DBSIZE"}), "0");

  server.command({"SET", "text", "hello"});
  auto wrong = redisson::ReadWriteLock(client, "text");
  EXPECT_EQ(error_of([&] { wrong.lock(); }), errc::wrong_type);
  EXPECT_EQ(error_of([&] { wrong.lock_shared(); }), errc::wrong_type);
  EXPECT_EQ(error_of([&] { wrong.try_lock_shared(); }), errc::wrong_type);
  EXPECT_EQ(unlock_error_of([&](std::error_code& ec) { wrong.unlock_shared(ec); }),
            errc::wrong_type);
  EXPECT_EQ(unlock_error_of([&](std::error_code& ec) { wrong.unlock(ec); }), errc::wrong_type);
  EXPECT_EQ(error_of([&] { wrong.force_unlock(); }), errc::wrong_type);
  try {
    wrong.lock_shared();
  } catch (const redisson::error& e) {
    EXPECT_NE(std::string(e.what()).find("'text'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server.command({"GET", "text"}), "hello");
  EXPECT_EQ(server.command({"DBSIZE"}), "1");

  // A plain Lock of the same name is no read-write lock: both sides treat it as held.
  auto plain = redisson::Lock(client, "plain");
  plain.lock();
  auto over_plain = redisson::ReadWriteLock(client, "plain");
  EXPECT_FALSE(over_plain.try_lock_shared());
  EXPECT_FALSE(over_plain.try_lock());
  EXPECT_FALSE(over_plain.force_unlock());
  EXPECT_EQ(server.command({"HLEN", "plain"}), "1");
  plain.unlock();

  // A deadline in the past is one attempt, as std::shared_timed_mutex::try_lock_until.
  EXPECT_TRUE(rw.try_lock_shared_until(std::chrono::steady_clock::now() - 1s));
  rw.unlock_shared();
}

TEST(ReadWriteLock, RetriedUnlockAfterLostReplyDoesNotReleaseTwice) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "retry");
  rw.lock_shared();
  rw.lock_shared();
  const auto field =
      rw.read_lock().owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  // The exact read unlock, sent twice with one request id: as when the first reply is lost.
  const std::string latch = "redisson_unlock_latch:{retry}:0123456789abcdef0123456789abcdef";
  const std::string source(redisson::detail::lua::rwlock_read_unlock.source);
  auto send = [&] {
    return server.command({"EVAL", source, "5", "retry", "redisson_rwlock:{retry}",
                           "{retry}:" + field + ":rwlock_timeout", "{retry}", latch, "0", field,
                           "publish", "20000"});
  };
  EXPECT_EQ(send(), "1");
  EXPECT_EQ(send(), "1");
  EXPECT_EQ(rw.read_lock().hold_count(), 1);
  rw.unlock_shared();
  EXPECT_FALSE(rw.is_locked());
}

TEST(ReadWriteLock, ForeignRedissonWriterBlocksUsAndItsPublishWakesUs) {
  RedisServer server;
  const std::string foreign = "11111111-2222-3333-4444-555555555555:1:write";
  server.command({"HSET", "foreign", "mode", "write", foreign, "1"});
  server.command({"PEXPIRE", "foreign", "60000"});
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "foreign");
  EXPECT_FALSE(rw.try_lock_shared());
  EXPECT_FALSE(rw.try_lock());
  std::promise<bool> acquired;
  std::thread waiting([&] {
    acquired.set_value(rw.try_lock_shared_for(50s));
    rw.unlock_shared();
  });
  ASSERT_TRUE(subscribers_are(server, "redisson_rwlock:{foreign}", 1));
  server.command({"DEL", "foreign"});
  server.command({"PUBLISH", "redisson_rwlock:{foreign}", "1"});
  auto result = acquired.get_future();
  ASSERT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s lease
  EXPECT_TRUE(result.get());
  waiting.join();
  EXPECT_EQ(server.command({"EXISTS", "foreign"}), "0");
}

TEST(ReadWriteLock, ForceUnlockRespectsModeAndWakesWaiters) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "forced");
  auto read = rw.read_lock();
  auto write = rw.write_lock();
  ASSERT_TRUE(
      write.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  auto waiting = read.async_lock(redisson::OwnerId(2), asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_rwlock:{forced}", 1));
  EXPECT_FALSE(read.force_unlock());  // in write mode: the read side leaves it alone
  EXPECT_EQ(server.command({"HGET", "forced", "mode"}), "write");
  EXPECT_TRUE(write.force_unlock());
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_FALSE(write.force_unlock());
  EXPECT_TRUE(read.force_unlock());
  EXPECT_EQ(server.command({"DBSIZE"}), "0");  // the hash and the read hold's lease key
}

TEST(ReadWriteLock, ReadersNeverSeeAHalfDoneWriteAcrossProcesses) {
  RedisServer server;
  constexpr int kProcesses = 3;
  const auto children = spawn_children("write_and_read_counter", kProcesses, {server.url()});
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_EQ(to_int(server.command({"GET", "counter"})), kProcesses * kCounterRounds);
  EXPECT_EQ(server.command({"EXISTS", "counter-lock"}), "0");
}

namespace {

const std::string kWriters = "redisson_rwlock_writers:{busy}";

// Readers of "busy" in one thread that always overlap: owner 1 and owner 2 take turns, each
// taking its read hold before the other releases, so that the lock is never free while they
// get in. A reader held back (a writer waits) releases anyway and waits for its turn.
class OverlappingReaders {
 public:
  explicit OverlappingReaders(const Client& client)
      : read_(redisson::ReadWriteLock(client, "busy").read_lock()), thread_([this] { run(); }) {}
  ~OverlappingReaders() {
    stop_ = true;
    thread_.join();
  }
  OverlappingReaders(const OverlappingReaders&) = delete;
  OverlappingReaders& operator=(const OverlappingReaders&) = delete;

  int held_back() const { return held_back_.load(); }
  int overlaps() const { return overlaps_.load(); }
  bool failed() const { return failed_.load(); }

 private:
  bool take(redisson::OwnerId owner, std::optional<std::chrono::milliseconds> wait) {
    return read_.async_try_lock(owner, wait, std::nullopt, asio::use_future).get();
  }
  void run() {
    redisson::OwnerId current(1);
    if (!take(current, 20s)) {
      failed_ = true;
      return;
    }
    while (!stop_) {
      const redisson::OwnerId next(current.value() == 1 ? 2 : 1);
      const bool overlapped = take(next, 0ms);
      read_.async_unlock(current, asio::use_future).get();
      if (overlapped) {
        ++overlaps_;
      } else {
        ++held_back_;
        if (!take(next, 20s)) {
          failed_ = true;
          return;
        }
      }
      current = next;
    }
    read_.async_unlock(current, asio::use_future).get();
  }

  redisson::ReadLock read_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::atomic<int> held_back_{0};
  std::atomic<int> overlaps_{0};
  std::thread thread_;
};

}  // namespace

// Redisson's read lock admits readers while a writer waits, so readers that keep overlapping
// keep a writer out for ever (with 16 readers the bench's writer got nothing in 5 s). A writer of
// this library that waits holds new readers of this library back, and gets its turn once the
// readers holding the lock have left.
TEST(ReadWriteLock, AWaitingWriterGetsInAmongContinuouslyOverlappingReaders) {
  RedisServer server;
  Client reader_client(config_for(server));
  Client writer_client(config_for(server));
  auto write = redisson::ReadWriteLock(writer_client, "busy").write_lock();
  OverlappingReaders readers(reader_client);
  ASSERT_TRUE(eventually([&] { return readers.overlaps() > 10; }));
  for (int round = 0; round < 3; ++round) {
    ASSERT_TRUE(write.try_lock_for(20s)) << "round " << round;
    EXPECT_EQ(server.command({"HGET", "busy", "mode"}), "write");
    write.unlock();
    // The readers carry on overlapping after the writer's turn.
    const auto overlaps = readers.overlaps();
    ASSERT_TRUE(eventually([&] { return readers.overlaps() > overlaps; }));
  }
  EXPECT_GE(readers.held_back(), 3);
  EXPECT_FALSE(readers.failed());
}

// While a writer waits, a reader that holds the lock already still re-enters (it could not wait
// for a writer that waits for it); a new reader is held back until the writer has had its turn.
// The writer order is a key of its own that Java Redisson never reads: the lock's hash keeps
// Redisson's layout.
TEST(ReadWriteLock, AWaitingWriterHoldsBackNewReadersButNotReentrantOnes) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "busy");
  auto read = rw.read_lock();
  const redisson::OwnerId holder(1);
  const redisson::OwnerId newcomer(2);
  ASSERT_TRUE(read.async_try_lock(holder, 0ms, std::nullopt, asio::use_future).get());
  auto writing =
      rw.write_lock().async_try_lock(redisson::OwnerId(3), 20s, std::nullopt, asio::use_future);
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", kWriters}) == "1"; }));
  EXPECT_TRUE(read.async_try_lock(holder, 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(read.async_try_lock(newcomer, 0ms, std::nullopt, asio::use_future).get());
  const auto hash = hash_of(server, "busy");
  EXPECT_EQ(hash.size(), 2u);  // mode and the holder's field: Redisson's layout, nothing added
  EXPECT_EQ(hash.at("mode"), "read");
  EXPECT_EQ(hash.at(client.id() + ":1"), "2");

  auto reading = read.async_try_lock(newcomer, 20s, std::nullopt, asio::use_future);
  read.async_unlock(holder, asio::use_future).get();
  read.async_unlock(holder, asio::use_future).get();
  ASSERT_EQ(writing.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(writing.get());
  EXPECT_EQ(server.command({"EXISTS", kWriters}), "0");  // it left the order as it took the lock
  rw.write_lock().async_unlock(redisson::OwnerId(3), asio::use_future).get();
  ASSERT_EQ(reading.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(reading.get());
  read.async_unlock(newcomer, asio::use_future).get();
}

// A writer that stops waiting leaves the order; one that died (its entry not renewed) holds
// readers back no longer than its entry lasts.
TEST(ReadWriteLock, AWriterThatStopsWaitingOrDiesHoldsNoReaderBack) {
  RedisServer server;
  Client client(config_for(server));
  auto rw = redisson::ReadWriteLock(client, "busy");
  auto read = rw.read_lock();
  ASSERT_TRUE(read.async_try_lock(redisson::OwnerId(1), 0ms, std::nullopt, asio::use_future).get());
  EXPECT_FALSE(rw.write_lock()
                   .async_try_lock(redisson::OwnerId(3), 300ms, std::nullopt, asio::use_future)
                   .get());
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", kWriters}) == "0"; }));
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(2), 0ms, std::nullopt, asio::use_future).get());

  // A dead writer's entry, lasting one second from now by the server's clock.
  const auto time = server.command({"TIME"});
  const auto now_ms = std::stoll(time.substr(0, time.find('\n'))) * 1000 +
                      std::stoll(time.substr(time.find('\n') + 1)) / 1000;
  server.command({"ZADD", kWriters, std::to_string(now_ms + 1000), "dead:1:write"});
  EXPECT_TRUE(read.async_try_lock(redisson::OwnerId(4), 20s, std::nullopt, asio::use_future).get());
  EXPECT_EQ(server.command({"ZCARD", kWriters}), "0");
}

}  // namespace sync_read_write_lock_test
