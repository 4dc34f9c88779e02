// redisson-chaos: `run` (every configuration, then the checker), `worker` (re-exec'ed by the
// driver), `check` (the checker alone over run directories).
#include <cstdio>
#include <exception>
#include <string>

#include "chaos/chaos.hpp"

namespace redisson::chaos {

std::map<std::string, std::string> parse_options(int argc, char** argv, int first) {
  std::map<std::string, std::string> options;
  for (int i = first; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    if (key.rfind("--", 0) == 0) key = key.substr(2);
    options[key] = argv[i + 1];
  }
  return options;
}

}  // namespace redisson::chaos

int main(int argc, char** argv) {
  using namespace redisson::chaos;
  const std::string usage =
      "usage: redisson-chaos run [--seconds N] [--out DIR] [--workers N] [--lease-ms N]\n"
      "                          [--seed N] [--only safe|pause|fenced|failover|\n"
      "                          failover-sync|cluster]\n"
      "       redisson-chaos check --summary FILE DIR...\n"
      "       redisson-chaos worker ... (started by run)\n";
  if (argc < 2) {
    std::fputs(usage.c_str(), stderr);
    return 2;
  }
  const std::string command = argv[1];
  try {
    if (command == "worker") return run_worker(parse_options(argc, argv, 2));
    if (command == "run") return run_driver(parse_options(argc, argv, 2), "/proc/self/exe");
    if (command == "check") {
      std::string summary = "summary.json";
      std::vector<std::string> dirs;
      for (int i = 2; i < argc; ++i) {
        if (std::string(argv[i]) == "--summary" && i + 1 < argc) {
          summary = argv[++i];
        } else {
          dirs.emplace_back(argv[i]);
        }
      }
      return run_checker(dirs, summary);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "redisson-chaos %s: %s\n", command.c_str(), e.what());
    return 1;
  }
  std::fputs(usage.c_str(), stderr);
  return 2;
}
