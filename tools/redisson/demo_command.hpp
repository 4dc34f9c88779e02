// `redisson demo`: shows, with real processes and a real Redis, what a distributed lock is for.
//
// Round 1: N worker processes increment one counter with GET then SET (a read-modify-write race)
// and updates get lost. Round 2: the same with the lock held around each GET + SET: the count is
// exact; the workers also measure lock/unlock throughput and the unlock-to-next-holder handoff.
#pragma once

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct DemoOptions {
  int workers = 4;
  int increments = 200;
};

/// Registers the `demo` subcommand.
CLI::App* add_demo_command(CLI::App& app, DemoOptions& options);

/// Runs both rounds and prints the report; 0 when round 2 counted exactly.
int run_demo(const GlobalOptions& global, const DemoOptions& options);

}  // namespace redisson::cli
