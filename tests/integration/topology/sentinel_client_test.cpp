// The client on a real Sentinel group (1 master, 1 replica, 3 sentinels): it asks the sentinels
// for the master, locks there, follows SENTINEL FAILOVER, and a waiting locker still wakes.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"

namespace topology_sentinel_client_test {

namespace {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::test::eventually;
using redisson::test::RedisSentinelGroup;
using redisson::test::with_settings;

class SentinelClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { group_ = std::make_unique<RedisSentinelGroup>(); }
  static void TearDownTestSuite() { group_.reset(); }
  void SetUp() override {
    ASSERT_NE(group_, nullptr);
    group_->wait_until_ready();
  }
  static RedisSentinelGroup& group() { return *group_; }

  static Config config() {
    Config config;
    redisson::SentinelConfig sentinel;
    sentinel.master_name = group().master_name();
    for (const auto& url : group().sentinel_urls()) {
      sentinel.sentinel_addresses.push_back(redisson::ServerAddress::from_url(url));
    }
    config.sentinel = sentinel;
    return with_settings(config, {.command_timeout = 3000ms});
  }

 private:
  static inline std::unique_ptr<RedisSentinelGroup> group_;
};

TEST_F(SentinelClient, LocksOnTheMasterTheSentinelsName) {
  Client client(config());
  auto lock = redisson::Lock(client, "sentinel:lock");
  lock.lock();
  EXPECT_EQ(group().command(group().master_port(), {"EXISTS", "sentinel:lock"}), "1");
  lock.unlock();
  EXPECT_EQ(group().command(group().master_port(), {"EXISTS", "sentinel:lock"}), "0");
}

TEST_F(SentinelClient, KeysScanAndCountOnTheMaster) {
  Client client(config());
  redisson::Keys keys(client);
  for (int i = 0; i < 5; ++i) {
    group().command(group().master_port(), {"SET", "sentinel:key:" + std::to_string(i), "v"});
  }
  std::set<std::string> seen;
  for (const auto& key : keys.scan({.pattern = "sentinel:key:*"})) seen.insert(key);
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(keys.count(), std::stoll(group().command(group().master_port(), {"DBSIZE"})));
  EXPECT_EQ(keys.delete_by_pattern("sentinel:key:*"), 5);
}

TEST_F(SentinelClient, AnUnknownMasterNameFailsToStartSayingSo) {
  auto bad = config();
  bad.sentinel->master_name = "no-such-master";
  try {
    Client client(bad);
    FAIL() << "started without a master";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::connect_failed);
    EXPECT_NE(std::string(e.what()).find("no-such-master"), std::string::npos) << e.what();
  }
}

