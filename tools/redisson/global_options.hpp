// Options every subcommand shares (--config, --url, --watchdog-timeout) and how they become a
// Client.
#pragma once

#include <optional>
#include <string>

#include "redisson/client.hpp"
#include "redisson/config.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct GlobalOptions {
  std::optional<std::string> url;               ///< --url, as typed
  std::optional<std::string> config_file;       ///< --config: a Redisson redisson.yml
  std::optional<std::string> watchdog_timeout;  ///< --watchdog-timeout, as typed
};

/// The URL used when --url is absent: $REDISSON_URL, then $REDIS_URL, then redis://127.0.0.1:6379.
std::string default_url();

/// Adds --config, --url and --watchdog-timeout to `app` (parsed anywhere on the command line).
void add_global_options(CLI::App& app, GlobalOptions& options);

/// The client configuration the options describe: the --config file (else the defaults), its
/// server replaced by --url when given (without --config: --url, else default_url()), its
/// watchdog timeout by --watchdog-timeout. Throws ToolError(kExitUsage) on a bad URL, file or
/// duration.
Config make_config(const GlobalOptions& options);

/// Connects. Throws ToolError: kExitUsage for a bad URL or duration, kExitUnavailable when the
/// server cannot be reached or refuses us. Messages never contain the password.
Client connect(const GlobalOptions& options);

/// Maps a library error to the tool's exit status (connection trouble: kExitUnavailable).
int exit_status_of(const redisson::error& error);

}  // namespace redisson::cli
