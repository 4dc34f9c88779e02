// A test suite on one real Redis Cluster of three masters (no replicas), started once for the
// whole suite (~3 s) and checked whole before each test, with a fresh cluster client per test:
// the shape every suite of single-slot and cross-slot operations on a Cluster takes.
//
//   class MapsOnCluster : public redisson::test::ClusterSuite {};
//   TEST_F(MapsOnCluster, ...) { Map<...> map(client(), "m"); ... get_on_master("m") ... }
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace redisson::test {

class ClusterSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RedisClusterOptions options;
    options.replicas_per_master = 0;  // masters are all these suites need
    cluster_ = std::make_unique<RedisCluster>(options);
  }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    cluster_->wait_until_ok();
    client_ = std::make_unique<Client>(config());
  }
  void TearDown() override { client_.reset(); }

  static RedisCluster& cluster() { return *cluster_; }
  Client& client() { return *client_; }

  /// A cluster client seeded with the first node, command timeout 3 s.
  static Config config() {
    Config config;
    ClusterConfig cluster_config;
    cluster_config.node_addresses.push_back(
        ServerAddress::from_url(cluster().url_of(cluster().ports().at(0))));
    config.cluster = cluster_config;
    return with_settings(config, {.command_timeout = std::chrono::milliseconds(3000)});
  }

  /// The port of the master serving `key`'s slot.
  static int master_of(const std::string& key) {
    return cluster().master_of_slot(detail::key_slot(key));
  }
  /// `prefix` + a number, one such name on each master (in no particular order): for tests that
  /// must span every master.
  static std::vector<std::string> one_name_per_master(const std::string& prefix) {
    std::vector<std::string> names;
    std::set<int> masters;
    for (int i = 0; names.size() < cluster().master_ports().size() && i < 10000; ++i) {
      auto name = prefix + std::to_string(i);
      if (masters.insert(master_of(name)).second) names.push_back(std::move(name));
    }
    return names;
  }
  /// The value of `key` read from the master serving it.
  static std::string get_on_master(const std::string& key) {
    return cluster().command(master_of(key), {"GET", key});
  }
  /// INFO commandstats calls of `command`, summed over the masters.
  static long long calls_on_masters(const std::string& command) {
    long long total = 0;
    for (const int master : cluster().master_ports()) {
      const auto stats = cluster().command(master, {"INFO", "commandstats"});
      const auto at = stats.find("cmdstat_" + command + ":calls=");
      if (at != std::string::npos) total += std::stoll(stats.substr(at + command.size() + 15));
    }
    return total;
  }

 private:
  // One suite runs at a time in a process, so the suites deriving from this share the slot.
  static inline std::unique_ptr<RedisCluster> cluster_;
  std::unique_ptr<Client> client_;
};

}  // namespace redisson::test
