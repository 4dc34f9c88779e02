#include "latch_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "duration.hpp"
#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/client.hpp"
#include "redisson/count_down_latch.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kLatchFooter =
    R"(Synopsis: redisson latch NAME set N
          redisson latch NAME count-down
          redisson latch NAME await [--timeout DUR]

set N        sets the count of a latch that is not set (trySetCount); exit 1 if it already is
count-down   decrements the count; at zero the latch opens (its key is deleted)
await        waits until the latch is open (count 0, or never set)

Exit status:
  0    done; await: the latch is open
  1    set: the latch already had a count
  64   usage error
  69   Redis unreachable
  75   await: still closed after --timeout

Example:
  redisson latch deploy set 3; ...; redisson latch deploy await --timeout 10m)";

}  // namespace

CLI::App* add_latch_command(CLI::App& app, LatchOptions& options) {
  auto* command = app.add_subcommand("latch", "Set, count down or await a distributed latch");
  command->add_option("NAME", options.name, "Latch name (the Redis key)")->required();
  command->add_option("ACTION", options.action, "set, count-down or await")
      ->required()
      ->check(CLI::IsMember({"set", "count-down", "await"}));
  command->add_option("N", options.count, "set: the count")->check(CLI::PositiveNumber);
  command
      ->add_option("--timeout", options.timeout,
                   "await: give up after this long (exit 75). Default: wait forever")
      ->type_name("DUR");
  command->footer(kLatchFooter);
  return command;
}

int run_latch(const GlobalOptions& global, const LatchOptions& options) {
  const auto timeout = duration_option("--timeout", options.timeout);
  if (options.action == "set" && !options.count) {
    throw ToolError(kExitUsage, "latch set needs the count N");
  }
  if (options.action != "set" && options.count) {
    throw ToolError(kExitUsage, "only latch set takes a count");
  }
  if (options.action != "await" && timeout) {
    throw ToolError(kExitUsage, "only latch await takes --timeout");
  }
  make_config(global);  // report usage errors before connecting
  Client client = connect(global);
  CountDownLatch latch(client, options.name);
  if (options.action == "set") {
    if (latch.try_set_count(*options.count)) return kExitOk;
    std::cerr << "redisson: latch " << options.name << " is already set (count " << latch.count()
              << ")\n";
    return kExitFailure;
  }
  if (options.action == "count-down") {
    latch.count_down();
    return kExitOk;
  }
  if (!timeout) {
    latch.await();
    return kExitOk;
  }
  if (latch.await_for(*timeout)) return kExitOk;
  std::cerr << "redisson: latch " << options.name << " still closed after "
            << format_duration(*timeout) << "\n";
  return kExitNotAcquired;
}

}  // namespace redisson::cli
