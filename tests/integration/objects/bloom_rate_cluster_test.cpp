// BloomFilter and RateLimiter on a real Redis Cluster (3 masters, no replicas): their scripts
// touch several keys, which must share the name's hash slot for every kind of name (plain, with
// a hash tag), and the object operations reach every key on its master.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/bloom_filter.hpp"
#include "redisson/objects/rate_limiter.hpp"
#include "support/client_config.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace objects_bloom_rate_cluster_test {

namespace {

using namespace std::chrono_literals;
using redisson::BloomFilter;
using redisson::Client;
using redisson::Config;
using redisson::RateLimiter;
using redisson::RateType;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;

class BloomRateCluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RedisClusterOptions options;
    options.replicas_per_master = 0;
    cluster_ = std::make_unique<RedisCluster>(options);
  }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    cluster_->wait_until_ok();
  }

  static Config cluster_config() {
    Config config;
    redisson::ClusterConfig cluster;
    cluster.node_addresses.push_back(
        redisson::ServerAddress::from_url(cluster_->url_of(cluster_->ports().front())));
    config.cluster = cluster;
    return redisson::test::with_settings(config, {.command_timeout = 3000ms});
  }

  /// What the key's master says to `args`.
  static std::string on_master(const std::string& key, const std::vector<std::string>& args) {
    return cluster_->command(cluster_->master_of_slot(redisson::detail::key_slot(key)), args);
  }

  static inline std::unique_ptr<RedisCluster> cluster_;
};

TEST_F(BloomRateCluster, EveryOperationWorksForNamesInManySlots) {
  Client client(cluster_config());
  Client other(cluster_config());
  // Names spread over the three masters, and one with a hash tag of its own.
  for (const std::string name : {"alpha", "beta", "gamma", "delta", "{tag}x"}) {
    SCOPED_TRACE(name);
    BloomFilter<std::string> filter(client, "bf-" + name, redisson::codecs::string());
    ASSERT_TRUE(filter.try_init(1000, 0.03));
    EXPECT_EQ(filter.add_all({"a", "b", "c"}), 3);
    EXPECT_TRUE(filter.contains("a"));
    EXPECT_FALSE(filter.contains("zz"));
    EXPECT_EQ(filter.count(), 3);
    EXPECT_EQ(filter.size(), 7298);
    EXPECT_TRUE(filter.expire(1h));
    EXPECT_TRUE(filter.delete_object());
    EXPECT_FALSE(filter.exists());

    RateLimiter limiter(client, "rl-" + name);
    RateLimiter theirs(other, "rl-" + name);
    ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 3, 1h));
    EXPECT_TRUE(limiter.try_acquire(2));
    EXPECT_FALSE(theirs.try_acquire(2));
    EXPECT_TRUE(theirs.try_acquire(1, 1s));
    EXPECT_EQ(limiter.available_permits(), 0);
    const auto value_key =
        name.find('{') == std::string::npos ? "{rl-" + name + "}:value" : "rl-" + name + ":value";
    EXPECT_EQ(on_master(value_key, {"GET", value_key}), "0");
    limiter.set_rate(RateType::per_client, 1, 1h);
    EXPECT_TRUE(limiter.try_acquire());
    EXPECT_TRUE(theirs.try_acquire());  // a budget of its own
    EXPECT_TRUE(limiter.expire(1h));
    EXPECT_TRUE(limiter.delete_object());
    EXPECT_FALSE(limiter.exists());
  }
}

}  // namespace

}  // namespace objects_bloom_rate_cluster_test
