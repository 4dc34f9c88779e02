// The client on a real Redis Cluster (3 masters + 3 replicas, one per suite): routing by slot
// from any first node, MOVED and ASK, locks and synchronizers, waking on sharded pub/sub, the
// per-slot watchdog, following a CLUSTER FAILOVER, and (on a cluster of its own) a master that
// crashes.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"
#include "topology/router.hpp"

namespace topology_cluster_client_test {

namespace {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::test::eventually;
using redisson::test::RedisCluster;
using redisson::test::with_settings;

// "cmdstat_evalsha:calls=12,..." -> 12
long long calls_of(const std::string& commandstats, const std::string& command) {
  const auto at = commandstats.find("cmdstat_" + command + ":calls=");
  if (at == std::string::npos) return 0;
  return std::stoll(commandstats.substr(at + command.size() + 15));
}

// The master's INFO commandstats line for `command` as a count of calls.
long long master_calls(const RedisCluster& cluster, int port, const std::string& command) {
  return calls_of(cluster.command(port, {"INFO", "commandstats"}), command);
}

// How many error replies starting with `prefix` (MOVED, CLUSTERDOWN) the node has sent.
int errors_sent(const RedisCluster& cluster, int port, const std::string& prefix) {
  const auto stats = cluster.command(port, {"INFO", "errorstats"});
  const std::string field = "errorstat_" + prefix + ":count=";
  const auto at = stats.find(field);
  return at == std::string::npos ? 0 : std::stoi(stats.substr(at + field.size()));
}

class ClusterClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = std::make_unique<RedisCluster>(); }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    cluster_->wait_until_ok();
  }
  static RedisCluster& cluster() { return *cluster_; }

  static Config config_for(int seed_port, std::chrono::milliseconds watchdog = 30000ms) {
    Config config;
    redisson::ClusterConfig cluster_config;
    cluster_config.node_addresses.push_back(
        redisson::ServerAddress::from_url(cluster().url_of(seed_port)));
    cluster_config.scan_interval = 1000ms;
    config.cluster = cluster_config;
    return with_settings(config, {.command_timeout = 3000ms, .lock_watchdog_timeout = watchdog});
  }

  // config_for() without the periodic slot scan (60 s: none runs during a test), so that only
  // what the client hears (MOVED, a dropped subscription) makes it learn the map again.
  static Config unscanned_config_for(int seed_port) {
    auto config = config_for(seed_port);
    config.cluster->scan_interval = 60s;
    return config;
  }

  static int master_of_key(const std::string& key) {
    return cluster().master_of_slot(redisson::detail::key_slot(key));
  }

  static std::string node_id(int port) { return cluster().command(port, {"CLUSTER", "MYID"}); }

  // A master other than `master`.
  static int another_master(int master) {
    for (const int port : cluster().master_ports()) {
      if (port != master) return port;
    }
    throw std::logic_error("the cluster has one master");
  }

  // Tells every master that `slot` belongs to master `to`, the new owner first (a migration's
  // last steps), and waits until every node agrees that `to` serves it.
  static void assign_slot(int slot, int to) {
    const auto id = node_id(to);
    const auto tell = [&](int master) {
      ASSERT_EQ(cluster().command(master, {"CLUSTER", "SETSLOT", std::to_string(slot), "NODE", id}),
                "OK");
    };
    tell(to);
    for (const int master : cluster().master_ports()) {
      if (master != to) tell(master);
    }
    // A new owner still marked as having seen the old one let go (see relearn_slot_owner()) can
    // lose the slot to a ping sent before the move; that clears its mark, so tell it again.
    std::optional<std::string> why;
    ASSERT_TRUE(eventually(
        [&] {
          if (cluster().master_of_slot_seen_by(to, slot) != to) tell(to);
          why = cluster().unsettled();
          return !why && cluster().master_of_slot(slot) == to;
        },
        30s, 20ms))
        << "slot " << slot << " to " << to << ": " << why.value_or("every node names another");
  }

  // Moves `slot` and its keys from master `from` to master `to`. With `everyone`, every master is
  // told (the new owner first) and the move returns once every node agrees; without, only the old
  // owner is told: it lets go before anyone else hears of the move.
  static void move_slot(int slot, int from, int to, bool everyone) {
    // From an agreed cluster: a new owner that has not heard the latest config epoch yet does not
    // raise its own above it when it takes the slot.
    cluster().wait_until_ok();
    const std::string slot_text = std::to_string(slot);
    ASSERT_EQ(cluster().command(to, {"CLUSTER", "SETSLOT", slot_text, "IMPORTING", node_id(from)}),
              "OK");
    ASSERT_EQ(cluster().command(from, {"CLUSTER", "SETSLOT", slot_text, "MIGRATING", node_id(to)}),
              "OK");
    const auto keys = cluster().command(from, {"CLUSTER", "GETKEYSINSLOT", slot_text, "100"});
    std::vector<std::string> migrate = {"MIGRATE", "127.0.0.1", std::to_string(to), "", "0",
                                        "5000",    "KEYS"};
    std::istringstream lines(keys);
    for (std::string key; std::getline(lines, key);) {
      if (!key.empty()) migrate.push_back(key);
    }
    if (migrate.size() > 7) {
      ASSERT_EQ(cluster().command(from, migrate), "OK");
    }
    if (everyone) {
      assign_slot(slot, to);
    } else {
      ASSERT_EQ(cluster().command(from, {"CLUSTER", "SETSLOT", slot_text, "NODE", node_id(to)}),
                "OK");
    }
  }

  // Makes the node on `port` forget who serves `slot` and learn it again from the owner's own
  // claim. Redis before 7.2.4 (fixed by redis#12564) keeps a node's mark that a slot's owner has
  // stopped claiming it when the node heard of the new owner from a SETSLOT before that owner
  // claimed the slot (as an old owner that lets go first does). Should that node take the slot
  // later, a ping still naming an older owner (one in flight, or a replica's that has not heard
  // of the move) takes the slot back from it whatever the config epochs, and then no node serves
  // it. Relearning the owner from its claim clears the mark.
  static void relearn_slot_owner(int port, int slot) {
    const auto owner = cluster().master_of_slot_seen_by(port, slot);
    ASSERT_TRUE(owner.has_value()) << "node " << port << " names no owner of slot " << slot;
    ASSERT_EQ(cluster().command(port, {"CLUSTER", "DELSLOTS", std::to_string(slot)}), "OK");
    ASSERT_TRUE(eventually([&] { return cluster().master_of_slot_seen_by(port, slot) == owner; }))
        << "node " << port << " did not learn slot " << slot << " again";
  }

 private:
  static inline std::unique_ptr<RedisCluster> cluster_;
};

