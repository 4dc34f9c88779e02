// The chaos driver: for each configuration, a throwaway redis-server (AOF, fsync always, so a
// restart keeps the data), the fault proxy in front of it, N re-exec'ed workers, and faults at
// random intervals, each logged with its time. Then the checker over every configuration.
// The failover configurations run on a Sentinel group instead (master + replica, both AOF; three
// sentinels), the cluster configuration on a Redis Cluster (3 masters + 3 replicas, all AOF);
// their workers ask the sentinels or the cluster where to go, so no proxy is in their path.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "chaos/chaos.hpp"
#include "chaos/semaphore_watch.hpp"
#include "fault/fault_proxy.hpp"
#include "redisson/config.hpp"
#include "support/redis_cluster.hpp"
#include "support/redis_server.hpp"
#include "sync/names.hpp"
#include "topology/key_slot.hpp"

namespace redisson::chaos {

namespace {

using std::chrono::milliseconds;
using test::Direction;
using test::FaultProxy;
using test::RedisCluster;
using test::RedisSentinelGroup;
using test::RedisServer;

// What the workers talk to: one server behind per-worker fault proxies, a Sentinel group, or a
// Redis Cluster.
enum class Topology { single, sentinel, cluster };

struct Mode {
  std::string name;
  std::vector<std::string> kinds;
  bool fenced_resource = false;
  std::vector<std::string> faults;
  double share = 0;  // of the total seconds
  Topology topology = Topology::single;
  bool sync_replicas = false;  // workers run with Config::sync_replicas (--sync-replicas 1)
  // What the checker is told (final.txt "mode"): the promise the configuration makes
  // (checker.cpp). failover-async: the outage bound only; failover-sync (failover-sync and
  // cluster, both with sync_replicas): no acknowledged write lost, no token reissued, the
  // semaphore's permit back, no key left behind, no overlap, and the outage bound.
  std::string promise;
};

// The failover faults need the group settled: a failover of the same master is refused by the
// sentinels for twice the failover timeout after the previous one started. The cluster keeps the
// same pacing, so its figures compare with the Sentinel ones.
constexpr milliseconds kDownAfter{1000};
constexpr milliseconds kFailoverTimeout{5000};
constexpr milliseconds kClusterNodeTimeout{2000};
// How long one probe of a promoted master waits for a replica's acknowledgement
// (replicated_after); a replica that can acknowledge answers within a few ms.
constexpr milliseconds kAcknowledgedWithin{100};
// How long the workers' request-id latches live (src/sync/retry.hpp, retry_latch_lifetime: the
// command timeout, the retry interval and the replicas' timeout, per attempt), with their Config
// (the replicas' part counted always: the longest of the configurations).
const milliseconds kLatchLifetime = [] {
  const Config defaults;
  return (kWorkerCommandTimeout + defaults.retry_interval + kWorkerSyncReplicasTimeout) *
         (defaults.retry_attempts + 1);
}();
bool is_failover(const std::string& fault) {
  return fault == "sentinel_failover" || fault == "master_kill" || fault == "cluster_failover";
}

// safe: every fault, none longer than the lease. pause: holders stopped (or cut off) longer
// than the lease, no fencing. fenced: the same long pauses plus every other fault, FencedLock
// with the resource checking tokens. failover: a Sentinel group, failovers (manual, or the
// master killed), holders killed and connections killed; Redis replication is asynchronous, so
// a failover may lose what the replica had not received: its losses are measured, only its
// outages are promised. failover-sync: the same with Config::sync_replicas in the workers (and
// their counter writes WAITed the same way, through a sync Batch): what a replica acknowledged
// is promised to survive. cluster: a Redis Cluster, failovers (CLUSTER FAILOVER, or the master
// killed) of the master serving one of the chaos keys, chosen at random, with sync_replicas too:
// the same promise as failover-sync.
std::vector<Mode> modes() {
  const std::vector<std::string> short_faults = {
      "sigkill_holder",        "sigstop_holder_short", "redis_restart", "client_kill_normal",
      "client_kill_pubsub",    "client_pause",         "debug_sleep",   "proxy_delay",
      "proxy_partition_short", "proxy_reset"};
  auto fenced_faults = short_faults;
  // Weighted towards the long pauses: they are what fencing is for.
  for (int i = 0; i < 4; ++i) fenced_faults.push_back("sigstop_holder_long");
  for (int i = 0; i < 2; ++i) fenced_faults.push_back("proxy_partition_long");
  const std::vector<std::string> sentinel_faults = {"sentinel_failover", "master_kill",
                                                    "sigkill_holder", "client_kill_normal"};
  const std::vector<std::string> cluster_faults = {"cluster_failover", "master_kill",
                                                   "sigkill_holder", "client_kill_normal"};
  return {
      {"safe", all_kinds(), false, short_faults, 0.3, Topology::single, false, "safe"},
      {"pause",
       {"lock", "fair", "rw", "fenced"},
       false,
       {"sigstop_holder_long", "sigstop_holder_long", "proxy_partition_long"},
       0.15,
       Topology::single,
       false,
       "pause"},
      {"fenced", {"fenced"}, true, fenced_faults, 0.15, Topology::single, false, "fenced"},
      {"failover", all_kinds(), false, sentinel_faults, 0.15, Topology::sentinel, false,
       "failover-async"},
      {"failover-sync", all_kinds(), false, sentinel_faults, 0.1, Topology::sentinel, true,
       "failover-sync"},
      {"cluster", all_kinds(), false, cluster_faults, 0.15, Topology::cluster, true,
       "failover-sync"},
  };
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

// The last line of a worker's log: "A <kind> ..." while it holds a lock.
std::string last_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::int64_t>(in.tellg());
  const auto from = std::max<std::int64_t>(0, size - 512);
  in.seekg(from);
  std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!tail.empty() && tail.back() == '\n') tail.pop_back();
  const auto cut = tail.rfind('\n');
  return cut == std::string::npos ? tail : tail.substr(cut + 1);
}

// Appendonly with fsync on every write: a restarted server still has the locks and counters.
test::RedisServerOptions persistent_server() {
  test::RedisServerOptions options;
  options.extra_args = {"--appendonly", "yes", "--appendfsync", "always"};
  options.max_lifetime = std::chrono::seconds(3600);
  return options;
}

// The same persistence on both data nodes: a killed master restarts with its data and is turned
// into a replica of the new master by the sentinels.
test::RedisSentinelOptions persistent_group() {
  test::RedisSentinelOptions options;
  options.down_after = kDownAfter;
  options.failover_timeout = kFailoverTimeout;
  options.extra_args = persistent_server().extra_args;
  options.max_lifetime = std::chrono::seconds(3600);
  return options;
}

// Every node with the same persistence; a killed master restarts with its data and rejoins as a
// replica of the node the cluster promoted.
test::RedisClusterOptions persistent_cluster() {
  test::RedisClusterOptions options;
  options.node_timeout = kClusterNodeTimeout;
  options.extra_args = persistent_server().extra_args;
  options.max_lifetime = std::chrono::seconds(3600);
  return options;
}

// The cluster slot of a key (CRC16 of the key or of its {hash tag}): the chaos keys land on
// different slots, possibly on different masters.
int slot_of(const std::string& key) { return detail::key_slot(key); }

class Run {
 public:
  Run(const Mode& mode, std::string dir, int workers, milliseconds lease, std::string self,
      std::uint64_t seed)
      : mode_(mode),
        dir_(std::move(dir)),
        lease_(lease),
        self_(std::move(self)),
        random_(seed),
        pids_(static_cast<std::size_t>(workers), -1),
        sem_watch_(dir_, static_cast<std::size_t>(workers)) {
    if (mode_.topology == Topology::sentinel) {
      group_ = std::make_unique<RedisSentinelGroup>(persistent_group());
      known_master_ = group_->master_port();
    } else if (mode_.topology == Topology::cluster) {
      cluster_ = std::make_unique<RedisCluster>(persistent_cluster());
      known_owners_ = lock_owners();
    } else {
      server_ = std::make_unique<RedisServer>(persistent_server());
      // One proxy per worker, so a partition can cut off one holder and leave the others be.
      for (int i = 0; i < workers; ++i) {
        proxies_.push_back(std::make_unique<FaultProxy>(server_->host(), server_->port()));
      }
    }
    std::filesystem::create_directories(dir_);
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      std::filesystem::remove(entry.path());
    }
    faults_.open(dir_ + "/faults.log");
    master_command({"SET", lock_name("sem"), "1"});
  }

