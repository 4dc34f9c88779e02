// `redisson inspect NAME [--json]`: what a key is, and who holds it when it is a Redisson lock.
#pragma once

#include <string>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct InspectOptions {
  std::string name;
  bool json = false;
};

/// Registers the `inspect` subcommand.
CLI::App* add_inspect_command(CLI::App& app, InspectOptions& options);

/// Prints the report; returns 0, or 1 when the key does not exist.
int run_inspect(const GlobalOptions& global, const InspectOptions& options);

}  // namespace redisson::cli