TEST_F(ClusterClient, ReachesEveryKeyWhicheverNodeItIsFirstGiven) {
  for (const int seed : cluster().ports()) {
    Client client(config_for(seed));
    for (int i = 0; i < 12; ++i) {
      const std::string key = "route:" + std::to_string(seed) + ":" + std::to_string(i);
      client.execute(Command{"SET", key, "v" + std::to_string(i)});
      EXPECT_EQ(cluster().command(master_of_key(key), {"GET", key}), "v" + std::to_string(i));
      EXPECT_EQ(client.execute(Command{"GET", key}).str, "v" + std::to_string(i));
    }
    EXPECT_EQ(client.execute(Command{"PING"}).str, "PONG");
  }
}

TEST_F(ClusterClient, SynchronizersWorkWhicheverNodeTheClientIsFirstGiven) {
  for (const int seed : {cluster().master_ports().at(0), cluster().replica_ports().at(0)}) {
    Client client(config_for(seed));
    const std::string tag = std::to_string(seed);

    auto lock = redisson::Lock(client, "cluster:lock:" + tag);
    lock.lock();
    EXPECT_TRUE(lock.is_held_by_current_thread());
    EXPECT_EQ(cluster().command(master_of_key(lock.name()), {"EXISTS", lock.name()}), "1");
    lock.unlock();
    EXPECT_FALSE(lock.is_locked());

    auto fair = redisson::FairLock(client, "cluster:fair:" + tag);
    ASSERT_TRUE(fair.try_lock());
    fair.unlock();

    redisson::Semaphore semaphore(client, "cluster:semaphore:" + tag);
    ASSERT_TRUE(semaphore.try_set_permits(2));
    EXPECT_TRUE(semaphore.try_acquire(2));
    EXPECT_FALSE(semaphore.try_acquire());
    semaphore.release(1);
    EXPECT_EQ(semaphore.available_permits(), 1);

    redisson::CountDownLatch latch(client, "cluster:latch:" + tag);
    ASSERT_TRUE(latch.try_set_count(1));
    std::thread counter(
        [&client, name = latch.name()] { redisson::CountDownLatch(client, name).count_down(); });
    EXPECT_TRUE(latch.await_for(10s));
    counter.join();
  }
}

