// Client configuration: plain structs with Redisson's defaults.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

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

/// Everything a Client needs. Durations and defaults follow Redisson's names and values.
struct Config {
  ServerAddress server;
  std::string client_name;  ///< CLIENT SETNAME; empty: "redisson-cpp:<client id>"

  std::chrono::milliseconds connect_timeout{10000};        ///< Redisson connectTimeout
  std::chrono::milliseconds command_timeout{3000};         ///< Redisson timeout
  std::chrono::milliseconds subscription_timeout{7500};    ///< Redisson subscriptionTimeout
  int retry_attempts = 4;                                  ///< Redisson retryAttempts
  std::chrono::milliseconds retry_interval{1500};          ///< Redisson retryInterval
  std::chrono::milliseconds reconnect_max_delay{3000};     ///< backoff cap between reconnects
  std::chrono::milliseconds lock_watchdog_timeout{30000};  ///< Redisson lockWatchdogTimeout
  /// How long a fair-lock waiter keeps its queue place without retrying (Redisson's
  /// fairLockWaitTimeout / threadWaitTime).
  std::chrono::milliseconds fair_lock_wait_timeout{300000};

  int io_threads = 1;  ///< threads running the client's io_context
  bool resp3 = true;   ///< try HELLO 3 first; falls back to RESP2 when refused

  /// A config for the server at `url` with every other value at its default.
  static Config from_url(std::string_view url);
};

}  // namespace redisson
