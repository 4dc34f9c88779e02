// Map on a Redis Cluster: every operation (commands, scripts, pipelined HSETs, HSCAN pages) goes
// to the master of the map's slot, whichever master that is.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/map.hpp"
#include "support/client_config.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::Map;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;
using redisson::test::with_settings;
namespace codecs = redisson::codecs;

namespace {

TEST(MapCluster, EveryOperationReachesTheMastersOfItsSlot) {
  RedisClusterOptions options;
  options.replicas_per_master = 0;
  RedisCluster cluster(options);
  Config config;
  redisson::ClusterConfig cluster_config;
  cluster_config.node_addresses.push_back(
      redisson::ServerAddress::from_url(cluster.url_of(cluster.master_ports().front())));
  config.cluster = cluster_config;
  Client client(with_settings(config, {.command_timeout = 3000ms}));

  std::set<int> masters;
  for (int i = 0; i < 12; ++i) {
    const auto name = "map:" + std::to_string(i);
    Map<std::string, std::string> map(client, name, codecs::string());
    std::map<std::string, std::string> entries;
    for (int k = 0; k < 30; ++k) entries["k" + std::to_string(k)] = "v" + std::to_string(k);
    map.put_all(entries);
    EXPECT_EQ(map.put("k0", "w"), "v0");
    EXPECT_EQ(map.remove("k1"), "v1");
    EXPECT_TRUE(map.replace("k2", "v2", "x"));
    EXPECT_EQ(map.get_all({"k0", "k2"}),
              (std::map<std::string, std::string>{{"k0", "w"}, {"k2", "x"}}));
    std::map<std::string, std::string> read;
    auto scan = map.entries(7);
    for (const auto& [key, value] : scan) read[key] = value;
    EXPECT_EQ(read.size(), 29u);
    EXPECT_TRUE(map.contains_value("x"));
    masters.insert(cluster.master_of_slot(redisson::detail::key_slot(name)));
  }
  EXPECT_EQ(masters.size(), 3u) << "twelve names land on every master";
}

}  // namespace
