// ClientSideCaching on a Redis Cluster: the cache tracks reads on one RESP3 connection per master
// (a master's invalidations only cover the keys read through it), so buckets and maps on every
// master are answered from memory, and another client's write on any master reaches the cache.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/services/client_side_caching.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace services_client_side_caching_cluster_test {

using redisson::Bucket;
using redisson::Client;
using redisson::ClientSideCaching;
using redisson::Map;
using redisson::test::cluster_config_for;
using redisson::test::command_calls;
using redisson::test::eventually;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;
namespace codecs = redisson::codecs;

namespace {

// Connections on the node on `port` named <client name>:tracking.
int tracking_connections(const RedisCluster& cluster, int port) {
  std::istringstream list(cluster.command(port, {"CLIENT", "LIST"}));
  int found = 0;
  for (std::string line; std::getline(list, line);) {
    if (line.find(":tracking ") != std::string::npos) ++found;
  }
  return found;
}

TEST(ClientSideCachingCluster, EveryMasterAnswersFromMemoryAndInvalidates) {
  RedisClusterOptions options;
  options.replicas_per_master = 0;
  RedisCluster cluster(options);
  Client client(cluster_config_for(cluster));
  Client writer(cluster_config_for(cluster));
  ClientSideCaching caching(client);

  // One bucket and one map on each master.
  std::map<int, std::string> name_on;
  for (int i = 0; name_on.size() < cluster.master_ports().size() && i < 1000; ++i) {
    const auto name = "csc:" + std::to_string(i);
    name_on.try_emplace(cluster.master_of_slot(redisson::detail::key_slot(name)), name);
  }
  ASSERT_EQ(name_on.size(), cluster.master_ports().size());

  for (const auto& [port, name] : name_on) {
    Bucket<std::string>(writer, name, codecs::string()).set("v1");
    Map<std::string, std::string>(writer, name + ":map", codecs::string()).put("k", "m1");
    auto bucket = caching.get<Bucket<std::string>>(name, codecs::string());
    auto map = caching.get<Map<std::string, std::string>>(name + ":map", codecs::string());

    EXPECT_EQ(bucket.get(), "v1") << name;  // misses: read on this master's tracked connection
    EXPECT_EQ(map.get("k"), "m1") << name;
    const auto gets = command_calls(cluster.node(port), "get");
    const auto hgets = command_calls(cluster.node(port), "hget");
    const auto hits = caching.stats().hits;
    EXPECT_EQ(bucket.get(), "v1") << name;
    EXPECT_EQ(map.get("k"), "m1") << name;
    EXPECT_EQ(command_calls(cluster.node(port), "get"), gets) << name << ": answered from memory";
    EXPECT_EQ(command_calls(cluster.node(port), "hget"), hgets) << name << ": answered from memory";
    EXPECT_EQ(caching.stats().hits, hits + 2);
    EXPECT_EQ(tracking_connections(cluster, port), 1) << "one tracked connection per master";

    // Another client's writes, each on the master of its key: that master tells the cache.
    Bucket<std::string>(writer, name, codecs::string()).set("v2");
    Map<std::string, std::string>(writer, name + ":map", codecs::string()).put("k", "m2");
    EXPECT_TRUE(eventually([&] { return bucket.get() == "v2"; })) << name;
    EXPECT_TRUE(eventually([&] { return map.get("k") == "m2"; })) << name;
  }
  EXPECT_GE(caching.stats().invalidations, static_cast<std::int64_t>(2 * name_on.size()));

  // Every entry is dropped by a write, whichever master holds it.
  std::set<std::string> names;
  for (const auto& [port, name] : name_on) names.insert(name);
  for (const auto& name : names) {
    Bucket<std::string>(writer, name, codecs::string()).set("v3");
  }
  for (const auto& name : names) {
    auto bucket = caching.get<Bucket<std::string>>(name, codecs::string());
    EXPECT_TRUE(eventually([&] { return bucket.get() == "v3"; })) << name;
  }
}

}  // namespace

}  // namespace services_client_side_caching_cluster_test
