// MultiLock against three independent redis-servers (one client each): all-or-nothing acquire,
// exclusion of other owners of any member, no partial hold left behind after a failed wait,
// standard lock guards, and unlock of every member.
#include "redisson/multi_lock.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"

namespace sync_multi_lock_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::MultiLock;
using redisson::test::config_for;
using redisson::test::RedisMasters;

namespace {

// Three masters, one client per master, and a MultiLock over "x" (master 0), "y" (master 1)
// and "z" (master 2).
struct ThreeMasters {
  RedisMasters masters;
  std::vector<std::unique_ptr<Client>> clients;
  const std::vector<std::string> names{"x", "y", "z"};

  ThreeMasters() {
    for (const auto& url : masters.urls()) {
      clients.push_back(std::make_unique<Client>(config_for(url)));
    }
  }
  MultiLock multi() {
    return MultiLock({redisson::Lock(*clients[0], names[0]), redisson::Lock(*clients[1], names[1]),
                      redisson::Lock(*clients[2], names[2])});
  }
  std::string exists(std::size_t i) { return masters[i].command({"EXISTS", names[i]}); }
  std::string field_of_this_thread(std::size_t i) {
    return redisson::Lock(*clients[i], names[i])
        .owner_field(redisson::OwnerId(redisson::OwnerId::current_thread()));
  }
};

}  // namespace

TEST(MultiLock, AcquiresEveryMemberAndExcludesAnotherOwnerOfAnyMember) {
  ThreeMasters setup;
  auto multi = setup.multi();
  multi.lock();
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(setup.masters[i].command({"HGETALL", setup.names[i]}),
              setup.field_of_this_thread(i) + "\n1");
    EXPECT_GT(std::stoll(setup.masters[i].command({"PTTL", setup.names[i]})), 0);
  }
  std::thread([&] {
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_FALSE(redisson::Lock(*setup.clients[i], setup.names[i]).try_lock()) << setup.names[i];
    }
    // Another MultiLock sharing only one member is excluded too.
    Client other(config_for(setup.masters.urls()[1]));
    MultiLock overlapping({redisson::Lock(other, "unrelated"), redisson::Lock(other, "y")});
    EXPECT_FALSE(overlapping.try_lock_for(100ms));
    EXPECT_EQ(setup.masters[1].command({"EXISTS", "unrelated"}), "0");
  }).join();
  multi.unlock();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

TEST(MultiLock, TryLockForFailsAfterItsWaitAndLeavesNoPartialHold) {
  ThreeMasters setup;
  Client other(config_for(setup.masters.urls()[2]));
  auto foreign = redisson::Lock(other, "z");
  foreign.lock();
  const auto foreign_hold = setup.masters[2].command({"HGETALL", "z"});

  auto multi = setup.multi();
  EXPECT_FALSE(multi.try_lock_for(300ms));
  EXPECT_FALSE(multi.try_lock_for(200ms, 5s));
  EXPECT_FALSE(multi.try_lock());
  EXPECT_FALSE(multi.try_lock_until(std::chrono::steady_clock::now() + 100ms));
  // Nothing of ours anywhere; the foreign hold untouched.
  EXPECT_EQ(setup.masters[0].command({"EXISTS", "x"}), "0");
  EXPECT_EQ(setup.masters[1].command({"EXISTS", "y"}), "0");
  EXPECT_EQ(setup.masters[2].command({"HGETALL", "z"}), foreign_hold);
  foreign.unlock();

  EXPECT_TRUE(multi.try_lock_for(2s, 5s));
  for (std::size_t i = 0; i < 3; ++i) {
    const auto pttl = std::stoll(setup.masters[i].command({"PTTL", setup.names[i]}));
    EXPECT_GT(pttl, 0);
    EXPECT_LE(pttl, 5000);
  }
  multi.unlock();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

TEST(MultiLock, WaitingAcquireSucceedsOnceTheBusyMemberIsReleased) {
  ThreeMasters setup;
  Client other(config_for(setup.masters.urls()[1]));
  auto foreign = redisson::Lock(other, "y");
  foreign.lock();
  auto multi = setup.multi();
  auto acquired = std::async(std::launch::async, [&] {
    const bool ok = multi.try_lock_for(10s);
    if (ok) multi.unlock();
    return ok;
  });
  foreign.unlock();
  EXPECT_TRUE(acquired.get());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

TEST(MultiLock, OppositeMemberOrdersDoNotDeadlock) {
  ThreeMasters setup;
  constexpr int kRounds = 20;
  auto contend = [&](bool reversed) {
    auto forward = std::vector<redisson::Lock>{redisson::Lock(*setup.clients[0], "x"),
                                               redisson::Lock(*setup.clients[1], "y")};
    if (reversed) std::reverse(forward.begin(), forward.end());
    MultiLock multi(std::move(forward));
    int acquired = 0;
    for (int i = 0; i < kRounds; ++i) {
      // Bounded: a deadlock shows up as a failed wait, not a hung test.
      if (!multi.try_lock_for(20s)) break;
      ++acquired;
      multi.unlock();
    }
    return acquired;
  };
  auto first = std::async(std::launch::async, contend, false);
  auto second = std::async(std::launch::async, contend, true);
  EXPECT_EQ(first.get(), kRounds);
  EXPECT_EQ(second.get(), kRounds);
  EXPECT_EQ(setup.exists(0), "0");
  EXPECT_EQ(setup.exists(1), "0");
}

TEST(MultiLock, WorksWithStandardLockGuards) {
  ThreeMasters setup;
  auto multi = setup.multi();
  {
    std::lock_guard guard(multi);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "1");
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
  {
    auto single = redisson::Lock(*setup.clients[0], "w");
    std::scoped_lock both(multi, single);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "1");
    EXPECT_EQ(setup.masters[0].command({"EXISTS", "w"}), "1");
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
  EXPECT_EQ(setup.masters[0].command({"EXISTS", "w"}), "0");
  {
    std::unique_lock guard(multi, std::defer_lock);
    EXPECT_TRUE(guard.try_lock_for(1s));
    EXPECT_EQ(setup.exists(2), "1");
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

TEST(MultiLock, UnlockReleasesEveryMemberAndReportsTheFirstError) {
  ThreeMasters setup;
  auto multi = setup.multi();
  std::error_code nobody;
  multi.unlock(nobody);
  EXPECT_EQ(nobody, errc::not_owner) << "unlock of a MultiLock nobody holds";
  multi.lock(5s);
  // One member lost behind our back: unlock still releases the others, then reports it.
  setup.masters[1].command({"DEL", "y"});
  std::error_code ec;
  multi.unlock(ec);
  EXPECT_EQ(ec, errc::not_owner);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

TEST(MultiLock, RejectsEmptyListAndBadArguments) {
  EXPECT_THROW(MultiLock(std::vector<redisson::Lock>{}), redisson::error);
  ThreeMasters setup;
  auto multi = setup.multi();
  EXPECT_THROW(multi.try_lock_for(-1ms), redisson::error);
  EXPECT_THROW(multi.lock(0ms), redisson::error);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(setup.exists(i), "0");
}

}  // namespace sync_multi_lock_test
