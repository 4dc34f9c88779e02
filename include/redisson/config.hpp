// Client configuration: plain structs with Redisson's defaults.
//
// A Config describes one of four deployments, as Redisson's redisson.yml does: a single server
// (`server`, the default), a Redis Cluster (`cluster`), a Sentinel-managed master/replica set
// (`sentinel`) or a fixed master with replicas (`master_slave`). At most one of the optional
// topology sections may be set; when none is, `server` is used.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/error.hpp"

namespace redisson {

/// Where one Redis server is, and how to log in to it.
struct ServerAddress {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string username;  ///< ACL user; empty means "default"
  std::string password;  ///< empty means no AUTH
  int database = 0;
  bool tls = false;  ///< rediss://

  /// Parses `redis://[user:pass@]host:port[/db]` or `rediss://...`. Throws redisson::error
  /// (invalid_argument) on anything else.
  static ServerAddress from_url(std::string_view url);
  /// The URL without the password (safe to log).
  std::string to_safe_url() const;
};

/// TLS settings for rediss:// servers. Files are PEM. Verification is on by default.
struct TlsConfig {
  std::string ca_file;          ///< trusted CAs (Redisson sslTruststore); empty: the system's
  std::string cert_file;        ///< client certificate chain (Redisson sslKeystore), optional
  std::string key_file;         ///< the client certificate's private key, optional
  std::string server_name;      ///< SNI and the name to verify; empty: the address's host
  bool verify_peer = true;      ///< check the server's certificate chain
  bool verify_hostname = true;  ///< Redisson sslEnableEndpointIdentification
};

/// Where reads may go on a deployment with replicas (Redisson readMode).
enum class ReadMode { master, slave, master_slave };

/// Whether lock channels use sharded pub/sub on a cluster (Redisson shardedSubscriptionMode).
enum class ShardedSubscriptionMode { automatic, on, off };

/// A Redis Cluster (Redisson clusterServersConfig). Any reachable node is enough to start.
struct ClusterConfig {
  std::vector<ServerAddress> node_addresses;      ///< Redisson nodeAddresses
  std::chrono::milliseconds scan_interval{5000};  ///< slot map refresh (scanInterval)
  ReadMode read_mode = ReadMode::slave;           ///< Redisson's default for cluster
  ShardedSubscriptionMode sharded_subscription = ShardedSubscriptionMode::automatic;
};

/// A Sentinel-managed master/replica set (Redisson sentinelServersConfig).
struct SentinelConfig {
  std::string master_name;                        ///< Redisson masterName
  std::vector<ServerAddress> sentinel_addresses;  ///< Redisson sentinelAddresses
  std::string sentinel_username;                  ///< Redisson sentinelUsername
  std::string sentinel_password;                  ///< Redisson sentinelPassword
  std::chrono::milliseconds scan_interval{1000};  ///< Redisson scanInterval
  ReadMode read_mode = ReadMode::slave;
};

/// A fixed master with replicas (Redisson masterSlaveServersConfig).
struct MasterSlaveConfig {
  ServerAddress master;                        ///< Redisson masterAddress
  std::vector<ServerAddress> slave_addresses;  ///< Redisson slaveAddresses
  ReadMode read_mode = ReadMode::slave;
};

/// Everything a Client needs. Durations and defaults follow Redisson's names and values.
struct Config {
  /// The single server (Redisson singleServerConfig.address), and the login (user, password,
  /// database) used for every node of the other deployments.
  ServerAddress server;
  std::optional<ClusterConfig> cluster;
  std::optional<SentinelConfig> sentinel;
  std::optional<MasterSlaveConfig> master_slave;
  TlsConfig tls;  ///< used for rediss:// addresses

  std::string client_name;  ///< CLIENT SETNAME; empty: "redisson-cpp:<client id>"

  std::chrono::milliseconds connect_timeout{10000};      ///< Redisson connectTimeout
  std::chrono::milliseconds command_timeout{3000};       ///< Redisson timeout
  std::chrono::milliseconds subscription_timeout{7500};  ///< Redisson subscriptionTimeout
  /// How long a lock's channel stays subscribed after its last waiter left: a waiter that comes
  /// back within it (a lock taken in a loop, a contended lock) sends no SUBSCRIBE/UNSUBSCRIBE
  /// and needs no second attempt. Zero: unsubscribe at once, as Redisson does.
  std::chrono::milliseconds subscription_linger{1000};
  /// Connections kept for blocking commands (a BlockingQueue's take/poll, BLMOVE, BZPOPMIN),
  /// over all nodes: each holds one blocking command at a time, beside the shared pipelined
  /// connection. A blocking call that finds them all busy waits for one (until its own wait
  /// ends, or a command timeout for a short wait; then errc::timeout).
  int blocking_connections = 16;
  /// The sweeper that removes expired entries of the expiring collections this client has
  /// handles on (MapCache, SetCache, TimeSeries): one task per object, Redisson's EvictionTask
  /// schedule. Readers never see expired entries either way; the sweeper frees their memory and
  /// sends MapCache's expired events.
  struct Eviction {
    bool enabled = true;  ///< false: leave the sweeping to other clients (e.g. Java's)
    /// The first and shortest delay between two runs (Redisson minCleanUpDelay, seconds there).
    std::chrono::milliseconds min_delay{5000};
    /// The longest delay, reached after runs that found nothing (Redisson maxCleanUpDelay).
    std::chrono::milliseconds max_delay{1800000};
    /// Entries removed per run at most (Redisson cleanUpKeysAmount); runs that keep hitting it
    /// come 4 times as often. At most 5000.
    int keys_limit = 100;
  } eviction;
  int retry_attempts = 4;                                  ///< Redisson retryAttempts
  std::chrono::milliseconds retry_interval{1500};          ///< Redisson retryInterval
  std::chrono::milliseconds reconnect_max_delay{3000};     ///< backoff cap between reconnects
  std::chrono::milliseconds lock_watchdog_timeout{30000};  ///< Redisson lockWatchdogTimeout
  /// What shutdown() (and the Client's destructor) does with the lock holds the watchdog still
  /// renews: true releases each of them fully (every re-entrant hold, publishing the release so
  /// waiters wake), waiting at most command_timeout, failures to error_handler; false only stops
  /// renewing, so they end after lock_watchdog_timeout, as Java Redisson's shutdown does. Holds
  /// with an explicit lease are left to it either way. Not a Redisson YAML key.
  bool release_locks_on_shutdown = true;
  /// How long a fair-lock waiter keeps its queue place without retrying (Redisson's
  /// fairLockWaitTimeout / threadWaitTime).
  std::chrono::milliseconds fair_lock_wait_timeout{300000};

