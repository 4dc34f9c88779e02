// redisson-chaos: `run` (every configuration, then the checker), `check` (the checker alone
// over run directories), `worker` (re-exec'ed by the driver). Every subcommand answers --help
// without starting anything and refuses an option it does not know (exit 64, as `redisson`).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "chaos/chaos.hpp"

namespace {

constexpr int kExitUsage = 64;  // EX_USAGE

// The options the driver passes to a worker (driver.cpp, Run::spawn), each "--name value".
struct WorkerOption {
  std::string name;
  std::string help;
  bool required;
};
const std::vector<WorkerOption>& worker_options() {
  static const std::vector<WorkerOption> options = {
      {"log", "the file its events are appended to", true},
      {"kinds", "the lock kinds it takes, comma-separated", true},
      {"lease-ms", "the lease of each acquisition", true},
      {"seed", "its random seed", true},
      {"fenced", "1: write the fenced resource with its token", false},
      {"work-ms", "how long it holds a lock (default 10)", false},
      {"sync-replicas", "1: wait for a replica after each write", false},
      {"url", "one server: redis://host:port", false},
      {"sentinels", "host:port,... of a Sentinel group", false},
      {"master-name", "the Sentinel group's master name", false},
      {"cluster", "host:port,... seeds of a Redis Cluster", false},
  };
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace redisson::chaos;
  CLI::App app{
      "redisson-chaos: worker processes contend for locks while faults are injected; "
      "a checker counts what went wrong (docs/reliability.md)."};
  app.require_subcommand(1);

  DriverOptions driver;
  std::uint64_t seed = 0;
  auto* run = app.add_subcommand("run", "every configuration in turn, then the checker");
  run->add_option("--seconds", driver.seconds, "the whole run, split over the configurations")
      ->check(CLI::Range(1.0, 1e7))
      ->capture_default_str();
  run->add_option("--out", driver.out, "the directory of the run directories and summary.json")
      ->capture_default_str();
  run->add_option("--workers", driver.workers, "worker processes per configuration")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  std::int64_t lease_ms = driver.lease.count();
  run->add_option("--lease-ms", lease_ms, "the workers' lock lease")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{3'600'000}))
      ->capture_default_str();
  auto* seed_option = run->add_option("--seed", seed, "the random seed (default: the clock)");
  run->add_option("--only", driver.only, "one configuration")
      ->check(CLI::IsMember(configuration_names()));

  std::string summary = "summary.json";
  std::vector<std::string> dirs;
  auto* check = app.add_subcommand("check", "the checker alone over run directories");
  check->add_option("--summary", summary, "where the summary is written")->capture_default_str();
  check->add_option("dirs", dirs, "run directories")->required()->check(CLI::ExistingDirectory);

  std::map<std::string, std::string> given;
  auto* worker = app.add_subcommand("worker", "one worker (started by run)");
  for (const auto& option : worker_options()) {
    worker->add_option("--" + option.name, given[option.name], option.help)
        ->required(option.required);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help, or the error
    return status == 0 ? 0 : kExitUsage;
  }
  try {
    if (run->parsed()) {
      driver.lease = std::chrono::milliseconds(lease_ms);
      if (seed_option->count() > 0) driver.seed = seed;
      return run_driver(driver, "/proc/self/exe");
    }
    if (check->parsed()) return run_checker(dirs, summary);
    if (worker->parsed()) {
      std::map<std::string, std::string> options;
      for (const auto& option : worker_options()) {
        if (worker->get_option("--" + option.name)->count() > 0) {
          options[option.name] = given[option.name];
        }
      }
      return run_worker(options);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "redisson-chaos: %s\n", e.what());
    return 1;
  }
  return kExitUsage;
}
