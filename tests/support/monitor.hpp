// What a redis-server runs, as MONITOR shows it: the exact bytes of each command a test's client
// sent (to compare with what Java Redisson sent, fixtures/redisson-3.52/services/monitor.jsonl).
//
//   Monitor monitor(server);          // MONITOR on a connection of its own
//   ... calls ...
//   auto sent = monitor.take(server);  // the commands since, up to a marker it sends itself
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/redis_server.hpp"

namespace redisson::test {

/// One command MONITOR reported: its arguments (bytes unescaped) and whether a script ran it.
struct MonitoredCommand {
  std::vector<std::string> args;
  bool from_lua = false;
};

class Monitor {
 public:
  /// Connects to `server` and sends MONITOR; returns once the server confirmed it.
  explicit Monitor(const RedisServer& server);
  ~Monitor();
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  /// The commands run since the last take() (or since MONITOR), in the server's order: this
  /// sends ECHO <marker> on another connection and reads up to it, so nothing is waited for by
  /// time. PING (the client's health checks) is left out. Throws std::runtime_error when the
  /// server stops answering.
  std::vector<MonitoredCommand> take(const RedisServer& server);

 private:
  std::string read_line();

  int fd_ = -1;
  std::string buffer_;
  int marks_ = 0;
};

using SentCommands = std::vector<std::vector<std::string>>;

/// The commands Java Redisson sent in services case `name` (monitor.jsonl: not the markers, not
/// a script's own calls), each argument's exact bytes.
SentCommands java_sent_commands(std::string_view name);
/// The arguments of `commands` not run by a script.
SentCommands sent_by_clients(const std::vector<MonitoredCommand>& commands);
/// `commands` without the script cache's second tries, so that Java's and ours compare: Java
/// answers NOSCRIPT with SCRIPT LOAD and the same EVALSHA again, redisson-cpp with EVAL (or
/// EVAL_RO) and the source; both keep only the first EVALSHA.
SentCommands without_script_cache_retries(const SentCommands& commands);

/// Unescapes one MONITOR line's arguments ("\"GET\" \"k\\x01\"" -> {"GET", "k\x01"}).
std::vector<std::string> parse_monitor_args(const std::string& quoted);

}  // namespace redisson::test
