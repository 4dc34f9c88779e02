// docs/configuration.md states the defaults of Config and of the other option structs once, in
// its tables; this test reads those tables and checks each default against the code, so the
// page cannot drift from config.hpp. No server needed.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/config.hpp"
#include "redisson/red_lock.hpp"

namespace unit_config_documented_defaults_test {

namespace {

using Table = std::map<std::string, std::string>;  // field -> the default column's text

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

std::string strip_backticks(std::string text) {
  std::erase(text, '`');
  return trim(text);
}

// The cells of a Markdown table row ("| a | b |"), trimmed; none for a line that is not a row.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  const std::string row = trim(line);
  if (row.size() < 2 || row.front() != '|' || row.back() != '|') return out;
  std::string cell;
  bool in_code = false;
  for (std::size_t i = 1; i + 1 < row.size(); ++i) {
    const char c = row[i];
    if (c == '`') in_code = !in_code;
    if (c == '|' && !in_code) {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += c;
    }
  }
  out.push_back(trim(cell));
  return out;
}

// Every table of `path` whose header starts with "<Struct> field" (or "field", for Config) and
// has a "default" column, keyed by the struct's name ("Config" for the bare "field"). A first
// cell naming several fields ("`cert_file`, `key_file`") gives each the same default.
std::map<std::string, Table> documented_defaults(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::map<std::string, Table> tables;
  std::string line;
  Table* table = nullptr;
  std::size_t default_column = 0;
  while (std::getline(in, line)) {
    const auto row = cells(line);
    if (row.empty()) {
      table = nullptr;
      continue;
    }
    if (table == nullptr) {
      const std::string head = strip_backticks(row[0]);
      const bool names_fields = head == "field" || head.ends_with(" field");
      std::size_t column = 0;
      while (column < row.size() && row[column] != "default") ++column;
      if (!names_fields || column == row.size()) continue;
      const std::string name = head == "field" ? "Config" : head.substr(0, head.size() - 6);
      table = &tables[name];
      default_column = column;
      std::getline(in, line);  // the |---| line
      continue;
    }
    if (row.size() <= default_column) continue;
    std::stringstream fields(row[0]);
    std::string field;
    while (std::getline(fields, field, ',')) (*table)[strip_backticks(field)] = row[default_column];
  }
  return tables;
}

// How the page writes a value of the code.
std::string text(std::chrono::milliseconds duration) {
  return std::to_string(duration.count()) + " ms";
}
std::string text(bool value) { return value ? "true" : "false"; }
std::string text(int value) { return std::to_string(value); }
std::string text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}
std::string text(redisson::Config::KeyspaceNotifications mode) {
  switch (mode) {
    case redisson::Config::KeyspaceNotifications::enable:
      return "`enable`";
    case redisson::Config::KeyspaceNotifications::check:
      return "`check`";
    case redisson::Config::KeyspaceNotifications::assume:
      return "`assume`";
  }
  return "?";
}

std::string text(redisson::ReadMode mode) {
  switch (mode) {
    case redisson::ReadMode::master:
      return "`master`";
    case redisson::ReadMode::slave:
      return "`slave`";
    case redisson::ReadMode::master_slave:
      return "`master_slave`";
  }
  return "?";
}
std::string text(redisson::ShardedSubscriptionMode mode) {
  switch (mode) {
    case redisson::ShardedSubscriptionMode::automatic:
      return "`automatic`";
    case redisson::ShardedSubscriptionMode::on:
      return "`on`";
    case redisson::ShardedSubscriptionMode::off:
      return "`off`";
  }
  return "?";
}
// An empty string stands for a fallback the page describes in words.
std::string text_or(const std::string& value, const std::string& when_empty) {
  return value.empty() ? when_empty : "`" + value + "`";
}