  /// After each state-changing script of a lock, semaphore or latch, WAIT for a replica's
  /// acknowledgement (Redisson checkLockSyncedSlaves, which covers locks only). When replicas
  /// exist and none acknowledged: an acquisition is undone and fails with errc::not_replicated;
  /// an unlock, release, count-down or permit change fails with it too, done on the master only
  /// (docs/cluster-sentinel.md). Watchdog renewals are waited for but not reported. A master
  /// that lost its replicas, or was just promoted, is still waited on for 10 s: with one replica
  /// per master, lock writes fail with not_replicated after a failover until the old master is
  /// linked again as the new one's replica.
  bool sync_replicas = false;
  std::chrono::milliseconds sync_replicas_timeout{1000};  ///< the WAIT timeout

  /// Threads running the client's io_context. Only 1 is supported: one thread serves every
  /// connection of a client, and Client's constructor refuses other values (invalid_argument).
  int io_threads = 1;

  /// Threads running topic listeners (Topic, PatternTopic, ShardedTopic; Redisson's `threads`),
  /// started with the first listener: listener code never runs on the I/O thread, so a slow
  /// listener delays only its own messages. Each listener gets its messages in order, one at a
  /// time. At least 1 (invalid_argument otherwise).
  int listener_threads = 2;

  /// What an object listener (add_listener on an object, a lock or Keys) does about the
  /// server's notify-keyspace-events, which must turn on the letters of the event it hears
  /// (E and its class: g for deleted, x expired, l lists, ...).
  enum class KeyspaceNotifications {
    enable,  ///< add the missing letters on every master (CONFIG SET; nothing is turned off)
    check,   ///< refuse the listener (errc::not_supported, naming the letters) when one is off
    assume,  ///< send nothing (a server whose CONFIG is renamed or forbidden, set up by hand)
  };
  /// Not a Redisson YAML key: Java Redisson documents the letters and leaves them to you.
  KeyspaceNotifications keyspace_notifications = KeyspaceNotifications::enable;

  /// How long a reliable topic's subscriber stays registered without this client renewing it
  /// (Redisson's reliableTopicWatchdogTimeout): the client renews it every third of this while
  /// it has listeners. A subscriber gone longer (its process died, or could not reach the
  /// server) is removed by the next live subscriber, with what was kept for it. Positive
  /// (invalid_argument otherwise).
  std::chrono::milliseconds reliable_topic_watchdog_timeout{600000};

  /// Where failures go that no caller can be handed: an unlock() (which never throws, so that
  /// lock guards are safe) that failed, a hold the watchdog found gone (errc::lock_lost). It runs
  /// on the thread that found the failure (the unlocking thread, or the client's I/O thread), so
  /// it must be quick and must not block on the client. Empty (the default): one line on stderr.
  std::function<void(const error& failure)> error_handler;
  bool resp3 = true;  ///< try HELLO 3 first; falls back to RESP2 when refused

  /// The codec of objects made without one (Redisson's `codec`); null: kryo5, Redisson's default
  /// (which Client::config() then reports).
  CodecPtr codec;

  /// A config for the server at `url` with every other value at its default.
  static Config from_url(std::string_view url);

  /// Reads a Redisson `redisson.yml` file (docs/configuration.md lists the keys). Throws
  /// redisson::error: invalid_argument naming the key's YAML path for a bad value, for two
  /// server sections, or listing every unknown key; not_supported for replicatedServersConfig.
  /// Keys Redisson has but that have no effect here (pool sizes, codec, Netty tuning) are
  /// accepted; `ignored`, when given, receives one line per such key found in the file.
  static Config from_yaml(const std::string& path, std::vector<std::string>* ignored = nullptr);
  /// Same as from_yaml, reading the YAML text itself.
  static Config from_yaml_string(std::string_view text,
                                 std::vector<std::string>* ignored = nullptr);
};

}  // namespace redisson
