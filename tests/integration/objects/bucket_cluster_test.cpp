// Bucket on a Redis Cluster: values on every master, compare_and_set's script routed by its key,
// and rename to a name in another slot (DUMP/RESTORE/DEL, which RENAME cannot do across slots).
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace objects_bucket_cluster_test {

using redisson::Bucket;
using redisson::Client;
using redisson::test::cluster_config_for;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;
namespace codecs = redisson::codecs;
using namespace std::chrono_literals;

namespace {

TEST(BucketCluster, WorksOnEveryMasterAndRenamesAcrossSlots) {
  RedisClusterOptions options;
  options.replicas_per_master = 0;
  RedisCluster cluster(options);
  Client client(cluster_config_for(cluster));

  std::set<int> masters;
  for (int i = 0; i < 12; ++i) {
    const auto name = "bucket:" + std::to_string(i);
    Bucket<std::string> bucket(client, name, codecs::string());
    bucket.set("v" + std::to_string(i), 1h);
    EXPECT_TRUE(bucket.compare_and_set("v" + std::to_string(i), "w"));
    EXPECT_EQ(bucket.get(), "w");
    masters.insert(cluster.master_of_slot(redisson::detail::key_slot(name)));
  }
  EXPECT_EQ(masters.size(), 3u) << "twelve names land on every master";

  Bucket<std::string> moving(client, "bucket:0", codecs::string());
  EXPECT_TRUE(moving.expire(1h));  // compare_and_set's SET cleared the first one, as in Redisson
  const int source_master = cluster.master_of_slot(redisson::detail::key_slot("bucket:0"));
  std::string target;
  for (int i = 0; target.empty(); ++i) {
    const auto candidate = "elsewhere:" + std::to_string(i);
    if (cluster.master_of_slot(redisson::detail::key_slot(candidate)) != source_master) {
      target = candidate;
    }
  }
  moving.rename(target);
  EXPECT_EQ(moving.get(), "w");
  EXPECT_GT(moving.remaining_time_to_live(), 59min) << "the time to live moves with the value";
  EXPECT_FALSE(Bucket<std::string>(client, "bucket:0", codecs::string()).exists());
}

}  // namespace

}  // namespace objects_bucket_cluster_test