TEST_F(ClusterClient, LocksOfManyNamesSpreadOverAllThreeMasters) {
  const auto masters = cluster().master_ports();
  for (const int master : masters) cluster().command(master, {"CONFIG", "RESETSTAT"});
  Client client(config_for(masters.at(0)));
  for (int i = 0; i < 60; ++i) {
    auto lock = redisson::Lock(client, "spread:" + std::to_string(i));
    lock.lock();
    lock.unlock();
  }
  long long total = 0;
  for (const int master : masters) {
    const auto calls = master_calls(cluster(), master, "evalsha");
    std::printf("master %d: %lld EVALSHA calls\n", master, calls);
    EXPECT_GT(calls, 0) << "no lock script ran on master " << master;
    total += calls;
  }
  // One acquire and one unlock per lock, each on its own master only; a master's first
  // EVALSHA of each script is refused (NOSCRIPT) and counted, then sent again as EVAL.
  EXPECT_GE(total, 120);
  EXPECT_LE(total, 120 + 2 * 3);
}

// The hook sync_replicas relies on names the node each send went to by host and port: masters on
// different hosts may share a port (every production cluster on 6379), and a replica count keyed
// by ":port" alone would be shared between them.
TEST_F(ClusterClient, SentHookNamesTheNodeByHostAndPort) {
  Client client(config_for(cluster().master_ports().at(0)));
  const std::string key = "hooked:key";
  std::promise<std::string> sent_to;
  auto node = sent_to.get_future();
  std::promise<std::error_code> replied;
  auto reply = replied.get_future();
  redisson::detail::ClientAccess::core(client)->router().submit(
      Command{"SET", key, "v"}, redisson::detail::Clock::now() + 3s,
      [&replied](std::error_code ec, redisson::Reply) { replied.set_value(ec); },
      [&sent_to, once = std::make_shared<std::once_flag>()](
          const std::shared_ptr<redisson::detail::Connection>&, const std::string& name) {
        std::call_once(*once, [&] { sent_to.set_value(name); });
      });
  EXPECT_FALSE(reply.get());
  EXPECT_EQ(node.get(), "127.0.0.1:" + std::to_string(master_of_key(key)));
}

TEST_F(ClusterClient, FollowsMovedAfterASlotMigratesAndAskDuringTheMigration) {
  const auto masters = cluster().master_ports();
  Client client(config_for(masters.at(0)));
  const std::string key = "migrating:key";
  const int slot = redisson::detail::key_slot(key);
  const int source = master_of_key(key);
  const int target = another_master(source);
  client.execute(Command{"SET", key, "before"});
  const std::string slot_text = std::to_string(slot);

  // Half-way through a migration: the key already moved, the slot not yet -> ASK.
  cluster().command(target, {"CLUSTER", "SETSLOT", slot_text, "IMPORTING", node_id(source)});
  cluster().command(source, {"CLUSTER", "SETSLOT", slot_text, "MIGRATING", node_id(target)});
  ASSERT_EQ(cluster().command(source, {"MIGRATE", "127.0.0.1", std::to_string(target), "", "0",
                                       "5000", "KEYS", key}),
            "OK");
  EXPECT_EQ(client.execute(Command{"GET", key}).str, "before");
  const auto asking_before = master_calls(cluster(), target, "asking");
  EXPECT_EQ(client.execute(Command{"GET", key}).str, "before");
  EXPECT_GT(master_calls(cluster(), target, "asking"), asking_before);

  // The migration completes: the old owner now answers MOVED, which the client follows.
  assign_slot(slot, target);
  client.execute(Command{"SET", key, "after"});
  EXPECT_EQ(cluster().command(target, {"GET", key}), "after");
  auto lock = redisson::Lock(client, "{" + key + "}:lock");  // the same slot
  lock.lock();
  lock.unlock();

  // Put the slot back so the suite's other tests see the cluster as created.
  move_slot(slot, target, source, /*everyone=*/true);
  EXPECT_EQ(client.execute(Command{"GET", key}).str, "after");
}

