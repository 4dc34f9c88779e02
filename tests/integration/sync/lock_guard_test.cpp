// Standard lock guards over holds that end before the guard does: the key deleted by someone
// else, the server restarted, the holder paused past its lease. unlock() runs in the guard's
// destructor, so it must never throw: the failure goes to Config::error_handler and lost(), and
// unlock(std::error_code&) tells a caller who must know.
#include <gtest/gtest.h>
#include <sys/types.h>

#include <csignal>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "redisson/redisson.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace sync_lock_guard_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::spawn_child;
using redisson::test::wait_exit;

namespace {

// What the client's error handler was given.
struct Reported {
  std::mutex mutex;
  std::vector<std::error_code> codes;
  std::vector<std::string> messages;

  std::size_t count() {
    std::lock_guard guard(mutex);
    return codes.size();
  }
  std::error_code code(std::size_t i) {
    std::lock_guard guard(mutex);
    return codes.at(i);
  }
};

Config recording(const RedisServer& server, const std::shared_ptr<Reported>& reported) {
  auto config = config_for(server);
  config.error_handler = [reported](const redisson::error& failure) {
    std::lock_guard guard(reported->mutex);
    reported->codes.push_back(failure.code());
    reported->messages.emplace_back(failure.what());
  };
  return config;
}

struct GuardTest : ::testing::Test {
  RedisServer server;
  std::shared_ptr<Reported> reported = std::make_shared<Reported>();
  Client client{recording(server, reported)};

  // Holds `lock` in a std::lock_guard, deletes every key while it is held, and leaves the scope:
  // the process must survive, and the failure must be reported once, as not_owner.
  template <class Lockable>
  void hold_while_keys_are_deleted(Lockable& lock) {
    {
      std::lock_guard guard(lock);
      ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
    }
    ASSERT_EQ(reported->count(), 1u);
    EXPECT_EQ(reported->code(0), errc::not_owner) << reported->messages.at(0);
  }
};

}  // namespace

TEST_F(GuardTest, LockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::Lock lock(client, "guarded");
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
  EXPECT_NE(reported->messages.at(0).find("guarded"), std::string::npos) << reported->messages[0];
}

TEST_F(GuardTest, NonReentrantLockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::Lock lock(client, "guarded", redisson::non_reentrant);
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
}

TEST_F(GuardTest, FairLockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::FairLock lock(client, "guarded");
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
}

TEST_F(GuardTest, NonReentrantFairLockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::FairLock lock(client, "guarded", redisson::non_reentrant);
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
}

TEST_F(GuardTest, FencedLockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::FencedLock lock(client, "guarded");
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
}

TEST_F(GuardTest, SpinLockGuardOverADeletedLockReportsInsteadOfThrowing) {
  redisson::SpinLock lock(client, "guarded");
  hold_while_keys_are_deleted(lock);
  EXPECT_TRUE(lock.lost());
}

TEST_F(GuardTest, ReadAndWriteGuardsOverADeletedLockReportInsteadOfThrowing) {
  redisson::ReadWriteLock rw(client, "guarded");
  auto read = rw.read_lock();
  hold_while_keys_are_deleted(read);
  EXPECT_TRUE(read.lost());

  auto write = rw.write_lock();
  {
    std::lock_guard guard(write);
    ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
  }
  ASSERT_EQ(reported->count(), 2u);
  EXPECT_EQ(reported->code(1), errc::not_owner);
  EXPECT_TRUE(write.lost());

  // The ReadWriteLock itself is the write side.
  {
    std::lock_guard guard(rw);
    ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
  }
  ASSERT_EQ(reported->count(), 3u);
  EXPECT_EQ(reported->code(2), errc::not_owner);
}

TEST_F(GuardTest, SharedLockOverADeletedReadHoldReportsInsteadOfThrowing) {
  redisson::ReadWriteLock rw(client, "guarded");
  auto read = rw.read_lock();
  {
    std::unique_lock guard(read);
    ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
  }
  ASSERT_EQ(reported->count(), 1u);
  EXPECT_EQ(reported->code(0), errc::not_owner);
}

TEST_F(GuardTest, MultiLockGuardOverADeletedMemberReportsInsteadOfThrowing) {
  redisson::MultiLock multi{redisson::Lock(client, "guarded-a"),
                            redisson::Lock(client, "guarded-b")};
  {
    std::lock_guard guard(multi);
    ASSERT_EQ(server.command({"DEL", "guarded-b"}), "1");
  }
  ASSERT_EQ(reported->count(), 1u);
  EXPECT_EQ(reported->code(0), errc::not_owner) << reported->messages.at(0);
  // The member still held was released all the same.
  EXPECT_EQ(server.command({"EXISTS", "guarded-a"}), "0");
}