// The code's defaults, written as the page writes them.
std::map<std::string, Table> code_defaults() {
  const redisson::Config config{};
  const redisson::ClusterConfig cluster{};
  const redisson::SentinelConfig sentinel{};
  const redisson::MasterSlaveConfig master_slave{};
  const redisson::TlsConfig tls{};
  const redisson::RedLockOptions red_lock{};
  return {
      {"Config",
       {
           {"server", config.server.host + ":" + std::to_string(config.server.port)},
           // Empty: the client names itself (src/client/client_core.cpp).
           {"client_name", text_or(config.client_name, "`redisson-cpp:<client id>`")},
           {"connect_timeout", text(config.connect_timeout)},
           {"command_timeout", text(config.command_timeout)},
           {"subscription_timeout", text(config.subscription_timeout)},
           {"retry_attempts", text(config.retry_attempts)},
           {"retry_interval", text(config.retry_interval)},
           {"reconnect_max_delay", text(config.reconnect_max_delay)},
           {"lock_watchdog_timeout", text(config.lock_watchdog_timeout)},
           {"fair_lock_wait_timeout", text(config.fair_lock_wait_timeout)},
           {"release_locks_on_shutdown", text(config.release_locks_on_shutdown)},
           {"subscription_linger", text(config.subscription_linger)},
           {"blocking_connections", text(config.blocking_connections)},
           {"eviction.enabled", text(config.eviction.enabled)},
           {"eviction.min_delay", text(config.eviction.min_delay)},
           {"eviction.max_delay", text(config.eviction.max_delay)},
           {"eviction.keys_limit", text(config.eviction.keys_limit)},
           {"io_threads", text(config.io_threads)},
           {"listener_threads", text(config.listener_threads)},
           {"keyspace_notifications", text(config.keyspace_notifications)},
           {"reliable_topic_watchdog_timeout", text(config.reliable_topic_watchdog_timeout)},
           {"resp3", text(config.resp3)},
           {"sync_replicas", text(config.sync_replicas)},
           {"sync_replicas_timeout", text(config.sync_replicas_timeout)},
           {"tls", config.tls.verify_peer && config.tls.verify_hostname ? "verify on" : "?"},
           {"cluster.scan_interval", text(cluster.scan_interval)},
           {"cluster.read_mode", text(cluster.read_mode)},
           {"cluster.sharded_subscription", text(cluster.sharded_subscription)},
           {"sentinel.scan_interval", text(sentinel.scan_interval)},
           {"sentinel.read_mode", text(sentinel.read_mode)},
           {"master_slave.read_mode", text(master_slave.read_mode)},
       }},
      {"TlsConfig",
       {
           {"ca_file", tls.ca_file.empty() ? "system CAs" : "`" + tls.ca_file + "`"},
           {"cert_file", tls.cert_file.empty() ? "none" : "`" + tls.cert_file + "`"},
           {"key_file", tls.key_file.empty() ? "none" : "`" + tls.key_file + "`"},
           {"server_name", tls.server_name.empty() ? "the host" : "`" + tls.server_name + "`"},
           {"verify_peer", text(tls.verify_peer)},
           {"verify_hostname", text(tls.verify_hostname)},
       }},
      {"RedLockOptions",
       {
           {"master_timeout", text(red_lock.master_timeout)},
           {"drift_factor", text(red_lock.drift_factor)},
           {"drift_base", text(red_lock.drift_base)},
       }},
  };
}

const std::string kConfigurationPage = REDISSON_SOURCE_DIR "/docs/configuration.md";

TEST(DocumentedDefaults, EveryDefaultInTheConfigurationTablesIsTheCodes) {
  const auto documented = documented_defaults(kConfigurationPage);
  const auto code = code_defaults();
  for (const auto& [name, table] : documented) {
    const auto expected = code.find(name);
    ASSERT_NE(expected, code.end())
        << kConfigurationPage << " has a table of `" << name
        << "` defaults that this test does not check: add the struct to code_defaults()";
    for (const auto& [field, value] : table) {
      const auto field_expected = expected->second.find(field);
      if (field_expected == expected->second.end()) {
        ADD_FAILURE() << name << "::" << field << " is documented (default " << value
                      << ") but not checked: add it to code_defaults()";
        continue;
      }
      EXPECT_EQ(value, field_expected->second)
          << kConfigurationPage << ": the default of " << name << "::" << field;
    }
  }
}

TEST(DocumentedDefaults, EveryCheckedDefaultIsInTheConfigurationTables) {
  const auto documented = documented_defaults(kConfigurationPage);
  for (const auto& [name, table] : code_defaults()) {
    const auto found = documented.find(name);
    ASSERT_NE(found, documented.end())
        << kConfigurationPage << " has no table of `" << name << "` defaults";
    for (const auto& [field, value] : table) {
      EXPECT_TRUE(found->second.contains(field)) << kConfigurationPage << " does not list " << name
                                                 << "::" << field << " (default " << value << ")";
    }
  }
}

}  // namespace

}  // namespace unit_config_documented_defaults_test
