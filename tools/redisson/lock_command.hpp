// `redisson lock NAME [--wait DUR] [--lease DUR] -- CMD [ARGS...]`: runs CMD while holding a
// Redisson lock, like flock(1) across machines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct LockOptions {
  std::string name;
  std::optional<std::string> wait;   ///< as typed; absent: wait forever
  std::optional<std::string> lease;  ///< as typed; absent: watchdog lease
  std::vector<std::string> command;  ///< CMD and its arguments
};

/// Registers the `lock` subcommand.
CLI::App* add_lock_command(CLI::App& app, LockOptions& options);

/// Acquires, runs CMD, releases; returns the exit status (see the subcommand's --help).
int run_lock(const GlobalOptions& global, const LockOptions& options);

}  // namespace redisson::cli