TEST_F(ClusterClient, WaiterIsWokenByTheUnlockMessage) {
  const auto masters = cluster().master_ports();
  Client holder(config_for(masters.at(0)));
  Client waiter(config_for(masters.at(1)));
  for (const std::string name : {"wake:a", "wake:b", "wake:c"}) {
    auto held = redisson::Lock(holder, name);
    // A 60 s lease: a waiter that only woke at the lease's end would miss its 20 s wait.
    held.lock(60s);
    std::atomic<bool> acquired{false};
    std::thread waiting([&] {
      auto lock = redisson::Lock(waiter, name);
      acquired = lock.try_lock_for(20s);
      if (acquired) lock.unlock();
    });
    // Let the waiter subscribe and queue up behind the holder, then release.
    ASSERT_TRUE(eventually([&] {
      return cluster().command(master_of_key(name), {"PUBSUB", "SHARDNUMSUB",
                                                     "redisson_lock__channel:{" + name + "}"}) !=
             "redisson_lock__channel:{" + name + "}\n0";
    }));
    held.unlock();
    waiting.join();
    EXPECT_TRUE(acquired) << name;
  }
}

TEST_F(ClusterClient, ShardedOffUsesClassicPubSubAndStillWakesWaiters) {
  auto config = config_for(cluster().master_ports().at(0));
  config.cluster->sharded_subscription = redisson::ShardedSubscriptionMode::off;
  Client holder(config);
  Client waiter(config);
  const std::string name = "classic:wake";
  const std::string channel = "redisson_lock__channel:{" + name + "}";
  auto held = redisson::Lock(holder, name);
  held.lock(60s);
  std::atomic<bool> acquired{false};
  std::thread waiting([&] {
    auto lock = redisson::Lock(waiter, name);
    acquired = lock.try_lock_for(20s);
    if (acquired) lock.unlock();
  });
  // SUBSCRIBE (not SSUBSCRIBE) on the master of the channel's slot.
  ASSERT_TRUE(eventually([&] {
    return cluster().command(master_of_key(name), {"PUBSUB", "NUMSUB", channel}) != channel + "\n0";
  }));
  EXPECT_EQ(cluster().command(master_of_key(name), {"PUBSUB", "SHARDNUMSUB", channel}),
            channel + "\n0");
  held.unlock();
  waiting.join();
  EXPECT_TRUE(acquired);
}

TEST_F(ClusterClient, ClientPublishReachesClientSubscribeOnTheChannelsMaster) {
  Client client(config_for(cluster().master_ports().at(0)));
  std::atomic<int> received{0};
  auto subscription =
      client.subscribe("news:{a}", [&](std::string_view payload) { received += payload == "hi"; });
  EXPECT_EQ(client.publish("news:{a}", "hi"), 1);  // SPUBLISH to the shard that SSUBSCRIBEd
  EXPECT_TRUE(eventually([&] { return received.load() == 1; }));
}

TEST_F(ClusterClient, WatchdogRenewsLocksOnEveryMaster) {
  const auto masters = cluster().master_ports();
  Client client(config_for(masters.at(0), /*watchdog=*/1500ms));
  std::vector<redisson::Lock> locks;
  std::set<int> owners;
  for (int i = 0; owners.size() < 3 || locks.size() < 6; ++i) {
    auto lock = redisson::Lock(client, "watched:" + std::to_string(i));
    owners.insert(master_of_key(lock.name()));
    lock.lock();
    locks.push_back(std::move(lock));
  }
  // Four leases long: without renewal every lock would have expired.
  const auto until = std::chrono::steady_clock::now() + 6s;
  while (std::chrono::steady_clock::now() < until) {
    for (auto& lock : locks) {
      ASSERT_EQ(cluster().command(master_of_key(lock.name()), {"EXISTS", lock.name()}), "1")
          << lock.name() << " expired: the watchdog did not renew it";
    }
    std::this_thread::sleep_for(200ms);
  }
  for (auto& lock : locks) {
    EXPECT_FALSE(lock.lost());
    lock.unlock();
  }
}

