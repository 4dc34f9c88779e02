// The multi-node fixtures themselves (RedisCluster, RedisSentinelGroup, RedisMasters): the
// cluster, sentinel and RedLock tests rely on them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"

namespace redisson::test::support_topology_fixture_test {
namespace {

using namespace std::chrono_literals;

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

std::vector<std::string> lines(const std::string& reply) {
  std::vector<std::string> out;
  std::string::size_type start = 0;
  while (start <= reply.size()) {
    const auto end = reply.find('\n', start);
    out.push_back(reply.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// One shard of CLUSTER SHARDS: its slot count and its nodes' (port, role) pairs.
struct Shard {
  int slots = 0;
  std::vector<std::pair<int, std::string>> nodes;
};

// CLUSTER SHARDS as RedisServer::command() renders it (nested arrays flattened):
//   slots A B [C D ...] nodes id X port P ip I endpoint E role R replication-offset O health H ...
std::vector<Shard> parse_shards(const std::string& reply) {
  const auto flat = lines(reply);
  std::vector<Shard> shards;
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (flat[i] == "slots") {
      shards.emplace_back();
      // A shard without slots renders its empty array as "(empty array)".
      for (++i; i + 1 < flat.size() && flat[i] != "nodes" && flat[i] != "(empty array)"; i += 2) {
        shards.back().slots += std::stoi(flat[i + 1]) - std::stoi(flat[i]) + 1;
      }
      if (flat[i] != "(empty array)") --i;
    } else if (flat[i] == "port" && i + 1 < flat.size() && !shards.empty()) {
      shards.back().nodes.emplace_back(std::stoi(flat[i + 1]), "");
    } else if (flat[i] == "role" && i + 1 < flat.size() && !shards.empty() &&
               !shards.back().nodes.empty()) {
      shards.back().nodes.back().second = flat[i + 1];
    }
  }
  return shards;
}

// One cluster for the tests that leave it as they found it (roles may move between masters and
// replicas; every test asks for them).
class TopologyCluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = std::make_unique<RedisCluster>(); }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    cluster_->wait_until_ok();
  }
  static RedisCluster& cluster() { return *cluster_; }