  void execute(std::chrono::seconds duration) {
    for (std::size_t i = 0; i < pids_.size(); ++i) spawn(i);
    until_ = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < until_) {
      std::this_thread::sleep_for(milliseconds(500 + random_() % 2000));
      if (std::chrono::steady_clock::now() >= until_) break;
      reap_and_respawn();
      notice_switch();
      // No fault in the same turn: the repair has reached a replica by the next one.
      if (repair_semaphore()) continue;
      const auto& fault = mode_.faults[random_() % mode_.faults.size()];
      // A failover that could not finish before the end would leave the group unsettled for
      // the final reads; one too soon after the last would be refused by the sentinels.
      if (is_failover(fault) &&
          (std::chrono::steady_clock::now() < next_failover_ || too_close_to_the_end())) {
        continue;
      }
      inject(fault);
    }
    stop_workers();
    if (group_ || cluster_) {
      // The final reads go to the master the sentinels agree on, with the old one demoted, or
      // to each key's master in a settled cluster.
      try {
        settle();
      } catch (const std::exception& e) {
        log_fault("group_unsettled", now_us(), now_us(), "-");
        std::cerr << "chaos: " << e.what() << '\n';
      }
    }
    write_final();
    keep_group_logs();
  }

 private:
  // A master change the driver did not make (the sentinels or the cluster failed over on their
  // own): logged as a fault when noticed, at most one loop turn (2.5 s) late.
  void notice_switch() {
    if (cluster_) {
      const auto owners = lock_owners();
      for (const auto& [slot, port] : owners) {
        const int known = known_owners_[slot];
        if (port == 0 || known == 0 || port == known) continue;
        const auto at = now_us();
        log_fault("cluster_auto_failover", at, at,
                  "old:" + std::to_string(known) + ":new:" + std::to_string(port) +
                      ":slot:" + std::to_string(slot));
        known_owners_[slot] = port;
      }
      return;
    }
    if (!group_) return;
    const int master = master_or_zero();
    if (master == 0 || master == known_master_) return;
    const auto at = now_us();
    log_fault("sentinel_auto_failover", at, at,
              "old:" + std::to_string(known_master_) + ":new:" + std::to_string(master));
    known_master_ = master;
  }

  // The semaphore's permit put back once it is gone for good (SemaphoreWatch), in one script
  // that adds it only while there is none and wakes the waiters as a release would (both publish
  // commands: on a cluster the workers subscribe with SSUBSCRIBE); with replicas, then waited for
  // until a replica has it, so that a failover cannot take the repair back. Logged as
  // "F sem_repair" (the checker counts each as a permit lost). True when it repaired.
  bool repair_semaphore() {
    if (std::find(mode_.kinds.begin(), mode_.kinds.end(), "sem") == mode_.kinds.end()) {
      return false;
    }
    static const char* const kRepair =
        "if tonumber(redis.call('get', KEYS[1]) or '0') ~= 0 then return 0 end "
        "redis.call('set', KEYS[1], '1') "
        "redis.call('publish', KEYS[2], '1') "
        "redis.call('spublish', KEYS[2], '1') "
        "return 1";
    const auto key = lock_name("sem");
    try {
      const auto value = master_command({"GET", key});
      const std::int64_t permits = value == "(nil)" ? 0 : std::stoll(value);
      if (!sem_watch_.dead(permits, std::chrono::steady_clock::now())) return false;
      const auto start = now_us();
      const auto reply = master_command_on(
          key, {"EVAL", kRepair, "2", key, detail::prefix_name("redisson_sc", key)});
      if (reply != "1") return false;  // a permit came back meanwhile
      int replicas = 0;
      if (group_) {
        replicas =
            group_->node(group_->master_port()).replicas_with_everything(1, milliseconds(2000), "");
      } else if (cluster_) {
        replicas = cluster_->node(cluster_->master_of_slot(slot_of(key)))
                       .replicas_with_everything(1, milliseconds(2000), key);
      }
      sem_watch_.repaired();
      log_fault("sem_repair", start, now_us(), "replicas:" + std::to_string(replicas));
      return true;
    } catch (const std::exception&) {
      return false;  // the master unreachable for now: looked at again next turn
    }
  }

  // The sentinels' and data nodes' logs say when and why they switched; the group's temp dirs
  // go with it.
  // (A restarted cluster node's log starts at its restart.)
  void keep_group_logs() {
    auto keep = [&](const RedisServer& node, const std::string& role) {
      std::error_code ignored;
      std::filesystem::copy_file(node.dir() + "/redis.log",
                                 dir_ + "/" + role + "-" + std::to_string(node.port()) + ".log",
                                 std::filesystem::copy_options::overwrite_existing, ignored);
    };
    if (group_) {
      for (const int port : group_->data_ports()) keep(group_->node(port), "redis");
      for (const int port : group_->sentinel_ports()) keep(group_->node(port), "sentinel");
    }
    if (cluster_) {
      for (const int port : cluster_->ports()) keep(cluster_->node(port), "redis");
    }
  }

  // The server the workers use for the command's key (args[1]): the one server, whichever node
  // the sentinels name master now, or the cluster master serving the key's slot.
  std::string master_command(const std::vector<std::string>& args) {
    return master_command_on(args.at(1), args);
  }
  // The same for a command whose key is not its first argument (EVAL).
  std::string master_command_on(const std::string& key, const std::vector<std::string>& args) {
    if (group_) return group_->command(group_->master_port(), args);
    if (cluster_) return cluster_->command(cluster_->master_of_slot(slot_of(key)), args);
    return server_->command(args);
  }

  // A keyless command (CLIENT KILL) on a master the workers use: in a cluster, the one serving a
  // chaos lock chosen at random.
  std::string any_master_command(const std::vector<std::string>& args) {
    if (!cluster_) return master_command(args);
    const auto& kind = mode_.kinds[random_() % mode_.kinds.size()];
    const int port = cluster_->master_of_slot(slot_of(lock_name(kind)));
    return "port:" + std::to_string(port) + ":" + cluster_->command(port, args);
  }

  // The master serving each chaos lock's slot (0 while unknown).
  std::map<int, int> lock_owners() {
    std::map<int, int> owners;
    for (const auto& kind : all_kinds()) {
      const int slot = slot_of(lock_name(kind));
      try {
        owners[slot] = cluster_->master_of_slot(slot);
      } catch (const std::exception&) {
        owners[slot] = 0;
      }
    }
    return owners;
  }

  void spawn(std::size_t index) {
    std::vector<std::string> args = {
        "redisson-chaos", "worker",
        "--log",          dir_ + "/worker-" + std::to_string(index) + ".log",
        "--kinds",        join(mode_.kinds),
        "--lease-ms",     std::to_string(lease_.count()),
        "--fenced",       mode_.fenced_resource ? "1" : "0",
        "--seed",         std::to_string(random_())};
    if (mode_.sync_replicas) args.insert(args.end(), {"--sync-replicas", "1"});
    if (cluster_) {
      std::vector<std::string> seeds;
      for (const int port : cluster_->ports()) seeds.push_back("127.0.0.1:" + std::to_string(port));
      args.insert(args.end(), {"--cluster", join(seeds)});
    } else if (group_) {
      std::vector<std::string> sentinels;
      for (const int port : group_->sentinel_ports()) {
        sentinels.push_back("127.0.0.1:" + std::to_string(port));
      }
      args.insert(args.end(),
                  {"--sentinels", join(sentinels), "--master-name", group_->master_name()});
    } else {
      args.insert(args.end(), {"--url", proxies_[index]->url()});
    }
    std::vector<char*> argv;
    for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      // Only exec-safe calls between fork and exec: the child starts from a clean image.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      // Without this a worker inherits the proxies' sockets (Asio does not open them
      // close-on-exec): a proxy reset then closed only the driver's copy, sent no RST, and left
      // other workers' connections half-open for the rest of the run (their commands timed
      // out, nothing ever told them to reconnect).
      if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
        for (int fd = 3; fd < 65536; ++fd) ::close(fd);
      }
      execv(self_.c_str(), argv.data());
      _exit(127);
    }
    pids_[index] = pid;
  }

  // The worker's incarnation is dead: "R <now_us>" ends its log, so the next incarnation's log
  // does not start with the dead one's "A" line. Without it pick_holder() took a worker for a
  // holder until its new incarnation wrote a line, and killed it mid-wait: a dead fair-lock
  // waiter keeps its place in the queue for the whole wait slot (5 minutes, Redisson's
  // default), and the fair lock stalled for the rest of the run.
  void mark_restart(std::size_t index) {
    std::ofstream log(dir_ + "/worker-" + std::to_string(index) + ".log", std::ios::app);
    log << "R " << now_us() << '\n';
  }

  void reap_and_respawn() {
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      int status = 0;
      if (pids_[i] > 0 && waitpid(pids_[i], &status, WNOHANG) == pids_[i]) {
        log_fault("worker_exit", now_us(), now_us(), "worker " + std::to_string(i));
        mark_restart(i);
        spawn(i);
      }
    }
  }

  // A worker that holds a lock of one of `kinds` right now (per its log), or -1.
  int pick_holder(bool lease_based_only) {
    std::vector<int> holders;
    for (std::size_t i = 0; i < pids_.size(); ++i) {
      const auto line = last_line(dir_ + "/worker-" + std::to_string(i) + ".log");
      if (line.rfind("A ", 0) != 0) continue;
      // A semaphore permit has no lease: a killed holder's permit would be gone for good.
      if (lease_based_only && line.rfind("A sem ", 0) == 0) continue;
      holders.push_back(static_cast<int>(i));
    }
    if (holders.empty()) return -1;
    return holders[random_() % holders.size()];
  }

  void log_fault(const std::string& kind, std::int64_t start, std::int64_t end,
                 const std::string& detail) {
    faults_ << "F " << kind << ' ' << start << ' ' << end << ' ' << detail << '\n';
    faults_.flush();
  }

  void hold_for(milliseconds duration) { std::this_thread::sleep_for(duration); }

  void inject(const std::string& fault) {
    auto start = now_us();
    std::string detail = "-";
    try {
      if (fault == "sigkill_holder") {
        const int holder = pick_holder(/*lease_based_only=*/true);
        if (holder < 0) return;
        kill(pids_[static_cast<std::size_t>(holder)], SIGKILL);
        waitpid(pids_[static_cast<std::size_t>(holder)], nullptr, 0);
        detail = "worker" + std::to_string(holder);
        mark_restart(static_cast<std::size_t>(holder));
        spawn(static_cast<std::size_t>(holder));
      } else if (fault == "sigstop_holder_short" || fault == "sigstop_holder_long") {
        const int holder = pick_holder(/*lease_based_only=*/false);
        if (holder < 0) return;
        const auto pause = fault == "sigstop_holder_short" ? lease_ / 3 : lease_ + lease_ / 2;
        const pid_t pid = pids_[static_cast<std::size_t>(holder)];
        kill(pid, SIGSTOP);
        hold_for(pause);
        kill(pid, SIGCONT);
        detail = "worker" + std::to_string(holder) + ":" + std::to_string(pause.count()) + "ms";
      } else if (fault == "redis_restart") {
        server_->stop();
        server_->start();
      } else if (fault == "client_kill_normal") {
        detail = any_master_command({"CLIENT", "KILL", "TYPE", "normal"});
      } else if (fault == "client_kill_pubsub") {
        detail = master_command({"CLIENT", "KILL", "TYPE", "pubsub"});
      } else if (fault == "client_pause") {
        const auto pause = lease_ / 6;
        master_command({"CLIENT", "PAUSE", std::to_string(pause.count())});
        hold_for(pause);
        detail = std::to_string(pause.count()) + "ms";
      } else if (fault == "debug_sleep") {
        const auto pause = lease_ / 6;
        master_command({"DEBUG", "SLEEP", std::to_string(pause.count() / 1000.0)});
        detail = std::to_string(pause.count()) + "ms";
      } else if (fault == "proxy_delay") {
        const auto worker = random_() % proxies_.size();
        proxies_[worker]->set_latency(Direction::both, milliseconds(100));
        hold_for(milliseconds(1000));
        proxies_[worker]->heal();
        detail = "worker" + std::to_string(worker) + ":100ms:1000ms";
      } else if (fault == "proxy_partition_short" || fault == "proxy_partition_long") {
        const int holder = pick_holder(/*lease_based_only=*/false);
        if (holder < 0) return;
        auto& proxy = *proxies_[static_cast<std::size_t>(holder)];
        const auto cut = fault == "proxy_partition_short" ? lease_ / 3 : lease_ + lease_ / 2;
        proxy.partition();
        hold_for(cut);
        proxy.heal();
        detail = "worker" + std::to_string(holder) + ":" + std::to_string(cut.count()) + "ms";
      } else if (fault == "proxy_reset") {
        for (auto& proxy : proxies_) proxy->reset_all();
      } else if (is_failover(fault)) {
        // Settling can take seconds (the sentinels see a restarted node as a replica up to 10 s
        // after it rejoined), so the end may have come too close meanwhile.
        settle();
        if (too_close_to_the_end()) return;
        detail = cluster_ ? cluster_failover(fault, start) : failover(fault, start);
      }
    } catch (const std::exception& e) {
      detail = std::string("driver_error:") + e.what();
      for (auto& c : detail) {
        if (c == ' ' || c == '\n') c = '_';
      }
    }
    log_fault(fault, start, now_us(), detail);
  }

  // The group or cluster settled (see wait_settled(), RedisCluster::wait_until_ok()), and any
  // switch the driver did not make noticed. Before each failover and before the final reads.
  void settle() {
    if (group_) wait_settled();
    if (cluster_) cluster_->wait_until_ok();
    notice_switch();
  }

  // A failover that could not finish before the end would leave the group unsettled for the
  // final reads (and its losses unmeasured).
  bool too_close_to_the_end() const {
    return until_ - std::chrono::steady_clock::now() < 2 * kFailoverTimeout;
  }

  // With sync_replicas: when the replica on `port`, once promoted, first has a replica of its
  // own that acknowledges a write, polled from the fault's start on another thread for up to
  // 30 s: ":linked_after:<ms>ms:replicated_after:<ms>ms" (ms since the fault's start) for the
  // fault's detail, or "" without sync_replicas. Until a replica acknowledges, the clients must
  // refuse writes there (the checker counts that time as the servers').
  // linked_after is when INFO first listed a replica as online; replicated_after can be up to a
  // second later. Why: after a diskless full sync a Redis 7.0 master starts sending the replica
  // the stream of writes only on the replica's first acknowledgement, and when that arrives
  // before the master has reaped its RDB child the stream waits for the next one, the replica's
  // once-a-second heartbeat. Meanwhile INFO says "online", yet no write made since the sync can
  // be acknowledged (seen in the cluster runs: every WAIT on the new master held ~800 ms, then
  // all answered at once).
  // `acknowledged(port)`: whether a write made on that node just now was acknowledged by a
  // replica within a short WAIT (each WAIT asks the replicas afresh); throws while the node
  // takes no writes.
  template <class Command, class Acknowledged>
  std::future<std::string> replicated_after(Command command, Acknowledged acknowledged, int port,
                                            std::int64_t start) {
    if (!mode_.sync_replicas)
      return std::async(std::launch::deferred, [] { return std::string(); });
    return std::async(std::launch::async, [this, command, acknowledged, port, start] {
      return poll_replicated(command, acknowledged, port, start);
    });
  }
  template <class Command, class Acknowledged>
  std::string poll_replicated(const Command& command, const Acknowledged& acknowledged, int port,
                              std::int64_t start) {
    // Each time is when it was first seen or, not seen in time, when the poll gave up: a lower
    // bound (the checker caps it at the clients' 10 s of refusals anyway).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto seen = [&](auto&& condition) {
      while (std::chrono::steady_clock::now() < deadline) {
        try {
          if (condition()) break;
        } catch (const std::exception&) {
          // Not answering, or not taking writes, for now: asked again.
        }
        std::this_thread::sleep_for(milliseconds(20));
      }
      return std::to_string((now_us() - start) / 1000) + "ms";
    };
    const auto linked = seen([&] {
      return command(port, {"INFO", "replication"}).find("state=online") != std::string::npos;
    });
    const auto replicated = seen([&] { return acknowledged(port); });
    return ":linked_after:" + linked + ":replicated_after:" + replicated;
  }

  // A failover of the group, from a settled state. The fault lasts from its start until the
  // sentinels name the other node and it answers as master (for master_kill: until the killed
  // node runs again, as a replica-to-be). Detail: old and new master, when the switch was seen.
  std::string failover(const std::string& fault, std::int64_t& start) {
    start = now_us();
    next_failover_ = std::chrono::steady_clock::now() + 2 * kFailoverTimeout + milliseconds(1000);
    const int old_master = group_->master_port();
    auto replicated = replicated_after(
        [this](int port, const std::vector<std::string>& args) {
          return group_->command(port, args);
        },
        [this](int port) {
          return group_->node(port).replicas_with_everything(1, kAcknowledgedWithin) >= 1;
        },
        group_->replica_port(), start);
    if (fault == "sentinel_failover") {
      group_->failover();
    } else {
      // SIGKILL: no shutdown, no last fsync beyond what appendfsync always already did.
      kill(group_->node(old_master).pid(), SIGKILL);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (master_or_zero() == old_master || master_or_zero() == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
          throw std::runtime_error("no promotion after killing the master");
        }
        std::this_thread::sleep_for(milliseconds(20));
      }
    }
    const auto switched = now_us();
    known_master_ = group_->master_port();
    if (fault == "master_kill") {
      group_->stop_node(old_master);  // reaps the killed process
      group_->start_node(old_master);
    }
    return "old:" + std::to_string(old_master) + ":new:" + std::to_string(known_master_) +
           ":switched_after:" + std::to_string((switched - start) / 1000) + "ms" + replicated.get();
  }

  // A failover of the master serving one chaos lock (chosen at random), from a settled cluster.
  // The fault lasts from its start until the cluster has settled again (for master_kill: with
  // the killed node restarted and rejoined as a replica). Detail: old and new master of the slot,
  // when the switch was seen (the replica answering ROLE as master, or a master's CLUSTER NODES
  // naming another node for the slot), the slot, and every chaos lock's slot the old master
  // served (":slots:a,b").
  std::string cluster_failover(const std::string& fault, std::int64_t& start) {
    const auto& kind = mode_.kinds[random_() % mode_.kinds.size()];
    const int slot = slot_of(lock_name(kind));
    start = now_us();
    next_failover_ = std::chrono::steady_clock::now() + 2 * kFailoverTimeout + milliseconds(1000);
    const int old_master = cluster_->master_of_slot(slot);
    const int replica = cluster_->replica_of(old_master);
    // Every chaos lock this master serves moves with the failover (the checker measures them
    // all), not only the one it was chosen for.
    std::set<int> moved{slot};
    for (const auto& [other_slot, owner] : lock_owners()) {
      if (owner == old_master) moved.insert(other_slot);
    }
    std::string slots;
    for (const int each : moved) slots += (slots.empty() ? "" : ",") + std::to_string(each);
    auto replicated = replicated_after(
        [this](int port, const std::vector<std::string>& args) {
          return cluster_->command(port, args);
        },
        [this, slot_key = lock_name(kind)](int port) {
          return cluster_->node(port).replicas_with_everything(1, kAcknowledgedWithin, slot_key) >=
                 1;
        },
        replica, start);
    std::int64_t switched = 0;
    if (fault == "cluster_failover") {
      // failover() returns once the whole cluster has settled; the switch itself is seen here.
      std::atomic<bool> done{false};
      std::atomic<std::int64_t> seen{0};
      std::thread watcher([&] {
        while (!done) {
          try {
            if (cluster_->command(replica, {"ROLE"}).rfind("master", 0) == 0) {
              seen = now_us();
              return;
            }
          } catch (const std::exception&) {
          }
          std::this_thread::sleep_for(milliseconds(10));
        }
      });
      try {
        cluster_->failover(replica);
      } catch (...) {
        done = true;
        watcher.join();
        throw;
      }
      done = true;
      watcher.join();
      switched = seen != 0 ? seen.load() : now_us();
    } else {
      // SIGKILL: the others notice after node_timeout, and the replica wins the election.
      kill(cluster_->node(old_master).pid(), SIGKILL);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      for (;;) {
        int owner = 0;
        try {
          owner = cluster_->master_of_slot(slot);
        } catch (const std::exception&) {
        }
        if (owner != 0 && owner != old_master) break;
        if (std::chrono::steady_clock::now() > deadline) {
          throw std::runtime_error("no promotion after killing the master");
        }
        std::this_thread::sleep_for(milliseconds(20));
      }
      switched = now_us();
      cluster_->stop_node(old_master);  // reaps the killed process
      cluster_->start_node(old_master);
      cluster_->wait_until_ok();
    }
    const int new_master = cluster_->master_of_slot(slot);
    known_owners_ = lock_owners();
    return "old:" + std::to_string(old_master) + ":new:" + std::to_string(new_master) +
           ":switched_after:" + std::to_string((switched - start) / 1000) + "ms" +
           replicated.get() + ":slot:" + std::to_string(slot) + ":slots:" + slots;
  }

  // wait_until_ready(), and every sentinel has itself seen the replica report the replica role.
  // A sentinel polls a replica's INFO only every 10 s: one that last saw a restarted old master
  // still reporting "master" turns the node back into a replica when it next looks, and if a
  // failover has promoted that node meanwhile, undoes the promotion (seen: the manual failover
  // then aborts after failover-timeout).
  void wait_settled() {
    group_->wait_until_ready();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      const int master = group_->master_port();
      const int replica = group_->replica_port();
      bool settled = true;
      for (const int sentinel : group_->sentinel_ports()) {
        // One replica: its fields come as alternating name and value lines.
        const auto reply =
            group_->command(sentinel, {"SENTINEL", "REPLICAS", group_->master_name()});
        std::map<std::string, std::string> fields;
        std::istringstream lines(reply);
        for (std::string name, value; std::getline(lines, name) && std::getline(lines, value);) {
          fields[name] = value;
        }
        settled = settled && fields["port"] == std::to_string(replica) &&
                  fields["role-reported"] == "slave" &&
                  fields["master-port"] == std::to_string(master);
      }
      if (settled) return;
      if (std::chrono::steady_clock::now() > deadline) {
        throw std::runtime_error("the sentinels did not all see the replica as one");
      }
      std::this_thread::sleep_for(milliseconds(100));
    }
  }

  int master_or_zero() {
    try {
      return group_->master_port();
    } catch (const std::exception&) {
      return 0;
    }
  }

  void stop_workers() {
    for (auto& proxy : proxies_) proxy->heal();
    for (auto pid : pids_) {
      if (pid > 0) kill(pid, SIGTERM);
    }
    // A worker finishes its current wait (at most 10 s) and critical section, then exits.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (auto& pid : pids_) {
      while (pid > 0) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        if (std::chrono::steady_clock::now() > until) {
          kill(pid, SIGKILL);
          waitpid(pid, &status, 0);
          log_fault("shutdown_kill", now_us(), now_us(), std::to_string(pid));
          break;
        }
        std::this_thread::sleep_for(milliseconds(20));
      }
      pid = -1;
    }
  }

  // The masters holding the chaos locks' keys (every key of a lock carries the lock's name as
  // its hash tag, so it lives on the lock's slot): the one server, the group's master, or the
  // cluster masters serving the locks' slots.
  std::vector<std::function<std::string(const std::vector<std::string>&)>> lock_masters() {
    std::vector<std::function<std::string(const std::vector<std::string>&)>> masters;
    if (cluster_) {
      std::set<int> ports;
      for (const auto& kind : all_kinds()) {
        ports.insert(cluster_->master_of_slot(slot_of(lock_name(kind))));
      }
      for (const int port : ports) {
        masters.emplace_back([this, port](const std::vector<std::string>& args) {
          return cluster_->command(port, args);
        });
      }
    } else if (group_) {
      masters.emplace_back([this](const std::vector<std::string>& args) {
        return group_->command(group_->master_port(), args);
      });
    } else {
      masters.emplace_back(
          [this](const std::vector<std::string>& args) { return server_->command(args); });
    }
    return masters;
  }

  // Every key of the chaos locks that should be gone once nobody holds or waits: lock hashes,
  // fair-lock queue and timeout entries, waiter sets, read-write hold timeouts, request-id
  // latches. Kept for good, so never listed: the counters, the fenced resource, the semaphore
  // (its permits are checked on their own) and the fenced lock's token counter.
  std::vector<std::pair<std::string, std::string>> leftover_keys() {
    static const std::set<std::string> kept = {fenced_resource(), lock_name("sem"),
                                               "redisson_lock_token:{" + lock_name("fenced") + "}"};
    std::vector<std::pair<std::string, std::string>> left;
    for (const auto& master : lock_masters()) {
      std::string cursor = "0";
      do {
        // The reply is flattened: the next cursor, then the keys, one a line.
        std::istringstream reply(master({"SCAN", cursor, "MATCH", "*chaos:*", "COUNT", "1000"}));
        std::getline(reply, cursor);
        for (std::string key; std::getline(reply, key);) {
          if (key.empty() || key == "(empty array)" || kept.count(key) ||
              key.rfind(counter_name(""), 0) == 0) {
            continue;
          }
          left.emplace_back(key, master({"TYPE", key}) + ":pttl=" + master({"PTTL", key}));
        }
      } while (cursor != "0" && !cursor.empty());
    }
    return left;
  }

  void write_final() {
    std::ofstream out(dir_ + "/final.txt");
    out << "mode " << mode_.promise << "\nlease_ms " << lease_.count() << '\n';
    for (const auto& kind : all_kinds()) {
      std::string value = master_command({"GET", counter_name(kind)});
      if (value == "(nil)") value = "0";
      out << "counter " << kind << ' ' << value << '\n';
    }
    std::string resource = master_command({"HGET", fenced_resource(), "value"});
    out << "counter resource " << (resource == "(nil)" ? "0" : resource) << '\n';
    // Every worker released on its way out, so the semaphore has its one permit back.
    const auto permits = master_command({"GET", lock_name("sem")});
    out << "permits " << (permits == "(nil)" ? "0" : permits) << '\n';
    // Every worker unlocked on its way out; a lock that failed to unlock (a fault at the end)
    // still ends with its lease. Whatever outlives one more lease is left behind, except a
    // request-id latch: it lives as long as the retries of its request could (kLatchLifetime),
    // then expires.
    const auto start = std::chrono::steady_clock::now();
    const auto until = start + lease_ + milliseconds(2000);
    const auto latches_until = start + kLatchLifetime + milliseconds(2000);
    auto left = leftover_keys();
    auto waiting_on_time = [&] {
      const auto now = std::chrono::steady_clock::now();
      if (now < until) return true;
      const bool only_latches = std::all_of(left.begin(), left.end(), [](const auto& key) {
        return key.first.find("_latch:") != std::string::npos;
      });
      return only_latches && now < latches_until;
    };
    while (!left.empty() && waiting_on_time()) {
      std::this_thread::sleep_for(milliseconds(100));
      left = leftover_keys();
    }
    for (const auto& [key, what] : left) out << "left " << key << ' ' << what << '\n';
  }

  Mode mode_;
  std::string dir_;
  milliseconds lease_;
  std::string self_;
  std::mt19937_64 random_;
  std::unique_ptr<RedisServer> server_;        // Topology::single
  std::unique_ptr<RedisSentinelGroup> group_;  // Topology::sentinel
  std::unique_ptr<RedisCluster> cluster_;      // Topology::cluster
  std::vector<std::unique_ptr<FaultProxy>> proxies_;
  std::chrono::steady_clock::time_point next_failover_{};
  std::chrono::steady_clock::time_point until_{};  // the end of the fault loop
  int known_master_ = 0;  // the master as of the last failover the driver made or noticed
  std::map<int, int> known_owners_;  // cluster: slot of each lock -> its master, the same way
  std::vector<pid_t> pids_;
  SemaphoreWatch sem_watch_;
  std::ofstream faults_;
};

}  // namespace

