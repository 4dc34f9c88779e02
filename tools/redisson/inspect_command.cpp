#include "inspect_command.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "exit_status.hpp"
#include "key_report.hpp"

namespace redisson::cli {

CLI::App* add_inspect_command(CLI::App& app, InspectOptions& options) {
  auto* command = app.add_subcommand(
      "inspect", "Show what a key is: a lock's holders and lease, an object's state or value");
  command->add_option("NAME", options.name, "The key")->required();
  command->add_flag("--json", options.json, "Print one JSON object instead of text");
  command->footer(
      "For a Redisson lock (Java's or ours) each holder <client-id>:<owner-id> is listed with its\n"
      "hold count, then the remaining lease.\n"
      "Exit status: 0 the key exists, 1 no such key, 64 usage error, 69 Redis unreachable.\n"
      "A fair lock's queue, read-write lock readers/writers, a fenced lock's token counter, a\n"
      "semaphore's permits or latch's count (a short integer string) and expirable permits are\n"
      "shown too, and Redisson's objects with their state: Bloom filters, rate limiters, id\n"
      "generators, HyperLogLogs, and buckets with their value decoded (kryo5, json or text).");
  return command;
}

int run_inspect(const GlobalOptions& global, const InspectOptions& options) {
  Client client = connect(global);
  const auto report = inspect_key(client, options.name);
  std::cout << (options.json ? format_json(report) : format_text(report)) << std::flush;
  return report.exists ? kExitOk : kExitFailure;
}

}  // namespace redisson::cli
