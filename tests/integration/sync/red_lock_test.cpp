// RedLock against three independent redis-servers (one client each): a majority is enough, a
// minority is not and leaves nothing behind, stopped masters cost at most master_timeout, the
// returned validity is within the lease, and a second owner cannot take a majority.
#include "redisson/red_lock.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <thread>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"

namespace sync_red_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::RedLock;
using redisson::test::client_config;
using redisson::test::eventually;
using redisson::test::RedisMasters;

namespace {

constexpr auto kLease = 10000ms;
constexpr const char* kName = "red";

// Small timeouts: some of these servers are stopped while their clients live.
Config config_for(const std::string& url) {
  auto config = client_config(url, {.command_timeout = 400ms, .reconnect_max_delay = 100ms});
  config.retry_attempts = 1;
  config.retry_interval = 50ms;
  return config;
}

struct ThreeMasters {
  RedisMasters masters;
  std::vector<std::unique_ptr<Client>> clients;

  // Clients first: a Client constructor throws when its server is down.
  ThreeMasters() {
    for (const auto& url : masters.urls()) {
      clients.push_back(std::make_unique<Client>(config_for(url)));
    }
  }
  RedLock red_lock(redisson::RedLockOptions options = {}) {
    std::vector<redisson::Lock> locks;
    for (auto& client : clients) locks.push_back(redisson::Lock(*client, kName));
    return RedLock(std::move(locks), options);
  }
  std::string hold_of(std::size_t i) { return masters[i].command({"HGETALL", kName}); }
  std::string field_of_this_thread(std::size_t i) {
    return redisson::Lock(*clients[i], kName)
        .owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  }
};

}  // namespace

TEST(RedLock, SucceedsOnAllThreeMastersWithValidityWithinLease) {
  ThreeMasters setup;
  auto red = setup.red_lock();
  EXPECT_EQ(red.quorum(), 2u);
  const auto validity = red.try_lock_for(2s, kLease);
  ASSERT_TRUE(validity.has_value());
  EXPECT_GT(validity->count(), 0);
  EXPECT_LE(*validity, kLease);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(setup.hold_of(i), setup.field_of_this_thread(i) + "\n1");
    const auto pttl = std::stoll(setup.masters[i].command({"PTTL", kName}));
    EXPECT_GT(pttl, 0);
    EXPECT_LE(pttl, kLease.count());
  }
  red.unlock();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.masters[i].command({"EXISTS", kName}), "0");
}

TEST(RedLock, SucceedsWithOneOfThreeMastersStopped) {
  ThreeMasters setup;
  auto red = setup.red_lock();
  setup.masters[2].stop();
  const auto validity = red.try_lock_for(3s, kLease);
  ASSERT_TRUE(validity.has_value());
  EXPECT_GT(validity->count(), 0);
  EXPECT_LE(*validity, kLease);
  EXPECT_EQ(setup.hold_of(0), setup.field_of_this_thread(0) + "\n1");
  EXPECT_EQ(setup.hold_of(1), setup.field_of_this_thread(1) + "\n1");
  red.unlock();
  EXPECT_EQ(setup.masters[0].command({"EXISTS", kName}), "0");
  EXPECT_EQ(setup.masters[1].command({"EXISTS", kName}), "0");
}

TEST(RedLock, PausedMasterCountsAsFailureWithoutBlockingTheAttempt) {
  ThreeMasters setup;
  auto red = setup.red_lock();
  // A paused master accepts connections and commands but never answers: only master_timeout
  // ends the wait for it.
  setup.masters[0].pause();
  const auto validity = red.try_lock_for(3s, kLease);
  setup.masters[0].resume();
  ASSERT_TRUE(validity.has_value());
  EXPECT_LE(*validity, kLease);
  EXPECT_EQ(setup.hold_of(1), setup.field_of_this_thread(1) + "\n1");
  EXPECT_EQ(setup.hold_of(2), setup.field_of_this_thread(2) + "\n1");
  red.unlock();
  EXPECT_EQ(setup.masters[1].command({"EXISTS", kName}), "0");
  EXPECT_EQ(setup.masters[2].command({"EXISTS", kName}), "0");
}

TEST(RedLock, FailsWithTwoOfThreeMastersStoppedAndLeavesNoHold) {
  ThreeMasters setup;
  auto red = setup.red_lock();
  setup.masters[1].stop();
  setup.masters[2].stop();
  EXPECT_FALSE(red.try_lock(kLease).has_value());
  EXPECT_FALSE(red.try_lock_for(500ms, kLease).has_value());
  // The release on the one live master was sent and answered within the attempt.
  EXPECT_TRUE(eventually([&] { return setup.masters[0].command({"EXISTS", kName}) == "0"; }));
}

TEST(RedLock, MajorityIsEnoughWhenOneMasterIsHeldByAnotherOwner) {
  ThreeMasters setup;
  Client other(config_for(setup.masters.urls()[0]));
  auto foreign = redisson::Lock(other, kName);
  foreign.lock(kLease);
  const auto foreign_hold = setup.hold_of(0);

  auto red = setup.red_lock();
  const auto validity = red.try_lock_for(2s, kLease);
  ASSERT_TRUE(validity.has_value());
  EXPECT_LE(*validity, kLease);
  red.unlock();
  // Releasing where we failed changed nothing there.
  EXPECT_EQ(setup.hold_of(0), foreign_hold);
  EXPECT_EQ(setup.masters[1].command({"EXISTS", kName}), "0");
  EXPECT_EQ(setup.masters[2].command({"EXISTS", kName}), "0");
  foreign.unlock();
}

TEST(RedLock, SecondOwnerCannotTakeMajorityWhileFirstHoldsIt) {
  ThreeMasters setup;
  auto red = setup.red_lock();
  ASSERT_TRUE(red.try_lock_for(2s, kLease).has_value());
  std::vector<std::string> holds;
  for (std::size_t i = 0; i < 3; ++i) holds.push_back(setup.hold_of(i));

  std::optional<std::chrono::milliseconds> second;
  std::error_code second_unlock;
  std::thread([&] {
    second = red.try_lock_for(300ms, kLease);  // the same handles, another thread: another owner
    red.unlock(second_unlock);
  }).join();
  EXPECT_FALSE(second.has_value());
  EXPECT_EQ(second_unlock, errc::not_owner);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.hold_of(i), holds[i]);

  // Another client set (another process, for Redis) is excluded too.
  std::vector<std::unique_ptr<Client>> others;
  std::vector<redisson::Lock> other_locks;
  for (const auto& url : setup.masters.urls()) {
    others.push_back(std::make_unique<Client>(config_for(url)));
    other_locks.push_back(redisson::Lock(*others.back(), kName));
  }
  RedLock other_red(std::move(other_locks));
  EXPECT_FALSE(other_red.try_lock(kLease).has_value());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.hold_of(i), holds[i]);

  red.unlock();
  const auto taken = other_red.try_lock_for(2s, kLease);
  EXPECT_TRUE(taken.has_value());
  if (taken) other_red.unlock();
}

TEST(RedLock, RejectsMissingLeaseAndEmptyList) {
  EXPECT_THROW(RedLock(std::vector<redisson::Lock>{}), redisson::error);
  ThreeMasters setup;
  auto red = setup.red_lock();
  try {
    red.try_lock_for(1s, 0ms);
    FAIL() << "a RedLock without a positive lease was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.masters[i].command({"EXISTS", kName}), "0");
}

}  // namespace sync_red_lock_test