TEST_F(SentinelClient, FollowsAFailoverAndAWaitingLockerStillWakes) {
  Client holder(config());
  Client waiter(config());
  const std::string name = "sentinel:failover";
  const int old_master = group().master_port();
  auto held = redisson::Lock(holder, name);
  held.lock(120s);
  // The replica has the lock before the switch (or the promotion would lose it).
  ASSERT_EQ(group().node(old_master).replicas_with_everything(1, 4000ms), 1);

  std::atomic<bool> acquired{false};
  std::string failure;
  std::thread waiting([&] {
    try {
      auto lock = redisson::Lock(waiter, name);
      acquired = lock.try_lock_for(40s);
      if (acquired) lock.unlock();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  ASSERT_TRUE(eventually([&] {
    return group().command(old_master,
                           {"PUBSUB", "NUMSUB", "redisson_lock__channel:{" + name + "}"}) !=
           "redisson_lock__channel:{" + name + "}\n0";
  }));

  group().failover();
  const int new_master = group().master_port();
  ASSERT_NE(new_master, old_master);

  // The holder's commands now go to the new master; its unlock there wakes the waiter (re-
  // subscribed on the new master) long before the 120 s lease.
  // Until +switch-master (or the next scan) reaches the holder, a write may still meet the
  // demoted master's READONLY; after that, the unlock goes to the new master.
  std::string unlock_error;
  ASSERT_TRUE(eventually(
      [&] {
        try {
          held.unlock();
          return true;
        } catch (const redisson::error& e) {
          unlock_error = e.what();
          return false;
        }
      },
      15s, 100ms))
      << unlock_error;
  waiting.join();
  EXPECT_TRUE(acquired) << failure;
  EXPECT_EQ(group().command(new_master, {"EXISTS", name}), "0");
  holder.execute(Command{"SET", "sentinel:after", "1"});
  EXPECT_EQ(group().command(new_master, {"GET", "sentinel:after"}), "1");
}

// An unlock the promoted replica never got (a failover loses the last writes the old master
// took) is sent again once the client hears of the switch: the lock is free on the new master at
// once, not when its lease ends. The replica is made to miss the unlock by hand: after it was
// replicated, the hold is written back on the replica and the unlock's latch deleted there. An
// unlock the replica did get is sent again too, and its latch keeps it from releasing twice. A
// semaphore release is not sent again (a new master that lost the acquisition too would gain a
// permit nobody took). Nor is an unlock whose owner took the lock again since: on a new master
// that lost the acquisition and the unlock both, it would release the new hold.
TEST_F(SentinelClient, UnlocksTheFailoverLostAreSentAgainOnTheNewMaster) {
  Client client(config());
  const std::string lost = "sentinel:lost-unlock";
  const std::string kept = "sentinel:kept-unlock";
  const std::string retaken = "sentinel:retaken";
  const std::string permits = "sentinel:lost-release";
  const int old_master = group().master_port();
  const int replica = group().replica_port();
  auto retaken_lock = redisson::Lock(client, retaken);
  retaken_lock.lock(120s);
  retaken_lock.unlock();
  retaken_lock.lock(120s);  // after its unlock, and first: its repeat would run before `lost`'s
  // Leases of 120 s: only an unlock sent again can free `lost` within the test.
  auto lost_lock = redisson::Lock(client, lost);
  lost_lock.lock(120s);
  const auto field = group().command(old_master, {"HKEYS", lost});
  lost_lock.unlock();
  auto kept_lock = redisson::Lock(client, kept);
  kept_lock.lock(120s);
  kept_lock.lock(120s);
  kept_lock.unlock();  // one of two holds: the second must survive the repeat
  redisson::Semaphore semaphore(client, permits);
  semaphore.release(1);
  ASSERT_EQ(group().node(old_master).replicas_with_everything(1, 4000ms), 1);
  ASSERT_EQ(group().command(replica, {"EXISTS", lost}), "0");
  ASSERT_EQ(group().command(replica, {"HGET", kept, field}), "1");
  ASSERT_EQ(group().command(replica, {"GET", permits}), "1");

  group().command(replica, {"CONFIG", "SET", "replica-read-only", "no"});
  group().command(replica, {"HSET", lost, field, "1"});
  group().command(replica, {"PEXPIRE", lost, "120000"});
  group().command(replica, {"SET", permits, "0"});  // as if the release was lost
  ASSERT_EQ(group().command(replica, {"HGET", retaken, field}), "1");
  for (const auto& pattern :
       {"redisson_unlock_latch:{" + lost + "}:*", "redisson_release_latch:{" + permits + "}:*",
        "redisson_unlock_latch:{" + retaken + "}:*"}) {  // as if the first hold was lost too
    const auto latch = group().command(replica, {"KEYS", pattern});
    ASSERT_FALSE(latch.empty()) << pattern;
    group().command(replica, {"DEL", latch});
  }
  ASSERT_EQ(group().command(replica, {"EXISTS", lost}), "1");

  group().failover();
  ASSERT_EQ(group().master_port(), replica);
  EXPECT_TRUE(eventually([&] { return group().command(replica, {"EXISTS", lost}) == "0"; }, 10s));
  // Sent again after `lost`'s, on the connection this unlock takes, so run before it: had it
  // released the second hold too, this one would find none.
  EXPECT_EQ(group().command(replica, {"HGET", kept, field}), "1");
  EXPECT_EQ(group().command(replica, {"HGET", retaken, field}), "1");
  std::error_code unlocked;
  kept_lock.unlock(unlocked);
  EXPECT_FALSE(unlocked) << unlocked.message();
  EXPECT_EQ(group().command(replica, {"EXISTS", kept}), "0");
  // The lost release stays lost: by now the unlocks sent again have run, the release was not.
  EXPECT_EQ(group().command(replica, {"GET", permits}), "0");
  group().command(replica, {"CONFIG", "SET", "replica-read-only", "yes"});
}

// A failover may lose an unlock yet keep the hold it released: the owner's hold is back on the
// new master. If the owner locks again before its unlock is sent again there (its attempt can
// reach the new master before the switch reaches the client), the attempt finds that hold.
// Adding one would make it two, the owner's unlock would leave one, and the lock would stay
// taken for its whole lease with nobody renewing it. An attempt after a recent unlock sets the
// owner's count instead. The failover's leftover is written on the master by hand: the client
// cannot tell it from a real one, so no failover is needed.
TEST_F(SentinelClient, AHoldAFailoverKeptAfterItsUnlockIsTakenOverByTheOwnersNextLock) {
  Client client(config());
  const int master = group().master_port();
  auto check = [&](redisson::BasicLock& lock, const std::string& name) {
    lock.lock(120s);
    const auto field = group().command(master, {"HKEYS", name});
    lock.unlock();
    ASSERT_EQ(group().command(master, {"EXISTS", name}), "0") << name;
    group().command(master, {"HSET", name, field, "1"});
    group().command(master, {"PEXPIRE", name, "120000"});
    lock.lock(120s);
    EXPECT_EQ(group().command(master, {"HGET", name, field}), "1") << name;
    lock.unlock();
    EXPECT_EQ(group().command(master, {"EXISTS", name}), "0") << name;
    // Taken twice more: the first attempt drops the kept unlock (and sets the count), the second
    // finds none kept and adds one as usual.
    lock.lock(120s);
    lock.lock(120s);
    EXPECT_EQ(group().command(master, {"HGET", name, field}), "2") << name;
    lock.unlock();
    lock.unlock();
  };
  redisson::Lock lock(client, "sentinel:kept-hold");
  check(lock, "sentinel:kept-hold");
  redisson::FairLock fair(client, "sentinel:kept-fair-hold");
  check(fair, "sentinel:kept-fair-hold");
  redisson::FencedLock fenced(client, "sentinel:kept-fenced-hold");
  check(fenced, "sentinel:kept-fenced-hold");
}

// A failover may keep a fair-lock queue entry the old master had dropped: its owner queued
// before the replica's promotion and took the lock on the old master after it. On the new master
// the entry stands in line for an owner who is not waiting, for a whole wait slot (5 minutes by
// default). The owner's unlock, sent again after the switch, takes it out of the queue there, and
// a waiter behind it gets the lock. The stale entry is written on the replica by hand.
TEST_F(SentinelClient, AFairLockQueueEntryTheFailoverKeptIsTakenOutOnTheNewMaster) {
  const std::string name = "sentinel:stale-fair-entry";
  const std::string queue = "redisson_lock_queue:{" + name + "}";
  const std::string timeouts = "redisson_lock_timeout:{" + name + "}";
  const int old_master = group().master_port();
  const int replica = group().replica_port();
  Client owner(config());
  redisson::FairLock owner_lock(owner, name);
  owner_lock.lock(120s);
  const auto field = group().command(old_master, {"HKEYS", name});
  owner_lock.unlock();
  ASSERT_EQ(group().node(old_master).replicas_with_everything(1, 4000ms), 1);

  group().command(replica, {"CONFIG", "SET", "replica-read-only", "no"});
  group().command(replica, {"RPUSH", queue, field});
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  group().command(replica, {"ZADD", timeouts, std::to_string(now_ms + 300000), field});
  group().command(replica, {"CONFIG", "SET", "replica-read-only", "yes"});

  group().failover();
  ASSERT_EQ(group().master_port(), replica);
  // Behind the stale entry, or after it left: either way well within the entry's 5 minutes.
  Client waiter(config());
  redisson::FairLock waiter_lock(waiter, name);
  ASSERT_TRUE(waiter_lock.try_lock_for(30s, 10s));
  EXPECT_TRUE(eventually([&] { return group().command(replica, {"LLEN", queue}) == "0"; }, 10s));
  EXPECT_EQ(group().command(replica, {"ZSCORE", timeouts, field}), "(nil)");
  waiter_lock.unlock();
}

}  // namespace

namespace {

// A failover's new master has no replica until the sentinels turn the old master into one, some
// seconds later (and with sync_replicas the client's first count of its replicas finds none).
// Written to unchecked meanwhile, it would lose those writes to a second failover back to the old
// master. So its lock writes are WAITed on, and fail with not_replicated, until it has a replica.
TEST_F(SentinelClient, WithSyncReplicasAFreshlyPromotedMasterIsCheckedUntilItHasAReplica) {
  auto settings = config();
  settings.sync_replicas = true;  // sync_replicas_timeout 1 s: a loaded machine's replica is slow
  Client client(settings);
  auto lock = redisson::Lock(client, "sentinel:promoted");
  // Acknowledged by the replica (retried: SetUp's replica may still be catching up).
  const auto lock_acknowledged = [&] {
    try {
      lock.lock();
      lock.unlock();
      return true;
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), redisson::errc::not_replicated) << e.what();
      return false;
    }
  };
  ASSERT_TRUE(eventually(lock_acknowledged, 10s, 100ms));

  group().failover();
  const int promoted = group().master_port();
  const auto has_replica = [&] {
    return group().command(promoted, {"INFO", "replication"}).find("connected_slaves:0") ==
           std::string::npos;
  };
  // The client has heard of the switch once its writes land on the new master.
  ASSERT_TRUE(eventually([&] {
    try {
      client.execute(Command{"SET", "sentinel:promoted:seen", "1"});
    } catch (const redisson::error&) {
      return false;
    }
    return group().command(promoted, {"GET", "sentinel:promoted:seen"}) == "1";
  }));
  std::error_code failure;
  try {
    lock.lock();
    lock.unlock();
  } catch (const redisson::error& e) {
    failure = e.code();
  }
  if (failure) {
    EXPECT_EQ(failure, redisson::errc::not_replicated) << failure.message();
    EXPECT_EQ(group().command(promoted, {"EXISTS", "sentinel:promoted"}), "0");
  } else {
    EXPECT_TRUE(has_replica()) << "locked unchecked on a new master without a replica";
  }

  group().wait_until_ready();  // the old master is the new one's replica
  ASSERT_TRUE(has_replica());
  EXPECT_TRUE(eventually(lock_acknowledged, 10s, 100ms));
}

TEST_F(SentinelClient, AWaitingTakeFollowsAFailoverAndGetsWhatIsOfferedAfter) {
  Client consumer(config());
  Client producer(config());
  const std::string name = "sentinel:queue";
  const int old_master = group().master_port();
  redisson::BlockingQueue<std::string> queue(consumer, name, redisson::codecs::string());
  auto taken = queue.async_take(asio::use_future);
  ASSERT_TRUE(eventually([&] {
    const auto info = group().command(old_master, {"INFO", "clients"});
    return info.find("blocked_clients:1") != std::string::npos;
  }));

  group().failover();
  const int new_master = group().master_port();
  ASSERT_NE(new_master, old_master);

  // The take is sent again to the new master once the switch reaches the consumer; the
  // producer's offer (retried past READONLY until the switch reaches it) is taken there.
  redisson::BlockingQueue<std::string> out(producer, name, redisson::codecs::string());
  std::string offer_error;
  ASSERT_TRUE(eventually(
      [&] {
        try {
          out.offer("after-failover");
          return true;
        } catch (const redisson::error& e) {
          offer_error = e.what();
          return false;
        }
      },
      15s, 100ms))
      << offer_error;
  // Sooner than the take's slice (BlockingPool::kSlice, 10 s) would end on the demoted master,
  // which keeps its blocked clients: the re-route moved it.
  ASSERT_EQ(taken.wait_for(8s), std::future_status::ready);
  EXPECT_EQ(taken.get(), "after-failover");
  EXPECT_EQ(group().command(new_master, {"EXISTS", name}), "0");
}

// A topic's listener follows the failover to the new master; its status listener hears the
// subscription break and come back there, and what is published after reaches it.
TEST_F(SentinelClient, ATopicListenerFollowsAFailoverAndItsStatusListenerIsTold) {
  // Declared before the client, so the client (and its listener threads) ends first.
  std::mutex mutex;
  std::vector<std::string> received;
  std::vector<redisson::TopicStatus> statuses;
  Client subscriber(config());
  Client publisher(config());
  const std::string name = "sentinel:topic";
  redisson::Topic<std::string> topic(subscriber, name, redisson::codecs::string());
  topic.add_listener([&](std::string_view, const std::string& message) {
    std::lock_guard lock(mutex);
    received.push_back(message);
  });
  topic.add_status_listener([&](redisson::TopicStatus status, std::string_view) {
    std::lock_guard lock(mutex);
    statuses.push_back(status);
  });
  const int old_master = group().master_port();
  EXPECT_EQ(group().command(old_master, {"PUBSUB", "NUMSUB", name}), name + "\n1");

  group().failover();
  const int new_master = group().master_port();
  ASSERT_NE(new_master, old_master);
  ASSERT_TRUE(eventually(
      [&] {
        return group().command(new_master, {"PUBSUB", "NUMSUB", name}) == name + "\n1";
      },
      15s, 50ms))
      << "the subscription moved to the new master";
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !statuses.empty() && statuses.back() == redisson::TopicStatus::resubscribed;
  }));
  redisson::Topic<std::string> out(publisher, name, redisson::codecs::string());
  ASSERT_TRUE(eventually(
      [&] {
        try {
          return out.publish("after-failover") == 1;
        } catch (const redisson::error&) {
          return false;  // the publisher has not seen the switch yet
        }
      },
      15s, 100ms));
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !received.empty() && received.back() == "after-failover";
  }));
  std::lock_guard lock(mutex);
  EXPECT_EQ(statuses.front(), redisson::TopicStatus::subscribed);
}

