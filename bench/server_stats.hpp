// Server-side command counts (INFO commandstats), to tell how many commands a scenario sent.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "redisson/client.hpp"

namespace redisson_bench {

/// calls per command name ("evalsha", "subscribe", "script|load", ...).
using CommandCounts = std::map<std::string, std::int64_t>;

/// Reads INFO commandstats through `client`.
CommandCounts read_command_counts(redisson::Client& client);

/// after - before, without zero entries and without the INFO calls themselves.
CommandCounts command_delta(const CommandCounts& before, const CommandCounts& after);

/// CPU seconds the server used so far (INFO cpu: used_cpu_sys + used_cpu_user).
double read_server_cpu_seconds(redisson::Client& client);

/// CPU seconds (user + sys) this process used so far, all threads.
double process_cpu_seconds();
/// This process's resident set size in bytes (VmRSS of /proc/self/status); -1 when unreadable.
std::int64_t process_rss_bytes();
/// CPU seconds (user + sys) of the children of this process reaped so far.
double children_cpu_seconds();

/// Commands that only reach the server from inside our Lua scripts in the lock scenarios
/// (anything but what the library's clients send: EVALSHA, SUBSCRIBE, HELLO, ...).
/// Redis 7 counts calls made by scripts in commandstats (and total_commands_processed), so
/// "commands the clients sent" = all calls minus these.
bool is_script_inner_command(const std::string& name);

struct CommandSummary {
  std::int64_t client_sent = 0;   ///< EVALSHA, SUBSCRIBE, UNSUBSCRIBE, ...
  std::int64_t script_inner = 0;  ///< hincrby, pexpire, publish, ... run by the scripts
  nlohmann::json per_command;     ///< name -> calls
};
CommandSummary summarize(const CommandCounts& delta);

}  // namespace redisson_bench