// RedLock is not Lockable (its lease is explicit), but its unlock() is noexcept all the same.
TEST_F(GuardTest, RedLockUnlockOverDeletedMembersReportsInsteadOfThrowing) {
  redisson::RedLock red{redisson::Lock(client, "red-a"), redisson::Lock(client, "red-b"),
                        redisson::Lock(client, "red-c")};
  red.lock(10s);
  ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
  red.unlock();
  ASSERT_EQ(reported->count(), 1u);
  EXPECT_EQ(reported->code(0), errc::not_owner) << reported->messages.at(0);
}

TEST_F(GuardTest, UnlockWithAnErrorCodeTellsTheCallerAndLeavesTheHandlerOut) {
  redisson::Lock lock(client, "guarded");
  lock.lock();
  ASSERT_EQ(server.command({"DEL", "guarded"}), "1");
  std::error_code ec;
  lock.unlock(ec);
  EXPECT_EQ(ec, errc::not_owner);
  EXPECT_TRUE(lock.lost());
  EXPECT_EQ(reported->count(), 0u);

  // A lock taken again is no longer lost, and its unlock clears the code.
  lock.lock();
  EXPECT_FALSE(lock.lost());
  lock.unlock(ec);
  EXPECT_FALSE(ec);
}

TEST_F(GuardTest, ALockGuardAcrossAServerRestartReportsAndTheLockWorksAfterwards) {
  redisson::Lock lock(client, "guarded");
  {
    std::lock_guard guard(lock);
    server.stop();
    server.start();  // no persistence: the hold is gone
  }
  ASSERT_EQ(reported->count(), 1u);
  EXPECT_TRUE(lock.lost());

  ASSERT_TRUE(lock.try_lock_for(5s));
  EXPECT_FALSE(lock.lost());
  std::error_code ec;
  lock.unlock(ec);
  EXPECT_FALSE(ec) << ec.message();
}

TEST_F(GuardTest, AnErrorHandlerThatThrowsDoesNotTakeTheProcessDown) {
  auto config = config_for(server);
  config.error_handler = [](const redisson::error&) { throw std::runtime_error("handler broke"); };
  Client throwing(config);
  redisson::Lock lock(throwing, "guarded");
  {
    std::lock_guard guard(lock);
    ASSERT_EQ(server.command({"FLUSHDB"}), "OK");
  }
  EXPECT_TRUE(lock.lost());
}

// The guard program of the issue: a holder with the default error handler (one line on stderr)
// is paused past its lease, someone else takes the lock, and the holder leaves its scope. It must
// exit 0 knowing the hold was lost, and must not release the new holder's lock.
REDISSON_TEST_CHILD(paused_guard_holder) {
  Client client(config_for(args.at(0), 600ms));  // a short watchdog lease
  redisson::Lock lock(client, "paused");
  {
    std::lock_guard guard(lock);
    client.execute(redisson::Command{"SET", "paused-holder-ready", "1"});
    if (!eventually([&] { return client.execute({"EXISTS", "paused-go"}).integer == 1; }, 30s)) {
      return 2;
    }
  }
  return lock.lost() ? 0 : 3;
}

TEST(GuardProcess, AHolderPausedPastItsLeaseLeavesItsGuardAndExitsCleanly) {
  RedisServer server;
  const pid_t holder = spawn_child("paused_guard_holder", {server.url()});
  ASSERT_TRUE(eventually(
      [&] {
        return server.command({"EXISTS", "paused-holder-ready"}) == "1";
      },
      15s));
  ASSERT_EQ(::kill(holder, SIGSTOP), 0);
  // Nothing renews the paused holder's lease: it ends, and another owner takes the lock.
  Client client(config_for(server));
  redisson::Lock lock(client, "paused");
  ASSERT_TRUE(lock.try_lock_for(10s));
  ASSERT_EQ(::kill(holder, SIGCONT), 0);
  server.command({"SET", "paused-go", "1"});
  EXPECT_EQ(wait_exit(holder), 0);
  EXPECT_TRUE(lock.is_held_by_current_thread());
  lock.unlock();
}

}  // namespace sync_lock_guard_test