// A reliable topic's subscriber follows a failover: what was published before it is delivered
// once, what is published after (on the new master) too, in order, nothing lost or repeated.
TEST_F(SentinelClient, AReliableTopicLosesAndRepeatsNothingAcrossAFailover) {
  std::mutex mutex;  // declared before the clients: their listener threads end first
  std::vector<std::int64_t> received;
  Client subscriber(config());
  Client publisher(config());
  const std::string name = "sentinel:reliable";
  redisson::ReliableTopic<std::int64_t>(subscriber, name, redisson::codecs::kryo5())
      .add_listener([&](std::string_view, std::int64_t n) {
        std::lock_guard lock(mutex);
        received.push_back(n);
      });
  redisson::ReliableTopic<std::int64_t> out(publisher, name, redisson::codecs::kryo5());
  auto count = [&] {
    std::lock_guard lock(mutex);
    return received.size();
  };
  for (std::int64_t i = 0; i < 50; ++i) EXPECT_EQ(out.publish(i), 1);
  ASSERT_TRUE(eventually([&] { return count() == 50; }));
  // Delivered, acknowledged and trimmed on the master, and replicated, before the switch.
  const int old_master = group().master_port();
  const int replica = group().replica_port();
  // (A replica does not keep a group's entries-read: compared up to it.)
  auto group_state = [&](int port) {
    const auto groups = group().command(port, {"XINFO", "GROUPS", name});
    return groups.substr(0, groups.find("entries-read"));
  };
  ASSERT_TRUE(eventually([&] {
    return group().command(old_master, {"XLEN", name}) == "0" &&
           group().command(replica, {"XLEN", name}) == "0" &&
           group_state(replica) == group_state(old_master);
  })) << group_state(old_master)
      << "\n"
      << group_state(replica);

  group().failover();
  ASSERT_NE(group().master_port(), old_master);
  // The first publish that the new master takes (READONLY refusals before the switch reaches
  // the publisher were not applied), then the rest there.
  ASSERT_TRUE(eventually(
      [&] {
        try {
          return out.publish(50) == 1;
        } catch (const redisson::error&) {
          return false;
        }
      },
      15s, 100ms));
  for (std::int64_t i = 51; i < 100; ++i) EXPECT_EQ(out.publish(i), 1);
  ASSERT_TRUE(eventually([&] { return count() >= 100; }, 20s)) << count();
  std::lock_guard lock(mutex);
  ASSERT_EQ(received.size(), 100u);
  for (std::int64_t i = 0; i < 100; ++i) ASSERT_EQ(received[static_cast<std::size_t>(i)], i);
}

}  // namespace

}  // namespace topology_sentinel_client_test
