#include "global_options.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <stdexcept>

#include "duration.hpp"
#include "exit_status.hpp"

namespace redisson::cli {

std::string default_url() {
  for (const char* name : {"REDISSON_URL", "REDIS_URL"}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') return value;
  }
  return "redis://127.0.0.1:6379";
}

void add_global_options(CLI::App& app, GlobalOptions& options) {
  app.add_option("--config", options.config_file,
                 "Redisson redisson.yml to read (single server, cluster, sentinel or "
                 "master/slave); --url and --watchdog-timeout override what it says")
      ->type_name("FILE");
  app.add_option("--url", options.url,
                 "Redis server: redis://[user:password@]host[:port][/db] or rediss:// for TLS "
                 "(default: the --config file's server, else $REDISSON_URL, then $REDIS_URL, "
                 "then redis://127.0.0.1:6379)")
      ->type_name("URL");
  app.add_option("--watchdog-timeout", options.watchdog_timeout,
                 "Lease a lock gets without --lease; renewed every third of it (default: 30s)")
      ->type_name("DUR");
}

Config make_config(const GlobalOptions& options) {
  Config config;
  try {
    if (options.config_file) config = Config::from_yaml(*options.config_file);
    if (options.url && (config.cluster || config.sentinel || config.master_slave)) {
      throw ToolError(kExitUsage, "--url names one server, but " + *options.config_file +
                                      " describes a cluster, sentinel or master/slave set");
    }
    if (options.url || !options.config_file) {
      config.server = ServerAddress::from_url(options.url ? *options.url : default_url());
    }
  } catch (const redisson::error& e) {
    throw ToolError(kExitUsage, e.what());
  }
  if (options.watchdog_timeout) {
    try {
      config.lock_watchdog_timeout = parse_duration(*options.watchdog_timeout);
    } catch (const std::invalid_argument& e) {
      throw ToolError(kExitUsage, std::string("--watchdog-timeout: ") + e.what());
    }
    if (config.lock_watchdog_timeout.count() < 3) {
      throw ToolError(kExitUsage, "--watchdog-timeout must be at least 3ms");
    }
  }
  return config;
}

int exit_status_of(const redisson::error& error) {
  const auto code = error.code();
  if (code == errc::invalid_argument) return kExitUsage;
  if (code == errc::codec_error) return kExitDataError;
  if (code == errc::wrong_type || code == errc::server_error || code == errc::not_owner ||
      code == errc::no_permission || code == errc::lock_lost || code == errc::would_deadlock ||
      code == errc::not_initialized) {
    return kExitFailure;
  }
  return kExitUnavailable;  // connect_failed, auth_failed, timeout, connection_lost, ...
}

Client connect(const GlobalOptions& options) {
  auto config = make_config(options);
  try {
    return Client(std::move(config));
  } catch (const redisson::error& e) {
    throw ToolError(e.code() == errc::invalid_argument ? kExitUsage : kExitUnavailable, e.what());
  }
}

}  // namespace redisson::cli
