#include "support/redis_cluster.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "support/eventually.hpp"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

namespace redisson::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kSlots = 16384;
constexpr auto kReadyTimeout = 30s;
constexpr auto kCreateTimeout = 60s;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::chrono::milliseconds remaining(Clock::time_point deadline) {
  return std::max(0ms,
                  std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
}

// Splits on `sep`, dropping '\r' (CLUSTER INFO and INFO end lines with "\r\n").
std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  for (const char c : text) {
    if (c == sep) {
      parts.push_back(std::move(part));
      part.clear();
    } else if (c != '\r') {
      part += c;
    }
  }
  if (!part.empty()) parts.push_back(std::move(part));
  return parts;
}

int to_port(const std::string& text) {
  try {
    return std::stoi(text);
  } catch (const std::exception&) {
    return 0;
  }
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (const int value : values) out += (out.empty() ? "" : " ") + std::to_string(value);
  return out;
}

// The command's reply, or nothing when the node cannot be reached or does not answer.
std::optional<std::string> try_command(const RedisServer& server,
                                       const std::vector<std::string>& args) {
  if (!server.running()) return std::nullopt;
  try {
    return server.command(args);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// "key:value" lines (CLUSTER INFO, INFO) -> the value of `key`, or "" when absent.
std::string info_field(const std::string& text, std::string_view key) {
  for (const auto& line : split(text, '\n')) {
    if (line.size() > key.size() && line.compare(0, key.size(), key) == 0 &&
        line[key.size()] == ':') {
      return line.substr(key.size() + 1);
    }
  }
  return "";
}

// What ROLE says: "master", "slave" (with its master's port and whether the link is up),
// "sentinel", or "" when the node does not answer.
struct Role {
  std::string name;
  int master_port = 0;
  bool linked = false;
};

Role role_of(const RedisServer& server) {
  Role role;
  const auto reply = try_command(server, {"ROLE"});
  if (!reply) return role;
  // Rendered flat: "master\nOFFSET\n..." or "slave\nHOST\nPORT\nSTATE\nOFFSET".
  const auto parts = split(*reply, '\n');
  if (parts.empty()) return role;
  role.name = parts[0];
  if (role.name == "slave" && parts.size() >= 4) {
    role.master_port = to_port(parts[2]);
    role.linked = parts[3] == "connected";
  }
  return role;
}

// One line of CLUSTER NODES.
struct NodesEntry {
  std::string id;
  int port = 0;
  std::set<std::string> flags;
  std::string master_id;                    // "-" for a master
  long long config_epoch = 0;               // a replica's is its master's
  std::vector<std::pair<int, int>> ranges;  // the slots it serves, first..last
  int slots = 0;                            // how many
};

std::vector<NodesEntry> parse_cluster_nodes(const std::string& text) {
  std::vector<NodesEntry> entries;
  for (const auto& line : split(text, '\n')) {
    std::istringstream fields(line);
    NodesEntry entry;
    std::string address;
    std::string flags;
    std::string ignored;
    // <id> <ip:port@cport[,hostname]> <flags> <master> <ping-sent> <pong-recv> <epoch> <link>
    if (!(fields >> entry.id >> address >> flags >> entry.master_id >> ignored >> ignored >>
          entry.config_epoch >> ignored)) {
      continue;
    }
    const auto at = address.find('@');
    const auto colon = address.rfind(':', at);
    if (colon == std::string::npos) continue;
    entry.port = to_port(address.substr(colon + 1, at - colon - 1));
    for (auto& flag : split(flags, ',')) entry.flags.insert(std::move(flag));
    // The rest: "N" or "A-B" slot ranges, or "[slot-<-id]" / "[slot->-id]" while migrating.
    for (std::string range; fields >> range;) {
      if (range.empty() || range[0] == '[') continue;
      const auto dash = range.find('-');
      const int first = to_port(range.substr(0, dash));
      const int last = dash == std::string::npos ? first : to_port(range.substr(dash + 1));
      entry.ranges.emplace_back(first, last);
      entry.slots += last - first + 1;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

// Flat key/value pairs (SENTINEL MASTER, one entry of SENTINEL REPLICAS) -> a map.
std::map<std::string, std::string> to_map(const std::vector<std::string>& flat, std::size_t begin,
                                          std::size_t end) {
  std::map<std::string, std::string> fields;
  for (std::size_t i = begin; i + 1 < end; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

// SENTINEL REPLICAS / SENTINELS, rendered flat: each entry's pairs start with "name".
std::vector<std::map<std::string, std::string>> to_maps(const std::string& reply) {
  const auto flat = split(reply, '\n');
  std::vector<std::map<std::string, std::string>> entries;
  std::size_t begin = 0;
  for (std::size_t i = 2; i <= flat.size(); i += 2) {
    if (i == flat.size() || flat[i] == "name") {
      if (!flat.empty() && flat[begin] == "name") entries.push_back(to_map(flat, begin, i));
      begin = i;
    }
  }
  return entries;
}

// The first executable called `name` on $PATH (or $env_var when set).
std::string find_binary(const char* name, const char* env_var) {
  if (const char* env = std::getenv(env_var); env != nullptr && *env != '\0') return env;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) continue;
    std::string candidate = std::string(dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  throw std::runtime_error(std::string(name) + " not found on PATH (run: make deps)");
}

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string output;  // stdout and stderr, interleaved
};

// Runs argv (argv[0] a path) with stdin on /dev/null, collecting its output; kills it by PID when
// it runs longer than `timeout`. Like RedisServer, the child dies with the calling thread.
ProcessResult run_process(std::vector<std::string> args, std::chrono::milliseconds timeout) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const int dev_null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (dev_null < 0) throw_errno("open /dev/null");
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(dev_null);
    throw_errno("pipe2");
  }
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(dev_null);
    ::close(out[0]);
    ::close(out[1]);
    throw_errno("fork");
  }
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::setpgid(0, 0);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::dup2(dev_null, STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(out[1], STDERR_FILENO);
    if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
      for (int fd = 3; fd < 4096; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(dev_null);
  ::close(out[1]);

  ProcessResult result;
  const auto deadline = Clock::now() + timeout;
  for (bool open = true; open;) {
    const auto left = remaining(deadline);
    if (left == 0ms) {
      result.timed_out = true;
      break;
    }
    pollfd ready{out[0], POLLIN, 0};
    const int n = ::poll(&ready, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    char chunk[4096];
    const ssize_t got = ::read(out[0], chunk, sizeof chunk);
    if (got > 0) {
      result.output.append(chunk, static_cast<std::size_t>(got));
    } else if (got == 0 || errno != EINTR) {
      open = false;
    }
  }
  ::close(out[0]);
  if (result.timed_out) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

std::unique_ptr<RedisServer> start_server(std::vector<std::string> args,
                                          std::chrono::seconds max_lifetime,
                                          const std::vector<std::string>& extra_args,
                                          bool cluster_bus_port = false,
                                          std::string config_text = "") {
  RedisServerOptions options;
  options.extra_args = std::move(args);
  options.extra_args.insert(options.extra_args.end(), extra_args.begin(), extra_args.end());
  options.max_lifetime = max_lifetime;
  options.cluster_bus_port = cluster_bus_port;
  options.config_text = std::move(config_text);
  return std::make_unique<RedisServer>(std::move(options));
}

// A replica's first sync would otherwise wait repl-diskless-sync-delay (5 s) for more replicas,
// and write the RDB it receives to disk.
const std::vector<std::string> kFastSync = {"--repl-diskless-sync-delay", "0",
                                            "--repl-diskless-load", "on-empty-db"};

std::string url(int port) { return "redis://127.0.0.1:" + std::to_string(port); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// RedisCluster

RedisCluster::RedisCluster(RedisClusterOptions options) : options_(std::move(options)) {
  if (options_.masters < 3) throw std::invalid_argument("RedisCluster: at least 3 masters");
  if (options_.replicas_per_master < 0) throw std::invalid_argument("RedisCluster: replicas < 0");
  const int total = options_.masters * (1 + options_.replicas_per_master);
  std::vector<std::string> args = {
      "--cluster-enabled",      "yes",
      "--cluster-config-file",  "nodes.conf",  // in the node's own dir
      "--cluster-node-timeout", std::to_string(options_.node_timeout.count()),
  };
  args.insert(args.end(), kFastSync.begin(), kFastSync.end());
  for (int i = 0; i < total; ++i) {
    nodes_.push_back(start_server(args, options_.max_lifetime, options_.extra_args, true));
  }

  std::vector<std::string> create = {find_binary("redis-cli", "REDIS_CLI_BIN"), "--cluster",
                                     "create"};
  for (const auto& node : nodes_) create.push_back("127.0.0.1:" + std::to_string(node->port()));
  create.insert(create.end(), {"--cluster-replicas", std::to_string(options_.replicas_per_master),
                               "--cluster-yes"});
  const ProcessResult created = run_process(create, kCreateTimeout);
  if (created.exit_code != 0) {
    throw std::runtime_error(std::string("redis-cli --cluster create ") +
                             (created.timed_out ? "timed out" : "failed") + ":\n" + created.output);
  }
  for (const auto& node : nodes_) ids_.push_back(node->command({"CLUSTER", "MYID"}));
  wait_until_ok(kReadyTimeout);
}

RedisCluster::~RedisCluster() = default;

std::vector<int> RedisCluster::ports() const {
  std::vector<int> ports;
  for (const auto& node : nodes_) ports.push_back(node->port());
  return ports;
}

std::vector<ClusterNode> RedisCluster::nodes() const {
  std::vector<ClusterNode> out;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const RedisServer& server = *nodes_[i];
    ClusterNode node;
    node.port = server.port();
    node.pid = server.pid();
    node.id = ids_[i];
    const Role role = role_of(server);
    if (!server.running()) {
      node.role = "stopped";
    } else if (role.name == "slave") {
      node.role = "replica";
      node.master_port = role.master_port;
    } else {
      node.role = role.name.empty() ? "unreachable" : role.name;
    }
    out.push_back(std::move(node));
  }
  return out;
}

std::vector<int> RedisCluster::master_ports() const {
  std::vector<int> ports;
  for (const auto& node : nodes()) {
    if (node.role == "master") ports.push_back(node.port);
  }
  return ports;
}

std::vector<int> RedisCluster::replica_ports() const {
  std::vector<int> ports;
  for (const auto& node : nodes()) {
    if (node.role == "replica") ports.push_back(node.port);
  }
  return ports;
}

int RedisCluster::replica_of(int master_port) const {
  for (const auto& node : nodes()) {
    if (node.role == "replica" && node.master_port == master_port) return node.port;
  }
  throw std::runtime_error("RedisCluster: no running replica of " + std::to_string(master_port) +
                           "\n" + describe());
}

int RedisCluster::master_of_slot(int slot) const {
  for (const int port : master_ports()) {
    if (const auto owner = master_of_slot_seen_by(port, slot)) return *owner;
  }
  throw std::runtime_error("RedisCluster: no master serves slot " + std::to_string(slot));
}

std::optional<int> RedisCluster::master_of_slot_seen_by(int port, int slot) const {
  if (slot < 0 || slot >= kSlots) throw std::out_of_range("RedisCluster: bad slot");
  const auto reply = try_command(node(port), {"CLUSTER", "NODES"});
  if (!reply) return std::nullopt;
  for (const auto& entry : parse_cluster_nodes(*reply)) {
    if (entry.flags.count("master") == 0) continue;
    for (const auto& [first, last] : entry.ranges) {
      if (slot >= first && slot <= last) return entry.port;
    }
  }
  return std::nullopt;
}

std::string RedisCluster::url_of(int port) const {
  node(port);  // throws for a port that is not ours
  return url(port);
}

std::vector<std::string> RedisCluster::urls() const {
  std::vector<std::string> out;
  for (const auto& node : nodes_) out.push_back(url(node->port()));
  return out;
}

RedisServer& RedisCluster::node(int port) {
  return const_cast<RedisServer&>(std::as_const(*this).node(port));
}

const RedisServer& RedisCluster::node(int port) const {
  for (const auto& node : nodes_) {
    if (node->port() == port) return *node;
  }
  throw std::out_of_range("RedisCluster: no node on port " + std::to_string(port));
}

std::string RedisCluster::command(int port, const std::vector<std::string>& args) const {
  return node(port).command(args);
}

void RedisCluster::failover(int replica_port, bool force) {
  RedisServer& replica = node(replica_port);
  const Role before = role_of(replica);
  if (before.name != "slave") {
    throw std::logic_error("RedisCluster::failover: " + std::to_string(replica_port) +
                           " is not a replica (ROLE says '" + before.name + "')");
  }
  const auto deadline = Clock::now() + kReadyTimeout;
  std::vector<std::string> request = {"CLUSTER", "FAILOVER"};
  if (force) request.emplace_back("FORCE");
  for (;;) {
    const std::string reply = replica.command(request);
    if (reply != "OK") throw std::runtime_error("CLUSTER FAILOVER: " + reply);
    // A manual failover that cannot complete is abandoned after 5 s; then ask again.
    if (eventually([&] { return role_of(replica).name == "master"; },
                   std::min(remaining(deadline), std::chrono::milliseconds(10s)), 20ms)) {
      break;
    }
    if (remaining(deadline) == 0ms) {
      throw std::runtime_error("RedisCluster::failover: " + std::to_string(replica_port) +
                               " did not become master\n" + describe());
    }
  }
  // The old master hears of its demotion from the new one; a running one follows it at once.
  const RedisServer& old_master = node(before.master_port);
  if (old_master.running() && !eventually(
                                  [&] {
                                    const Role role = role_of(old_master);
                                    return role.name == "slave" &&
                                           role.master_port == replica_port && role.linked;
                                  },
                                  remaining(deadline), 20ms)) {
    throw std::runtime_error("RedisCluster::failover: old master " +
                             std::to_string(before.master_port) + " did not follow " +
                             std::to_string(replica_port) + "\n" + describe());
  }
  wait_until_ok(std::max(remaining(deadline), std::chrono::milliseconds(1s)));
}

void RedisCluster::stop_node(int port) { node(port).stop(); }

void RedisCluster::start_node(int port) { node(port).start(); }

std::optional<std::string> RedisCluster::unsettled() const {
  const std::string known = std::to_string(nodes_.size());
  std::string why;
  const auto fail = [&why](std::string reason) {
    why = std::move(reason);
    return false;
  };
  std::map<int, std::string> id_of;
  for (std::size_t i = 0; i < nodes_.size(); ++i) id_of[nodes_[i]->port()] = ids_[i];
  const auto ok = [&] {
    // Each running node's role by its own account, and the masters that serve slots.
    std::map<int, Role> truth;
    std::set<int> serving;
    std::map<int, NodesEntry> claims;  // each serving master's own line: its epoch and slots
    for (const auto& node : nodes_) {
      if (!node->running()) continue;
      const std::string port = std::to_string(node->port());
      const auto info = try_command(*node, {"CLUSTER", "INFO"});
      if (!info) return fail(port + " does not answer");
      if (info_field(*info, "cluster_state") != "ok") {
        return fail(port + " says cluster_state:" + info_field(*info, "cluster_state"));
      }
      if (info_field(*info, "cluster_known_nodes") != known) {
        return fail(port + " knows " + info_field(*info, "cluster_known_nodes") + " nodes");
      }
      const Role role = role_of(*node);
      if (role.name == "slave" && !role.linked) return fail(port + " is not linked");
      if (role.name != "master" && role.name != "slave") return fail(port + " has no role");
      truth[node->port()] = role;
      if (role.name != "master") continue;
      const auto view = try_command(*node, {"CLUSTER", "NODES"});
      if (!view) return fail(port + " does not answer");
      for (const auto& entry : parse_cluster_nodes(*view)) {
        if (entry.flags.count("myself") != 0 && entry.slots > 0) {
          serving.insert(node->port());
          claims[node->port()] = entry;
        }
      }
    }
    if (serving.empty()) return fail("no master serves slots");
    // Every running node's CLUSTER NODES must say the same: roles move by gossip, a moment after
    // the slots, and a stopped node is only flagged "fail" after node_timeout.
    for (const auto& node : nodes_) {
      if (!node->running()) continue;
      const std::string at = std::to_string(node->port()) + " sees ";
      const auto view = try_command(*node, {"CLUSTER", "NODES"});
      if (!view) return fail(std::to_string(node->port()) + " does not answer");
      std::set<int> seen;
      for (const auto& entry : parse_cluster_nodes(*view)) {
        const std::string other = std::to_string(entry.port);
        const auto actual = truth.find(entry.port);
        if (actual == truth.end()) {
          if (entry.flags.count("fail") == 0) return fail(at + "stopped " + other + " not failed");
          continue;
        }
        for (const char* bad : {"fail", "fail?", "handshake", "noaddr"}) {
          if (entry.flags.count(bad) != 0) return fail(at + other + " as " + bad);
        }
        const bool master = entry.flags.count("master") != 0;
        if (master != (actual->second.name == "master")) {
          return fail(at + other + (master ? " as master" : " as replica"));
        }
        if (!master && entry.master_id != id_of[actual->second.master_port]) {
          return fail(at + other + " replicating another master");
        }
        if (master && entry.slots > 0) seen.insert(entry.port);
        // Each master as it claims itself: its config epoch and slots. Until then the cluster is
        // still moving; a manual move started meanwhile can be undone (a new owner that has not
        // heard the latest epoch does not raise its own above it when it takes the slot).
        const auto claim = claims.find(entry.port);
        if (master && claim != claims.end() &&
            (entry.config_epoch != claim->second.config_epoch ||
             entry.ranges != claim->second.ranges)) {
          return fail(at + other + " with config epoch " + std::to_string(entry.config_epoch) +
                      " and " + std::to_string(entry.slots) + " slots, not " +
                      std::to_string(claim->second.config_epoch) + " and " +
                      std::to_string(claim->second.slots));
        }
      }
      if (seen != serving) {
        return fail(at + "masters {" + join({seen.begin(), seen.end()}) + "}, not {" +
                    join({serving.begin(), serving.end()}) + "}");
      }
    }
    return true;
  };
  if (ok()) return std::nullopt;
  return why;
}

void RedisCluster::wait_until_ok(std::chrono::milliseconds timeout) const {
  std::optional<std::string> why;
  if (!eventually([&] { return !(why = unsettled()); }, timeout, 20ms)) {
    throw std::runtime_error("RedisCluster: not ok after " + std::to_string(timeout.count()) +
                             " ms: " + why.value_or("") + "\n" + describe());
  }
}

std::string RedisCluster::describe() const {
  std::string out;
  for (const auto& node : nodes()) {
    out += "  node " + std::to_string(node.port) + " pid " + std::to_string(node.pid) + " " +
           node.role;
    if (node.master_port != 0) out += " of " + std::to_string(node.master_port);
    if (const auto info = try_command(this->node(node.port), {"CLUSTER", "INFO"})) {
      out += ", cluster_state:" + info_field(*info, "cluster_state");
    }
    out += "\n";
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// RedisSentinelGroup

RedisSentinelGroup::RedisSentinelGroup(RedisSentinelOptions options)
    : options_(std::move(options)) {
  if (options_.sentinels < 1 || options_.quorum < 1 || options_.quorum > options_.sentinels) {
    throw std::invalid_argument("RedisSentinelGroup: bad sentinel count or quorum");
  }
  data_.push_back(start_server(kFastSync, options_.max_lifetime, options_.extra_args));
  const int master = data_[0]->port();
  std::vector<std::string> replica_args = {"--replicaof", "127.0.0.1", std::to_string(master)};
  replica_args.insert(replica_args.end(), kFastSync.begin(), kFastSync.end());
  data_.push_back(start_server(replica_args, options_.max_lifetime, options_.extra_args));
  // Sentinels started after the link is up find the replica in the master's first INFO reply,
  // instead of 10 s later.
  if (!eventually([&] { return role_of(*data_[1]).linked; }, kReadyTimeout, 10ms)) {
    throw std::runtime_error("RedisSentinelGroup: the replica did not link to the master; log:\n" +
                             data_[1]->log_tail());
  }

  const std::string& name = options_.master_name;
  const std::string config =
      "sentinel resolve-hostnames no\n"
      "sentinel monitor " +
      name + " 127.0.0.1 " + std::to_string(master) + " " + std::to_string(options_.quorum) + "\n" +
      "sentinel down-after-milliseconds " + name + " " +
      std::to_string(options_.down_after.count()) + "\n" + "sentinel failover-timeout " + name +
      " " + std::to_string(options_.failover_timeout.count());
  for (int i = 0; i < options_.sentinels; ++i) {
    sentinels_.push_back(start_server({"--sentinel"}, options_.max_lifetime, {}, false, config));
  }
  wait_until_ready(kReadyTimeout);
}

RedisSentinelGroup::~RedisSentinelGroup() {
  // Sentinels first, so none of them reacts to the data nodes going away.
  sentinels_.clear();
  data_.clear();
}

std::vector<int> RedisSentinelGroup::sentinel_ports() const {
  std::vector<int> ports;
  for (const auto& sentinel : sentinels_) ports.push_back(sentinel->port());
  return ports;
}

std::vector<std::string> RedisSentinelGroup::sentinel_urls() const {
  std::vector<std::string> out;
  for (const auto& sentinel : sentinels_) out.push_back(url(sentinel->port()));
  return out;
}

std::vector<int> RedisSentinelGroup::data_ports() const {
  return {data_[0]->port(), data_[1]->port()};
}

int RedisSentinelGroup::master_port() const {
  for (const auto& sentinel : sentinels_) {
    const auto reply =
        try_command(*sentinel, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", options_.master_name});
    if (!reply) continue;
    const auto parts = split(*reply, '\n');
    if (parts.size() == 2) return to_port(parts[1]);
  }
  throw std::runtime_error("RedisSentinelGroup: no sentinel reports a master\n" + describe());
}

int RedisSentinelGroup::replica_port() const {
  const int master = master_port();
  return data_[0]->port() == master ? data_[1]->port() : data_[0]->port();
}

std::string RedisSentinelGroup::url_of(int port) const {
  node(port);  // throws for a port that is not ours
  return url(port);
}

RedisServer& RedisSentinelGroup::node(int port) {
  return const_cast<RedisServer&>(std::as_const(*this).node(port));
}

const RedisServer& RedisSentinelGroup::node(int port) const {
  for (const auto* group : {&data_, &sentinels_}) {
    for (const auto& server : *group) {
      if (server->port() == port) return *server;
    }
  }
  throw std::out_of_range("RedisSentinelGroup: no process on port " + std::to_string(port));
}

std::string RedisSentinelGroup::command(int port, const std::vector<std::string>& args) const {
  return node(port).command(args);
}

void RedisSentinelGroup::failover() {
  const int old_master = master_port();
  const auto deadline = Clock::now() + kReadyTimeout;
  for (;;) {
    std::string reply = "no sentinel answers";
    for (const auto& sentinel : sentinels_) {
      if (const auto answer =
              try_command(*sentinel, {"SENTINEL", "FAILOVER", options_.master_name})) {
        reply = *answer;
        break;
      }
    }
    if (reply == "OK" || reply.rfind("INPROG", 0) == 0) break;
    // NOGOODSLAVE: the sentinel has not yet seen the replica healthy; that changes on its own.
    if (remaining(deadline) == 0ms) {
      throw std::runtime_error("RedisSentinelGroup::failover: SENTINEL FAILOVER: " + reply);
    }
    std::this_thread::sleep_for(100ms);
  }
  int new_master = 0;
  const bool switched = eventually(
      [&] {
        std::set<int> reported;
        for (const auto& sentinel : sentinels_) {
          if (!sentinel->running()) continue;
          const auto reply =
              try_command(*sentinel, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", options_.master_name});
          const auto parts = reply ? split(*reply, '\n') : std::vector<std::string>{};
          reported.insert(parts.size() == 2 ? to_port(parts[1]) : 0);
        }
        if (reported.size() != 1) return false;
        new_master = *reported.begin();
        if (new_master == old_master) return false;
        const auto data = data_ports();
        if (std::find(data.begin(), data.end(), new_master) == data.end()) return false;
        return role_of(node(new_master)).name == "master";
      },
      remaining(deadline), 20ms);
  if (!switched) {
    throw std::runtime_error("RedisSentinelGroup::failover: the sentinels did not switch from " +
                             std::to_string(old_master) + "\n" + describe());
  }
}

void RedisSentinelGroup::stop_node(int port) { node(port).stop(); }

void RedisSentinelGroup::start_node(int port) { node(port).start(); }

void RedisSentinelGroup::wait_until_ready(std::chrono::milliseconds timeout) const {
  const std::string& name = options_.master_name;
  const std::string other_sentinels = std::to_string(sentinels_.size() - 1);
  std::string why;
  const auto fail = [&why](std::string reason) {
    why = std::move(reason);
    return false;
  };
  const auto ready = [&] {
    int master = 0;
    for (const auto& sentinel : sentinels_) {
      if (!sentinel->running()) continue;
      const std::string at = "sentinel " + std::to_string(sentinel->port());
      const auto reply = try_command(*sentinel, {"SENTINEL", "MASTER", name});
      if (!reply) return fail(at + " does not answer");
      const auto flat = split(*reply, '\n');
      auto fields = to_map(flat, 0, flat.size());
      if (master == 0) master = to_port(fields["port"]);
      if (to_port(fields["port"]) != master) return fail(at + " disagrees on the master");
      if (fields["flags"] != "master") return fail(at + " sees flags " + fields["flags"]);
      // Sentinels never forget each other, so this holds with stopped sentinels too.
      if (fields["num-other-sentinels"] != other_sentinels) {
        return fail(at + " knows " + fields["num-other-sentinels"] + " other sentinels");
      }
      const int replica = data_[0]->port() == master ? data_[1]->port() : data_[0]->port();
      if (!node(replica).running()) continue;
      const auto replicas = try_command(*sentinel, {"SENTINEL", "REPLICAS", name});
      if (!replicas) return fail(at + " does not answer");
      // Only flags: fields such as master-link-status come from the replica's INFO, which a
      // sentinel asks for every 10 s, and SENTINEL FAILOVER does not need them fresh.
      bool healthy = false;
      for (auto& entry : to_maps(*replicas)) {
        healthy = healthy || (to_port(entry["port"]) == replica && entry["flags"] == "slave");
      }
      if (!healthy) return fail(at + " does not see " + std::to_string(replica) + " healthy");
    }
    if (master == 0) return fail("no sentinel is running");
    if (role_of(node(master)).name != "master") {
      return fail(std::to_string(master) + " is not a master");
    }
    const int replica = data_[0]->port() == master ? data_[1]->port() : data_[0]->port();
    if (node(replica).running()) {
      const Role role = role_of(node(replica));
      if (role.name != "slave" || role.master_port != master || !role.linked) {
        return fail(std::to_string(replica) + " is not a linked replica of " +
                    std::to_string(master));
      }
    }
    return true;
  };
  if (!eventually(ready, timeout, 20ms)) {
    throw std::runtime_error("RedisSentinelGroup: not ready after " +
                             std::to_string(timeout.count()) + " ms: " + why + "\n" + describe());
  }
}

std::string RedisSentinelGroup::describe() const {
  std::string out;
  for (const auto& server : data_) {
    const Role role = role_of(*server);
    out += "  redis " + std::to_string(server->port()) + " pid " + std::to_string(server->pid()) +
           " " + (server->running() ? role.name : "stopped");
    if (role.master_port != 0) {
      out += " of " + std::to_string(role.master_port) + (role.linked ? " (linked)" : "");
    }
    out += "\n";
  }
  for (const auto& sentinel : sentinels_) {
    out += "  sentinel " + std::to_string(sentinel->port()) + " pid " +
           std::to_string(sentinel->pid());
    if (const auto reply =
            try_command(*sentinel, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", options_.master_name})) {
      const auto parts = split(*reply, '\n');
      out += " says master " + (parts.size() == 2 ? parts[1] : *reply);
    }
    out += "\n";
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// RedisMasters

RedisMasters::RedisMasters(RedisMastersOptions options) {
  if (options.count < 1) throw std::invalid_argument("RedisMasters: count < 1");
  for (int i = 0; i < options.count; ++i) {
    servers_.push_back(start_server({}, options.max_lifetime, options.extra_args));
  }
}

std::vector<int> RedisMasters::ports() const {
  std::vector<int> ports;
  for (const auto& server : servers_) ports.push_back(server->port());
  return ports;
}

std::vector<std::string> RedisMasters::urls() const {
  std::vector<std::string> out;
  for (const auto& server : servers_) out.push_back(url(server->port()));
  return out;
}

}  // namespace redisson::test