 private:
  static inline std::unique_ptr<RedisCluster> cluster_;
};

TEST_F(TopologyCluster, StartsThreeMastersWithAReplicaEachServingAllSlots) {
  const auto masters = cluster().master_ports();
  const auto replicas = cluster().replica_ports();
  ASSERT_EQ(masters.size(), 3U);
  ASSERT_EQ(replicas.size(), 3U);
  std::set<int> followed;
  for (const int master : masters) followed.insert(cluster().replica_of(master));
  EXPECT_EQ(followed, std::set<int>(replicas.begin(), replicas.end()));
  for (const auto& node : cluster().nodes()) {
    EXPECT_GT(node.pid, 0);
    EXPECT_EQ(node.id.size(), 40U);
    EXPECT_EQ(cluster().command(node.port, {"CONFIG", "GET", "bind"}), "bind\n127.0.0.1");
    EXPECT_EQ(cluster().url_of(node.port), "redis://127.0.0.1:" + std::to_string(node.port));
    EXPECT_LT(node.port + 10000, 65536);
  }
  EXPECT_EQ(cluster().urls().size(), 6U);

  const auto shards = parse_shards(cluster().command(masters[0], {"CLUSTER", "SHARDS"}));
  ASSERT_EQ(shards.size(), 3U) << cluster().command(masters[0], {"CLUSTER", "SHARDS"});
  int slots = 0;
  for (const auto& shard : shards) {
    slots += shard.slots;
    EXPECT_EQ(shard.nodes.size(), 2U);
    EXPECT_EQ(std::count_if(shard.nodes.begin(), shard.nodes.end(),
                            [](const auto& node) { return node.second == "master"; }),
              1);
  }
  EXPECT_EQ(slots, 16384);
  for (const int slot : {0, 5000, 16383}) {
    EXPECT_NE(std::find(masters.begin(), masters.end(), cluster().master_of_slot(slot)),
              masters.end());
  }
}

TEST_F(TopologyCluster, WrongNodeAnswersMovedAndTheOwnerStoresTheKey) {
  const std::string key = "topology:moved";
  const auto masters = cluster().master_ports();
  const std::string slot = cluster().command(masters[0], {"CLUSTER", "KEYSLOT", key});
  const int owner = cluster().master_of_slot(std::stoi(slot));

  // Follow the redirection by hand: ask every master, expect one OK and MOVED to it elsewhere.
  int stored_on = 0;
  for (const int master : masters) {
    const std::string reply = cluster().command(master, {"SET", key, "value"});
    if (reply == "OK") {
      EXPECT_EQ(stored_on, 0) << "two masters accepted the key";
      stored_on = master;
    } else {
      EXPECT_EQ(reply, "MOVED " + slot + " 127.0.0.1:" + std::to_string(owner));
    }
  }
  EXPECT_EQ(stored_on, owner);
  EXPECT_EQ(cluster().command(owner, {"GET", key}), "value");
  // A replica of another master redirects reads too.
  for (const int master : masters) {
    if (master == owner) continue;
    EXPECT_EQ(cluster().command(cluster().replica_of(master), {"GET", key}),
              "MOVED " + slot + " 127.0.0.1:" + std::to_string(owner));
  }
  cluster().command(owner, {"DEL", key});
}

TEST_F(TopologyCluster, FailoverPromotesTheReplicaAndDemotesTheMaster) {
  const std::string key = "topology:failover";
  const int slot =
      std::stoi(cluster().command(cluster().master_ports()[0], {"CLUSTER", "KEYSLOT", key}));
  const int old_master = cluster().master_of_slot(slot);
  const int replica = cluster().replica_of(old_master);
  ASSERT_EQ(cluster().command(old_master, {"SET", key, "kept"}), "OK");
  // The replica has the write before it takes over.
  ASSERT_EQ(cluster().node(old_master).replicas_with_everything(1, 4000ms, key), 1);

  cluster().failover(replica);

  EXPECT_EQ(lines(cluster().command(replica, {"ROLE"}))[0], "master");
  EXPECT_EQ(cluster().master_of_slot(slot), replica);
  EXPECT_EQ(cluster().replica_of(replica), old_master);
  EXPECT_EQ(cluster().master_ports().size(), 3U);
  EXPECT_EQ(cluster().command(replica, {"GET", key}), "kept");
  EXPECT_EQ(cluster().command(old_master, {"GET", key}),
            "MOVED " + std::to_string(slot) + " 127.0.0.1:" + std::to_string(replica));
  cluster().command(replica, {"DEL", key});
}

TEST_F(TopologyCluster, StoppedMasterIsReplacedAndRejoinsAsReplica) {
  const int master = cluster().master_ports()[0];
  const int replica = cluster().replica_of(master);
  const pid_t pid = cluster().node(master).pid();

  cluster().stop_node(master);
  EXPECT_TRUE(process_gone(pid));
  // The cluster fails the master over by itself once node_timeout has passed.
  cluster().wait_until_ok();
  EXPECT_EQ(lines(cluster().command(replica, {"ROLE"}))[0], "master");
  for (const auto& node : cluster().nodes()) {
    if (node.port != master) continue;
    EXPECT_EQ(node.role, "stopped");
    EXPECT_EQ(node.pid, -1);
  }

  cluster().start_node(master);
  cluster().wait_until_ok();
  EXPECT_EQ(cluster().replica_of(replica), master);
  EXPECT_EQ(cluster().master_ports().size(), 3U);
}

TEST(TopologyClusterLifetime, DestructorStopsEveryNode) {
  RedisClusterOptions options;
  options.replicas_per_master = 0;
  std::vector<pid_t> pids;
  {
    RedisCluster cluster(options);
    EXPECT_EQ(cluster.master_ports().size(), 3U);
    EXPECT_TRUE(cluster.replica_ports().empty());
    for (const auto& node : cluster.nodes()) pids.push_back(node.pid);
  }
  ASSERT_EQ(pids.size(), 3U);
  for (const pid_t pid : pids) EXPECT_TRUE(process_gone(pid)) << pid;
}

TEST(TopologySentinel, SentinelsAgreeOnTheMasterAndKnowTheReplicaAndEachOther) {
  std::vector<pid_t> pids;
  {
    RedisSentinelGroup group;
    EXPECT_EQ(group.master_name(), "mymaster");
    const auto data = group.data_ports();
    ASSERT_EQ(data.size(), 2U);
    const int master = group.master_port();
    EXPECT_EQ(master, data[0]);
    EXPECT_EQ(group.replica_port(), data[1]);
    ASSERT_EQ(group.sentinel_ports().size(), 3U);
    for (const int sentinel : group.sentinel_ports()) {
      EXPECT_EQ(group.command(sentinel, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
                "127.0.0.1\n" + std::to_string(master));
      const auto replicas = group.command(sentinel, {"SENTINEL", "REPLICAS", "mymaster"});
      EXPECT_NE(replicas.find("name\n127.0.0.1:" + std::to_string(data[1])), std::string::npos);
      const auto others = lines(group.command(sentinel, {"SENTINEL", "SENTINELS", "mymaster"}));
      EXPECT_EQ(std::count(others.begin(), others.end(), "runid"), 2);
      // Sentinels have no CONFIG command; they write their settings back to their config file.
      std::ifstream config(group.node(sentinel).dir() + "/redis.conf");
      const std::string text((std::istreambuf_iterator<char>(config)),
                             std::istreambuf_iterator<char>());
      EXPECT_NE(text.find("\nbind 127.0.0.1\n"), std::string::npos) << text;
      pids.push_back(group.node(sentinel).pid());
    }
    EXPECT_EQ(lines(group.command(master, {"ROLE"}))[0], "master");
    const auto replica_role = lines(group.command(data[1], {"ROLE"}));
    ASSERT_GE(replica_role.size(), 4U);
    EXPECT_EQ(replica_role[0], "slave");
    EXPECT_EQ(replica_role[2], std::to_string(master));
    EXPECT_EQ(group.sentinel_urls()[0],
              "redis://127.0.0.1:" + std::to_string(group.sentinel_ports()[0]));
    for (const int port : data) pids.push_back(group.node(port).pid());
  }
  ASSERT_EQ(pids.size(), 5U);
  for (const pid_t pid : pids) EXPECT_TRUE(process_gone(pid)) << pid;
}

TEST(TopologySentinel, FailoverSwitchesTheMasterToTheReplica) {
  RedisSentinelGroup group;
  const int old_master = group.master_port();
  const int replica = group.replica_port();
  ASSERT_EQ(group.command(old_master, {"SET", "topology:sentinel", "kept"}), "OK");
  ASSERT_EQ(group.node(old_master).replicas_with_everything(1, 4000ms), 1);

  group.failover();

  EXPECT_EQ(group.master_port(), replica);
  EXPECT_EQ(group.replica_port(), old_master);
  for (const int sentinel : group.sentinel_ports()) {
    EXPECT_EQ(group.command(sentinel, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}),
              "127.0.0.1\n" + std::to_string(replica));
  }
  EXPECT_EQ(lines(group.command(replica, {"ROLE"}))[0], "master");
  EXPECT_EQ(group.command(replica, {"GET", "topology:sentinel"}), "kept");
}

TEST(TopologyMasters, StartsIndependentMasters) {
  std::vector<pid_t> pids;
  {
    RedisMasters masters;
    ASSERT_EQ(masters.size(), 3U);
    const auto ports = masters.ports();
    EXPECT_EQ(std::set<int>(ports.begin(), ports.end()).size(), 3U);
    EXPECT_EQ(masters.urls()[2], "redis://127.0.0.1:" + std::to_string(ports[2]));
    ASSERT_EQ(masters[0].command({"SET", "topology:masters", "first"}), "OK");
    for (std::size_t i = 0; i < masters.size(); ++i) {
      EXPECT_EQ(lines(masters[i].command({"ROLE"}))[0], "master");
      EXPECT_EQ(lines(masters[i].command({"ROLE"})).size(), 3U) << "no replicas";
      if (i != 0) {
        EXPECT_EQ(masters[i].command({"GET", "topology:masters"}), "(nil)");
      }
      pids.push_back(masters[i].pid());
    }
  }
  for (const pid_t pid : pids) EXPECT_TRUE(process_gone(pid)) << pid;
}

TEST(TopologyPorts, FreeClusterPortLeavesRoomForAFreeBusPort) {
  for (int i = 0; i < 20; ++i) {
    const int port = free_cluster_port();
    EXPECT_GE(port, 1024);
    EXPECT_LE(port + 10000, 65535);
  }
}

}  // namespace
}  // namespace redisson::test::support_topology_fixture_test