TEST_F(ClusterClient, LockSurvivesAFailoverOfItsMasterAndAWaiterStillWakes) {
  // No periodic slot scan to fall back on: the waiter's subscription must follow the failover
  // from what the old master says when it drops it.
  Client holder(unscanned_config_for(cluster().master_ports().at(0)));
  Client waiter(unscanned_config_for(cluster().master_ports().at(1)));
  const std::string name = "failover:lock";
  const int old_master = master_of_key(name);
  const int replica = cluster().replica_of(old_master);

  auto held = redisson::Lock(holder, name);
  held.lock(120s);
  // The lock reached the replica before the failover (or the promotion would lose it).
  ASSERT_EQ(cluster().node(old_master).replicas_with_everything(1, 4000ms, name), 1);

  std::atomic<bool> acquired{false};
  std::string failure;
  std::thread waiting([&] {
    try {
      auto lock = redisson::Lock(waiter, name);
      acquired = lock.try_lock_for(30s);
      if (acquired) lock.unlock();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  ASSERT_TRUE(eventually([&] {
    return cluster().command(old_master,
                             {"PUBSUB", "SHARDNUMSUB", "redisson_lock__channel:{" + name + "}"}) !=
           "redisson_lock__channel:{" + name + "}\n0";
  }));

  cluster().failover(replica);
  ASSERT_EQ(master_of_key(name), replica);

  // The holder follows the new master and can still unlock; the waiter, re-subscribed on the
  // new master, wakes on the release long before the 120 s lease.
  EXPECT_TRUE(held.is_held_by_current_thread());
  held.unlock();
  waiting.join();
  EXPECT_TRUE(acquired) << failure;
  EXPECT_EQ(cluster().command(replica, {"EXISTS", name}), "0");  // the new master
}

// A keyevent pattern is subscribed on every master (node-local notifications). When a master
// fails over, the subscription follows the set of masters: it moves to the promoted replica, whose
// keys' events are heard again, and the status listener hears `resubscribed`.
TEST_F(ClusterClient, AKeyspaceTopicFollowsAFailoverOntoThePromotedReplica) {
  for (const int port : cluster().ports()) {
    cluster().command(port, {"CONFIG", "SET", "notify-keyspace-events", "E$"});
  }
  // Before the client: its listeners use them until it is gone.
  std::mutex mutex;
  std::vector<std::string> heard;
  std::atomic<int> resubscribed{0};
  Client client(config_for(cluster().master_ports().at(0)));
  const std::string key = "failover:event";
  const int old_master = master_of_key(key);
  const int replica = cluster().replica_of(old_master);
  redisson::PatternTopic<std::string> events(client, "__keyevent@*__:set",
                                             redisson::codecs::string());
  events.add_listener([&](std::string_view, const std::string& name) {
    std::lock_guard lock(mutex);
    heard.push_back(name);
  });
  events.add_status_listener([&](redisson::TopicStatus status, std::string_view) {
    if (status == redisson::TopicStatus::resubscribed) ++resubscribed;
  });
  const auto heard_count = [&](const std::string& name) {
    std::lock_guard lock(mutex);
    return std::count(heard.begin(), heard.end(), name);
  };
  ASSERT_EQ(cluster().command(old_master, {"PUBSUB", "NUMPAT"}), "1");
  client.execute(Command{"SET", key, "before"});
  ASSERT_TRUE(eventually([&] { return heard_count(key) == 1; }));

  cluster().failover(replica);
  ASSERT_EQ(master_of_key(key), replica);
  EXPECT_TRUE(eventually([&] {
    return cluster().command(replica, {"PUBSUB", "NUMPAT"}) == "1";
  })) << "subscribed on the promoted replica";
  EXPECT_TRUE(eventually([&] { return resubscribed.load() > 0; }));
  client.execute(Command{"SET", key, "after"});
  EXPECT_TRUE(eventually([&] { return heard_count(key) == 2; })) << "an event of the new master";
  EXPECT_TRUE(eventually([&] {
    return cluster().command(old_master, {"PUBSUB", "NUMPAT"}) == "0";
  })) << "the old master, now a replica, is left";
  client.shutdown();
  for (const int port : cluster().ports()) {
    cluster().command(port, {"CONFIG", "SET", "notify-keyspace-events", ""});
  }
}

// While the cluster is down (CLUSTERDOWN: the command did not run) the client keeps retrying
// until the command's deadline. A failover keeps the whole cluster down for node_timeout plus the
// election; the chaos run saw a semaphore release give up after five quick retries, 0.5 s into a
// 1 s CLUSTERDOWN, and the permit was gone for good. Here one master is made to answer
// CLUSTERDOWN (its own view lacks one of its other slots) until it has refused more often than
// those five retries, then healed.
TEST_F(ClusterClient, SemaphoreReleaseWaitsOutClusterDownWithinTheCommandTimeout) {
  Client client(config_for(cluster().master_ports().at(0)));  // command timeout 3 s
  redisson::Semaphore semaphore(client, "clusterdown:semaphore");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  ASSERT_TRUE(semaphore.try_acquire());
  const int slot = redisson::detail::key_slot(semaphore.name());
  const int master = master_of_key(semaphore.name());
  const int other = cluster().master_of_slot(slot + 1) == master ? slot + 1 : slot - 1;
  ASSERT_EQ(cluster().master_of_slot(other), master);
  const auto refusals = [&] { return errors_sent(cluster(), master, "CLUSTERDOWN"); };
  const int refused_before = refusals();

  ASSERT_EQ(cluster().command(master, {"CLUSTER", "DELSLOTS", std::to_string(other)}), "OK");
  ASSERT_TRUE(eventually([&] {
    return cluster().command(master, {"GET", semaphore.name()}).starts_with("CLUSTERDOWN");
  }));
  std::thread heal([&] {
    // More refusals than the first attempt and five retries; bounded, so the test ends either way.
    eventually([&] { return refusals() - refused_before > 8; }, 2000ms, 20ms);
    cluster().command(master, {"CLUSTER", "ADDSLOTS", std::to_string(other)});
  });
  std::string failure;
  try {
    semaphore.release();
  } catch (const redisson::error& e) {
    failure = e.what();
  }
  heal.join();
  EXPECT_EQ(failure, "");
  EXPECT_EQ(semaphore.available_permits(), 1);
  cluster().wait_until_ok();
}

// A master killed outright (no CLUSTER FAILOVER, nobody answers MOVED): a lock call issued right
// after waits in the client until the cluster promotes the replica, then runs there, within its
// command timeout. A cluster of its own: the killed master stays dead.

// A slot migration whose old owner lets go first (CLUSTER SETSLOT ... NODE on the source before
// the target): the source drops the waiter's sharded subscription, names the target as the
// owner, and the target, still importing, refuses the subscription with MOVED back to the
// source. The waiter's subscription follows the refusals until the target takes the slot, then
// the release wakes it. The periodic slot scan is kept out of it (60 s): before, a refused
// subscription stayed silent until the next scan, and the waiter slept through the release.
TEST_F(ClusterClient, AWaiterFollowsASlotWhoseOldOwnerLetsGoBeforeTheNewOneTakesIt) {
  const auto config = unscanned_config_for(cluster().master_ports().at(0));
  Client holder(config);
  Client waiter(config);
  const std::string name = "handover:lock";
  const int slot = redisson::detail::key_slot(name);
  const std::string channel = "redisson_lock__channel:{" + name + "}";
  const int source = master_of_key(name);
  const int target = another_master(source);
  const auto moved_errors = [&](int port) { return errors_sent(cluster(), port, "MOVED"); };

  auto held = redisson::Lock(holder, name);
  held.lock(60s);
  std::atomic<bool> acquired{false};
  std::string failure;
  std::thread waiting([&] {
    try {
      auto lock = redisson::Lock(waiter, name);
      acquired = lock.try_lock_for(20s);
      if (acquired) lock.unlock();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  ASSERT_TRUE(eventually([&] {
    return cluster().command(source, {"PUBSUB", "SHARDNUMSUB", channel}) != channel + "\n0";
  }));

  const int refused_before = moved_errors(target);
  move_slot(slot, source, target, /*everyone=*/false);
  // The target refuses the waiter's subscription while only the source knows it moved.
  EXPECT_TRUE(eventually([&] { return moved_errors(target) > refused_before; }));
  assign_slot(slot, target);
  EXPECT_TRUE(eventually([&] {
    return cluster().command(target, {"PUBSUB", "SHARDNUMSUB", channel}) == channel + "\n1";
  })) << "subscribed on the new owner";
  held.unlock();
  waiting.join();
  EXPECT_TRUE(acquired) << failure;

  // Put the slot back so the suite's other tests see the cluster as created. The source let go
  // first, so it must clear its mark before it takes the slot again.
  relearn_slot_owner(source, slot);
  move_slot(slot, target, source, /*everyone=*/true);
}

// A MOVED reply names the slot's owner now: the slot map is learnt again from that node, which
// knows (another node may not have heard yet, and its map would send the slot back to the old
// owner: commands would be redirected again, and subscriptions would sit on a node that no
// longer hears the slot's messages).
TEST_F(ClusterClient, AMovedRefreshesTheMapFromTheNodeItNames) {
  Client client(unscanned_config_for(cluster().master_ports().at(0)));
  const std::string key = "moved:refresh";
  client.execute(Command{"SET", key, "v"});
  const int slot = redisson::detail::key_slot(key);
  const int source = master_of_key(key);
  const int target = another_master(source);
  const auto refreshes = [&](int port) { return master_calls(cluster(), port, "cluster|shards"); };
  move_slot(slot, source, target, /*everyone=*/true);
  std::map<int, long long> before;
  for (const int port : cluster().ports()) before[port] = refreshes(port);

  EXPECT_EQ(client.execute(Command{"GET", key}).str, "v");  // MOVED from the source
  EXPECT_TRUE(eventually([&] { return refreshes(target) > before[target]; }));
  for (const int port : cluster().ports()) {
    if (port != target) {
      EXPECT_EQ(refreshes(port), before[port]) << "node " << port;
    }
  }

  move_slot(slot, target, source, /*everyone=*/true);
}

// The router's refresh_asking() asks the named node before any other (the node that just dropped
// or refused a subscription knows where its slot went; another may not have heard yet).
TEST_F(ClusterClient, ARefreshAsksTheNamedNodeFirst) {
  Client client(unscanned_config_for(cluster().master_ports().at(0)));
  auto core = redisson::detail::ClientAccess::core(client);
  const auto refreshes = [&](int port) { return master_calls(cluster(), port, "cluster|shards"); };
  for (const int asked : cluster().ports()) {  // replicas too: any node can name the owners
    std::map<int, long long> before;
    for (const int port : cluster().ports()) before[port] = refreshes(port);
    std::promise<void> done;
    core->run_on_io([&] {
      core->router().refresh_asking(redisson::ServerAddress::from_url(cluster().url_of(asked)),
                                    [&done] { done.set_value(); });
    });
    ASSERT_EQ(done.get_future().wait_for(10s), std::future_status::ready);
    for (const int port : cluster().ports()) {
      EXPECT_EQ(refreshes(port) - before[port], port == asked ? 1 : 0)
          << "node " << port << ", asked " << asked;
    }
  }
}

TEST(ClusterCrash, ALockCallForACrashedMasterRunsOnItsPromotedReplica) {
  RedisCluster cluster;  // cluster-node-timeout 2 s: the replica is promoted ~3-4 s after the kill
  const std::string name = "crash:lock";
  const int victim = cluster.master_of_slot(redisson::detail::key_slot(name));
  const int replica = cluster.replica_of(victim);
  int seed = 0;
  for (const int port : cluster.master_ports()) {
    if (port != victim) seed = port;
  }

  Config config;
  redisson::ClusterConfig cluster_config;
  cluster_config.node_addresses.push_back(redisson::ServerAddress::from_url(cluster.url_of(seed)));
  config.cluster = cluster_config;  // scan_interval stays 5 s: the crash is noticed without it
  // A generous command timeout: an election, not the client, sets the pace.
  Client client(with_settings(config, {.command_timeout = 20s}));
  auto lock = redisson::Lock(client, name);
  lock.lock(60s);  // the client has a live connection to the victim
  lock.unlock();

  const pid_t pid = cluster.node(victim).pid();
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  // Dead, but not reaped (WNOWAIT): the fixture reaps its own child when it stops it.
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT), 0);

  // A call written before the client saw the connection drop fails with connection_lost (it may
  // have run on the dead master); one queued afterwards moves to the promoted replica.
  bool acquired = false;
  for (int attempt = 0; attempt < 2 && !acquired; ++attempt) {
    try {
      lock.lock(60s);
      acquired = true;
    } catch (const redisson::error& e) {
      ASSERT_EQ(e.code(), redisson::errc::connection_lost) << e.what();
    }
  }
  ASSERT_TRUE(acquired);
  EXPECT_EQ(cluster.command(replica, {"EXISTS", name}), "1");
  EXPECT_EQ(cluster.command(replica, {"ROLE"}).substr(0, 6), "master");
  lock.unlock();
  EXPECT_EQ(cluster.command(replica, {"EXISTS", name}), "0");
}

}  // namespace

}  // namespace topology_cluster_client_test
