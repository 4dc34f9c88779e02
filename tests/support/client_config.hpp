// Client settings shared by the integration tests: Config's defaults, except for a command
// timeout and a reconnect back-off short enough that a test sees a failure, or the client
// recover, within its own bounds. A test that needs other values says so by name:
//
//   Client client(config_for(server));                        // 2 s commands, 200 ms back-off
//   Client client(config_for(server, 600ms));                 // ... and a 600 ms lock watchdog
//   Client client(client_config(server.url(), {.command_timeout = 1000ms,
//                                              .connect_timeout = 2000ms}));
//   Config config;  config.cluster = ...;  config = with_settings(config, {.command_timeout = 3s});
//   Client client(cluster_config_for(cluster));               // seeded with its first master, 3 s
//
// config_for() takes a RedisServer, so argument-dependent lookup finds it from any test: a test's
// own helper with other settings needs another name.
#pragma once

#include <chrono>
#include <string_view>

#include "redisson/config.hpp"
#include "support/redis_cluster.hpp"
#include "support/redis_server.hpp"

namespace redisson::test {

/// The fields of Config the tests tune; each one is copied into the Config.
struct ClientSettings {
  std::chrono::milliseconds command_timeout{2000};
  std::chrono::milliseconds connect_timeout = Config{}.connect_timeout;
  std::chrono::milliseconds reconnect_max_delay{200};
  std::chrono::milliseconds lock_watchdog_timeout = Config{}.lock_watchdog_timeout;
};

/// `config` with `settings` in it: for a Config a test builds by hand (cluster, sentinel).
inline Config with_settings(Config config, const ClientSettings& settings) {
  config.command_timeout = settings.command_timeout;
  config.connect_timeout = settings.connect_timeout;
  config.reconnect_max_delay = settings.reconnect_max_delay;
  config.lock_watchdog_timeout = settings.lock_watchdog_timeout;
  return config;
}

/// The Config of `url` with `settings` in it.
inline Config client_config(std::string_view url, const ClientSettings& settings = {}) {
  return with_settings(Config::from_url(url), settings);
}

/// The synchronizer tests' client: the default settings with a lock watchdog of `watchdog`.
inline Config config_for(std::string_view url,
                         std::chrono::milliseconds watchdog = Config{}.lock_watchdog_timeout) {
  return client_config(url, {.lock_watchdog_timeout = watchdog});
}

/// A cluster client seeded with `cluster`'s first master, commands timing out after 3 s (a
/// redirection and a refreshed map of the slots fit in it).
inline Config cluster_config_for(const RedisCluster& cluster) {
  Config config;
  ClusterConfig seeds;
  seeds.node_addresses.push_back(
      ServerAddress::from_url(cluster.url_of(cluster.master_ports().front())));
  config.cluster = seeds;
  return with_settings(config, {.command_timeout = std::chrono::milliseconds(3000)});
}

/// config_for(server.url(), watchdog).
inline Config config_for(const RedisServer& server,
                         std::chrono::milliseconds watchdog = Config{}.lock_watchdog_timeout) {
  return config_for(server.url(), watchdog);
}

/// config_for(server) without the sweeper of expiring collections (Config::eviction): expired
/// entries stay until the test removes them.
inline Config unswept_config_for(const RedisServer& server) {
  auto config = config_for(server);
  config.eviction.enabled = false;
  return config;
}

}  // namespace redisson::test
