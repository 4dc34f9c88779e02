// LocalCachedMap on a Redis Cluster: the topic is sharded there (SSUBSCRIBE / SPUBLISH on the
// master of `{name}:topic`'s slot, which is the map's), as Redisson does, and the write script's
// keys (the hash, the topic, the updates log) share that slot.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/local_cached_map.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_cluster.hpp"

namespace services_local_cached_map_cluster_test {

using redisson::Client;
using redisson::LocalCachedMap;
using redisson::LocalCachedMapOptions;
using redisson::test::cluster_config_for;
using redisson::test::eventually;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;
namespace codecs = redisson::codecs;

namespace {

using Cache = LocalCachedMap<std::string, std::string>;

TEST(LocalCachedMapCluster, CachesStayCoherentOverShardedChannels) {
  RedisClusterOptions options;
  options.replicas_per_master = 0;
  RedisCluster cluster(options);
  Client one(cluster_config_for(cluster));
  Client two(cluster_config_for(cluster));

  LocalCachedMapOptions load;
  load.reconnection = redisson::LocalCacheReconnection::load;
  for (const char* name : {"lcm:a", "lcm:b", "lcm:c", "lcm:d"}) {
    Cache here(one, name, load, codecs::string());
    Cache there(two, name, load, codecs::string());
    here.put_all({{"k", "1"}, {"j", "2"}});
    here.preload_cache();
    there.preload_cache();
    ASSERT_EQ(there.cached_map().size(), 2U) << name;

    here.put("k", "10");
    EXPECT_TRUE(eventually([&] {
      return there.cached_map() == std::map<std::string, std::string>{{"j", "2"}};
    })) << name
        << ": the invalidation crossed the shard's channel";
    EXPECT_EQ(there.get("k"), "10");

    there.clear_local_cache();  // SET + SPUBLISH, then the other instance's answer
    EXPECT_TRUE(here.cached_map().empty()) << name;

    redisson::Map<std::string, std::string> writer(one, name, redisson::NearCaches::update,
                                                   codecs::string());
    there.preload_cache();
    writer.put("j", "20");
    EXPECT_TRUE(eventually([&] { return there.cached_map().at("j") == "20"; })) << name;
    EXPECT_TRUE(here.delete_object());
    EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); })) << name;
  }
}

}  // namespace

}  // namespace services_local_cached_map_cluster_test
