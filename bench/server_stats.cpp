#include "server_stats.hpp"

#include <sys/resource.h>

#include <fstream>
#include <set>
#include <sstream>

namespace redisson_bench {

CommandCounts read_command_counts(redisson::Client& client) {
  const auto reply = client.execute(redisson::Command{"INFO", "commandstats"});
  CommandCounts counts;
  std::istringstream lines(std::string(reply.text()));
  std::string line;
  // cmdstat_evalsha:calls=12,usec=34,usec_per_call=2.83,rejected_calls=0,failed_calls=0
  while (std::getline(lines, line)) {
    if (!line.starts_with("cmdstat_")) continue;
    const auto colon = line.find(':');
    const auto calls = line.find("calls=", colon);
    if (colon == std::string::npos || calls == std::string::npos) continue;
    const auto name = line.substr(8, colon - 8);
    counts[name] = std::stoll(line.substr(calls + 6));
  }
  return counts;
}

double read_server_cpu_seconds(redisson::Client& client) {
  const auto reply = client.execute(redisson::Command{"INFO", "cpu"});
  std::istringstream lines(std::string(reply.text()));
  std::string line;
  double total = 0;
  while (std::getline(lines, line)) {
    if (line.starts_with("used_cpu_sys:") || line.starts_with("used_cpu_user:")) {
      total += std::stod(line.substr(line.find(':') + 1));
    }
  }
  return total;
}

namespace {
double rusage_seconds(int who) {
  rusage usage{};
  getrusage(who, &usage);
  const auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}
}  // namespace

double process_cpu_seconds() { return rusage_seconds(RUSAGE_SELF); }

std::int64_t process_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  // VmRSS:	  123456 kB
  while (std::getline(status, line)) {
    if (line.starts_with("VmRSS:")) return std::stoll(line.substr(6)) * 1024;
  }
  return -1;
}
double children_cpu_seconds() { return rusage_seconds(RUSAGE_CHILDREN); }

CommandCounts command_delta(const CommandCounts& before, const CommandCounts& after) {
  CommandCounts delta;
  for (const auto& [name, calls] : after) {
    if (name == "info") continue;
    const auto it = before.find(name);
    const auto diff = calls - (it == before.end() ? 0 : it->second);
    if (diff != 0) delta[name] = diff;
  }
  return delta;
}

// The scenarios' clients only send these; everything else the server counted ran inside a
// script (listing the client side is shorter, and stays right when a script changes).
bool is_script_inner_command(const std::string& name) {
  static const std::set<std::string> kClientSent{
      "evalsha",      "eval",  "script|load",    "subscribe", "unsubscribe", "ssubscribe",
      "sunsubscribe", "hello", "client|setname", "select",    "auth",        "ping",
      "asking",       "wait",  "pubsub|numsub",  "multi",     "exec"};
  return !kClientSent.contains(name);
}

CommandSummary summarize(const CommandCounts& delta) {
  CommandSummary summary;
  summary.per_command = nlohmann::json::object();
  for (const auto& [name, calls] : delta) {
    summary.per_command[name] = calls;
    (is_script_inner_command(name) ? summary.script_inner : summary.client_sent) += calls;
  }
  return summary;
}

}  // namespace redisson_bench
