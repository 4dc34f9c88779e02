// Config::from_yaml_string / from_yaml: Redisson's redisson.yml keys, bad values with their YAML
// path, unknown keys listed, ignored keys reported. No server needed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "redisson/config.hpp"
#include "redisson/error.hpp"

namespace unit_config_yaml_config_test {

using namespace std::chrono_literals;
using redisson::Config;
using redisson::errc;
using redisson::ReadMode;
using redisson::ShardedSubscriptionMode;

namespace {

// The error message from_yaml_string throws for `text`, or "" when it parses.
std::string error_for(const std::string& text, errc expected = errc::invalid_argument) {
  try {
    Config::from_yaml_string(text);
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), expected) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "parsed without error:\n" << text;
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(YamlConfig, ReadsASingleServerFileAsRedissonWritesIt) {
  const auto config = Config::from_yaml_string(R"(
singleServerConfig:
  idleConnectionTimeout: 10000
  connectTimeout: 5000
  timeout: 2500
  retryAttempts: 3
  retryInterval: 1200
  password: "pa:ss"
  username: app
  subscriptionsPerConnection: 5
  clientName: billing
  address: "redis://10.0.0.5:6380"
  subscriptionConnectionMinimumIdleSize: 1
  subscriptionConnectionPoolSize: 50
  connectionMinimumIdleSize: 24
  connectionPoolSize: 64
  database: 2
  dnsMonitoringInterval: 5000
  subscriptionTimeout: 6000
threads: 16
nettyThreads: 32
codec: !<org.redisson.codec.Kryo5Codec> {}
transportMode: "NIO"
lockWatchdogTimeout: 20000
reliableTopicWatchdogTimeout: 90000
checkLockSyncedSlaves: true
slavesSyncTimeout: 700
)");
  EXPECT_EQ(config.server.host, "10.0.0.5");
  EXPECT_EQ(config.server.port, 6380);
  EXPECT_EQ(config.server.username, "app");
  EXPECT_EQ(config.server.password, "pa:ss");
  EXPECT_EQ(config.server.database, 2);
  EXPECT_FALSE(config.server.tls);
  EXPECT_EQ(config.client_name, "billing");
  EXPECT_EQ(config.connect_timeout, 5000ms);
  EXPECT_EQ(config.command_timeout, 2500ms);
  EXPECT_EQ(config.retry_attempts, 3);
  EXPECT_EQ(config.retry_interval, 1200ms);
  EXPECT_EQ(config.subscription_timeout, 6000ms);
  EXPECT_EQ(config.lock_watchdog_timeout, 20000ms);
  EXPECT_EQ(config.reliable_topic_watchdog_timeout, 90000ms);
  EXPECT_TRUE(config.sync_replicas);
  EXPECT_EQ(config.sync_replicas_timeout, 700ms);
  EXPECT_EQ(config.io_threads, 1) << "nettyThreads is ignored";
  EXPECT_EQ(config.listener_threads, 16) << "threads runs the topic listeners";
  ASSERT_TRUE(config.codec);
  EXPECT_EQ(config.codec->name(), "kryo5");
  EXPECT_FALSE(config.cluster || config.sentinel || config.master_slave);
}

TEST(YamlConfig, CleanUpKeysSetTheSweeperInSeconds) {
  const auto config =
      Config::from_yaml_string("minCleanUpDelay: 2\nmaxCleanUpDelay: 60\ncleanUpKeysAmount: 500\n");
  EXPECT_EQ(config.eviction.min_delay, 2000ms);
  EXPECT_EQ(config.eviction.max_delay, 60000ms);
  EXPECT_EQ(config.eviction.keys_limit, 500);
  EXPECT_TRUE(config.eviction.enabled);
  const auto message = error_for("cleanUpKeysAmount: 0\n");
  EXPECT_TRUE(contains(message, "cleanUpKeysAmount")) << message;
}

TEST(YamlConfig, CodecLineSetsTheDefaultCodec) {
  EXPECT_FALSE(Config::from_yaml_string("lockWatchdogTimeout: 1000\n").codec);
  EXPECT_EQ(Config::from_yaml_string("codec: !<org.redisson.client.codec.StringCodec> {}\n")
                .codec->name(),
            "string");
  EXPECT_EQ(Config::from_yaml_string("codec: json\n").codec->name(), "json");
  const auto composite = Config::from_yaml_string(R"(
codec: !<org.redisson.codec.CompositeCodec>
  mapKeyCodec: !<org.redisson.client.codec.StringCodec> {}
  mapValueCodec: !<org.redisson.client.codec.LongCodec> {}
)")
                             .codec;
  ASSERT_TRUE(composite);
  EXPECT_EQ(composite->map_key_codec().name(), "string");
  EXPECT_EQ(composite->map_value_codec().name(), "long");
  try {
    Config::from_yaml_string("codec: !<org.redisson.codec.SnappyCodecV2> {}\n");
    ADD_FAILURE() << "an unknown codec was accepted";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(contains(e.what(), "codec")) << e.what();
    EXPECT_TRUE(contains(e.what(), "SnappyCodecV2")) << e.what();
  }
}

TEST(YamlConfig, NullValuesKeepTheDefaults) {
  const auto config = Config::from_yaml_string(R"(
singleServerConfig:
  address: "redis://127.0.0.1:6379"
  password: null
  clientName: null
  timeout: ~
)");
  EXPECT_TRUE(config.server.password.empty());
  EXPECT_TRUE(config.client_name.empty());
  EXPECT_EQ(config.command_timeout, Config{}.command_timeout);
}

TEST(YamlConfig, ReportsIgnoredKeysWhenAsked) {
  std::vector<std::string> ignored;
  Config::from_yaml_string(R"(
singleServerConfig:
  address: "redis://127.0.0.1:6379"
  connectionPoolSize: 64
codec: !<org.redisson.codec.JsonJacksonCodec> {}
nettyThreads: 32
)",
                           &ignored);
  ASSERT_EQ(ignored.size(), 2u);
  std::string all;
  for (const auto& line : ignored) all += line + "\n";
  EXPECT_TRUE(contains(all, "singleServerConfig.connectionPoolSize: ignored")) << all;
  EXPECT_FALSE(contains(all, "codec")) << "the codec line is read: " << all;
  EXPECT_TRUE(contains(all, "nettyThreads: ignored")) << all;
}

TEST(YamlConfig, TlsKeysMapOntoTlsConfig) {
  const auto config = Config::from_yaml_string(R"(
singleServerConfig:
  address: "rediss://cache.internal:6380"
  sslTruststore: "file:/etc/redis/ca.pem"
  sslKeystore: "file:///etc/redis/client.pem"
  sslEnableEndpointIdentification: false
)");
  EXPECT_TRUE(config.server.tls);
  EXPECT_EQ(config.tls.ca_file, "/etc/redis/ca.pem");
  EXPECT_EQ(config.tls.cert_file, "/etc/redis/client.pem");
  EXPECT_EQ(config.tls.key_file, "/etc/redis/client.pem");
  EXPECT_TRUE(config.tls.verify_peer);
  EXPECT_FALSE(config.tls.verify_hostname);

  const auto none = Config::from_yaml_string(
      "singleServerConfig:\n  address: rediss://h:1\n  sslVerificationMode: NONE\n");
  EXPECT_FALSE(none.tls.verify_peer);
  EXPECT_FALSE(none.tls.verify_hostname);
  EXPECT_TRUE(contains(error_for("singleServerConfig:\n  sslVerificationMode: LAX\n"),
                       "singleServerConfig.sslVerificationMode"));
  EXPECT_TRUE(contains(error_for("singleServerConfig:\n  sslKeystorePassword: pw\n"),
                       "singleServerConfig.sslKeystorePassword"));
}

TEST(YamlConfig, ReadsAClusterSection) {
  const auto config = Config::from_yaml_string(R"(
clusterServersConfig:
  nodeAddresses:
    - "redis://127.0.0.1:7000"
    - "rediss://127.0.0.1:7001"
  scanInterval: 2000
  readMode: MASTER
  shardedSubscriptionMode: OFF
  password: secret
  slaveConnectionPoolSize: 64
  loadBalancer: !<org.redisson.connection.balancer.RoundRobinLoadBalancer> {}
  checkSlotsCoverage: true
)");
  ASSERT_TRUE(config.cluster);
  ASSERT_EQ(config.cluster->node_addresses.size(), 2u);
  EXPECT_EQ(config.cluster->node_addresses[0].port, 7000);
  EXPECT_TRUE(config.cluster->node_addresses[1].tls);
  EXPECT_EQ(config.cluster->node_addresses[1].password, "secret");
  EXPECT_EQ(config.cluster->scan_interval, 2000ms);
  EXPECT_EQ(config.cluster->read_mode, ReadMode::master);
  EXPECT_EQ(config.cluster->sharded_subscription, ShardedSubscriptionMode::off);
  EXPECT_EQ(config.server.password, "secret");
}

TEST(YamlConfig, ReadsASentinelSection) {
  const auto config = Config::from_yaml_string(R"(
sentinelServersConfig:
  masterName: mymaster
  sentinelAddresses: ["redis://127.0.0.1:26379", "redis://127.0.0.1:26380"]
  sentinelUsername: watcher
  sentinelPassword: sentinel-secret
  username: app
  password: app-secret
  database: 3
  scanInterval: 500
  readMode: MASTER_SLAVE
  checkSentinelsList: false
)");
  ASSERT_TRUE(config.sentinel);
  EXPECT_EQ(config.sentinel->master_name, "mymaster");
  ASSERT_EQ(config.sentinel->sentinel_addresses.size(), 2u);
  EXPECT_EQ(config.sentinel->sentinel_addresses[1].port, 26380);
  EXPECT_EQ(config.sentinel->sentinel_username, "watcher");
  EXPECT_EQ(config.sentinel->sentinel_password, "sentinel-secret");
  EXPECT_EQ(config.sentinel->scan_interval, 500ms);
  EXPECT_EQ(config.sentinel->read_mode, ReadMode::master_slave);
  EXPECT_EQ(config.server.username, "app");
  EXPECT_EQ(config.server.password, "app-secret");
  EXPECT_EQ(config.server.database, 3);
}

TEST(YamlConfig, ReadsAMasterSlaveSection) {
  const auto config = Config::from_yaml_string(R"(
masterSlaveServersConfig:
  masterAddress: "redis://127.0.0.1:6379"
  slaveAddresses:
    - "redis://127.0.0.1:6380"
  readMode: SLAVE
  database: 1
)");
  ASSERT_TRUE(config.master_slave);
  EXPECT_EQ(config.master_slave->master.port, 6379);
  ASSERT_EQ(config.master_slave->slave_addresses.size(), 1u);
  EXPECT_EQ(config.master_slave->slave_addresses[0].database, 1);
  EXPECT_EQ(config.master_slave->read_mode, ReadMode::slave);
}

TEST(YamlConfig, UnknownKeysAreListedWithTheirPaths) {
  const auto message = error_for(R"(
singleServerConfig:
  adress: "redis://127.0.0.1:6379"
  timeout: 3000
  retryAttemps: 2
lockWatchdogTimout: 1000
)");
  EXPECT_TRUE(contains(message, "unknown keys")) << message;
  EXPECT_TRUE(contains(message, "singleServerConfig.adress")) << message;
  EXPECT_TRUE(contains(message, "singleServerConfig.retryAttemps")) << message;
  EXPECT_TRUE(contains(message, "lockWatchdogTimout")) << message;
  EXPECT_FALSE(contains(message, "singleServerConfig.timeout")) << message;
}

TEST(YamlConfig, BadValuesNameTheirKey) {
  auto message = error_for("lockWatchdogTimeout: -5\n");
  EXPECT_TRUE(contains(message, "lockWatchdogTimeout")) << message;
  message = error_for("singleServerConfig:\n  timeout: soon\n");
  EXPECT_TRUE(contains(message, "singleServerConfig.timeout")) << message;
  EXPECT_TRUE(contains(message, "soon")) << message;
  message = error_for("singleServerConfig:\n  connectTimeout: 0\n");
  EXPECT_TRUE(contains(message, "singleServerConfig.connectTimeout")) << message;
  message = error_for("singleServerConfig:\n  retryInterval: -1\n");
  EXPECT_TRUE(contains(message, "singleServerConfig.retryInterval")) << message;
  message = error_for("singleServerConfig:\n  address: \"127.0.0.1:6379\"\n");
  EXPECT_TRUE(contains(message, "singleServerConfig.address")) << message;
  message = error_for("singleServerConfig:\n  database: [1, 2]\n");
  EXPECT_TRUE(contains(message, "singleServerConfig.database")) << message;
  message = error_for("checkLockSyncedSlaves: maybe\n");
  EXPECT_TRUE(contains(message, "checkLockSyncedSlaves")) << message;
  message = error_for("clusterServersConfig:\n  nodeAddresses: []\n");
  EXPECT_TRUE(contains(message, "clusterServersConfig.nodeAddresses")) << message;
  message = error_for("clusterServersConfig:\n  nodeAddresses: [\"redis://h:1\", 7]\n");
  EXPECT_TRUE(contains(message, "clusterServersConfig.nodeAddresses[1]")) << message;
  message = error_for("sentinelServersConfig:\n  readMode: ANY\n");
  EXPECT_TRUE(contains(message, "sentinelServersConfig.readMode")) << message;
}

TEST(YamlConfig, TwoServerSectionsAreRefused) {
  const auto message = error_for(R"(
singleServerConfig:
  address: "redis://127.0.0.1:6379"
clusterServersConfig:
  nodeAddresses: ["redis://127.0.0.1:7000"]
)");
  EXPECT_TRUE(contains(message, "singleServerConfig")) << message;
  EXPECT_TRUE(contains(message, "clusterServersConfig")) << message;
  EXPECT_TRUE(contains(message, "only one server section")) << message;
}

TEST(YamlConfig, ReplicatedServersAreNotSupported) {
  const auto message = error_for("replicatedServersConfig:\n  nodeAddresses: [\"redis://h:1\"]\n",
                                 errc::not_supported);
  EXPECT_TRUE(contains(message, "replicatedServersConfig")) << message;
}

TEST(YamlConfig, BrokenYamlAndEmptyDocumentsAreErrors) {
  EXPECT_TRUE(contains(error_for("singleServerConfig: [\n"), "not valid YAML"));
  EXPECT_TRUE(contains(error_for(""), "empty"));
  EXPECT_TRUE(contains(error_for("- a\n- b\n"), "mapping"));
}

TEST(YamlConfig, PasswordsNeverAppearInErrors) {
  const auto message = error_for(R"(
singleServerConfig:
  address: "redis://u:url-secret@127.0.0.1:6379"
  password: key-secret
  timeout: -1
)");
  EXPECT_FALSE(contains(message, "url-secret")) << message;
  EXPECT_FALSE(contains(message, "key-secret")) << message;
}

TEST(YamlConfig, FromYamlReadsAFileAndNamesItInErrors) {
  char path[] = "/tmp/redisson-yaml-test-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::ofstream(path) << "singleServerConfig:\n  address: \"redis://127.0.0.1:6390\"\n";
  EXPECT_EQ(Config::from_yaml(path).server.port, 6390);
  std::ofstream(path) << "singleServerConfig:\n  timeout: -3\n";
  try {
    Config::from_yaml(path);
    ADD_FAILURE() << "parsed a negative timeout";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
    EXPECT_TRUE(contains(e.what(), "singleServerConfig.timeout")) << e.what();
  }
  std::remove(path);
  EXPECT_THROW(Config::from_yaml("/nonexistent/redisson.yml"), redisson::error);
}

}  // namespace unit_config_yaml_config_test