std::vector<std::string> configuration_names() {
  std::vector<std::string> names;
  for (const auto& mode : modes()) names.push_back(mode.name);
  return names;
}

int run_driver(const DriverOptions& options, const std::string& self) {
  const auto seconds = options.seconds;
  const auto& out = options.out;
  const int workers = options.workers;
  const milliseconds lease = options.lease;
  const auto seed = options.seed.value_or(static_cast<std::uint64_t>(now_us()));
  const auto& only = options.only;
  std::signal(SIGPIPE, SIG_IGN);

  std::vector<std::string> dirs;
  std::uint64_t salt = 0;
  for (const auto& mode : modes()) {
    if (!only.empty() && only != mode.name) continue;
    const auto share = only.empty() ? mode.share : 1.0;
    const auto duration =
        std::chrono::seconds(std::max<std::int64_t>(5, static_cast<std::int64_t>(seconds * share)));
    const auto dir = out + "/" + mode.name;
    std::cout << "chaos: " << mode.name << " for " << duration.count() << " s, " << workers
              << " workers, lease " << lease.count() << " ms, seed " << seed + salt << std::endl;
    Run run(mode, dir, workers, lease, self, seed + salt++);
    run.execute(duration);
    dirs.push_back(dir);
  }
  return run_checker(dirs, out + "/summary.json");
}

}  // namespace redisson::chaos
