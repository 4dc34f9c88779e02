// `redisson semaphore NAME [--permits N] [--acquire K] [--wait DUR] [--lease DUR] -- CMD`: runs
// CMD while holding K permits of a Redisson semaphore, then releases them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct SemaphoreOptions {
  std::string name;
  std::optional<std::int64_t> permits;  ///< --permits: total when the semaphore is new
  std::int64_t acquire = 1;             ///< --acquire: permits held while CMD runs
  std::optional<std::string> wait;      ///< as typed; absent: wait forever
  std::optional<std::string> lease;     ///< as typed; present: PermitExpirableSemaphore
  std::vector<std::string> command;     ///< CMD and its arguments
};

/// Registers the `semaphore` subcommand.
CLI::App* add_semaphore_command(CLI::App& app, SemaphoreOptions& options);

/// Acquires, runs CMD, releases; returns the exit status (see the subcommand's --help).
int run_semaphore(const GlobalOptions& global, const SemaphoreOptions& options);

}  // namespace redisson::cli
