// `redisson latch NAME set N | count-down | await [--timeout DUR]`: a Redisson CountDownLatch
// from the shell.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct LatchOptions {
  std::string name;
  std::string action;                  ///< set, count-down or await
  std::optional<std::int64_t> count;   ///< set's N
  std::optional<std::string> timeout;  ///< await's --timeout, as typed; absent: forever
};

/// Registers the `latch` subcommand.
CLI::App* add_latch_command(CLI::App& app, LatchOptions& options);

/// Runs the action; returns the exit status (see the subcommand's --help).
int run_latch(const GlobalOptions& global, const LatchOptions& options);

}  // namespace redisson::cli
