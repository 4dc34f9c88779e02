// Throwaway multi-node Redis topologies for integration tests, built from RedisServer:
//   RedisCluster        a Redis Cluster (default 3 masters + 3 replicas)
//   RedisSentinelGroup  a master, a replica and sentinels watching them (default 3, quorum 2)
//   RedisMasters        N independent masters (RedLock)
//
// Every process is a RedisServer: bound to 127.0.0.1, no persistence, a child of the test process
// with a max lifetime, stopped by PID in the destructor. Constructors return once the topology is
// usable (cluster_state:ok everywhere; sentinels agreeing on the master and knowing the replica and
// each other) and throw std::runtime_error, with what the nodes said, when it is not within ~30 s.
// Like RedisServer, construct them on a thread that outlives them (a test body or a fixture).
//
// Cost: a cluster starts in ~3 s (`redis-cli --cluster create` waits a second for the nodes to
// meet, gossip takes about another to agree on roles), a sentinel group in ~2.5 s (sentinels find
// each other through hello messages sent every 2 s), masters in a few milliseconds each. Every
// query method is one or more command() round trips per node; a paused node (RedisServer::pause)
// costs command()'s 5 s timeout and counts as not answering.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/redis_server.hpp"

namespace redisson::test {

struct RedisClusterOptions {
  /// Masters; the 16384 slots are split evenly between them. At least 3 (redis-cli's minimum).
  int masters = 3;
  /// Replicas of each master.
  int replicas_per_master = 1;
  /// cluster-node-timeout: how long until an unreachable node is failed over.
  std::chrono::milliseconds node_timeout{2000};
  /// Extra redis-server arguments for every node.
  std::vector<std::string> extra_args;
  /// Each node is killed this long after each start, even if the test hangs.
  std::chrono::seconds max_lifetime{600};
};

/// A cluster node as it is at the moment of the query.
struct ClusterNode {
  int port = 0;
  /// -1 while the node is stopped.
  pid_t pid = -1;
  /// "master", "replica", "stopped", or "unreachable" (running but not answering ROLE).
  std::string role;
  /// The node's cluster id (40 hex characters); it survives stop_node() + start_node().
  std::string id;
  /// For a replica: the port of the master it replicates; otherwise 0.
  int master_port = 0;
};

/// A Redis Cluster on loopback, joined with `redis-cli --cluster create`. Which of the started
/// nodes become masters is redis-cli's choice: ask master_ports() / replica_of(), never assume.
class RedisCluster {
 public:
  /// Starts the nodes, creates the cluster and waits until wait_until_ok() holds.
  explicit RedisCluster(RedisClusterOptions options = {});
  /// Stops every node by PID. Never throws.
  ~RedisCluster();

  RedisCluster(const RedisCluster&) = delete;
  RedisCluster& operator=(const RedisCluster&) = delete;

  /// Every node's port, in start order (stopped nodes included).
  std::vector<int> ports() const;
  /// Every node, with its role asked from the node (ROLE).
  std::vector<ClusterNode> nodes() const;
  /// Running nodes that say they are masters, in start order.
  std::vector<int> master_ports() const;
  /// Running nodes that say they are replicas, in start order.
  std::vector<int> replica_ports() const;
  /// A running replica of the master on `master_port`; throws std::runtime_error when it has none.
  int replica_of(int master_port) const;
  /// The master serving `slot`, as a running master's CLUSTER NODES says.
  int master_of_slot(int slot) const;
  /// The master serving `slot` as the node on `port` sees it; nullopt when that node names none
  /// or does not answer.
  std::optional<int> master_of_slot_seen_by(int port, int slot) const;

  /// "redis://127.0.0.1:PORT".
  std::string url_of(int port) const;
  /// Every node's URL, in start order: a client's seed list.
  std::vector<std::string> urls() const;

  /// The node on `port` (for command(), pause(), pid(), ...); throws std::out_of_range.
  RedisServer& node(int port);
  const RedisServer& node(int port) const;
  /// node(port).command(args): one raw command, no redirection handling.
  std::string command(int port, const std::vector<std::string>& args) const;

  /// Promotes the replica on `replica_port` with CLUSTER FAILOVER (FORCE when `force`, needed when
  /// its master is down) and waits until it is a master, its old master (if running) replicates
  /// it, and wait_until_ok() holds. Throws std::runtime_error when that does not happen in ~30 s.
  void failover(int replica_port, bool force = false);
  /// Stops the node's process (its nodes.conf stays). The rest of the cluster notices after
  /// node_timeout; a stopped master's replica is then promoted by the cluster itself.
  void stop_node(int port);
  /// Restarts a stopped node on the same port with its old identity; it rejoins the cluster
  /// (a master that was failed over comes back as a replica). Call wait_until_ok() to wait for it.
  void start_node(int port);

  /// Waits until the cluster has settled: every running node says cluster_state:ok and knows every
  /// node; every running replica is linked to its master; and every running node's CLUSTER NODES
  /// shows each running node with the role (and master) that node reports itself, the running
  /// slot-serving masters as the only masters with slots, each of them with the config epoch and
  /// slots it reports itself, and each stopped node flagged "fail".
  /// Throws std::runtime_error, saying what was still wrong, after `timeout`.
  void wait_until_ok(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;
  /// What keeps wait_until_ok() waiting at this moment (one reason), or nullopt when it would
  /// return now.
  std::optional<std::string> unsettled() const;

 private:
  std::string describe() const;

  RedisClusterOptions options_;
  std::vector<std::unique_ptr<RedisServer>> nodes_;
  std::vector<std::string> ids_;
};

struct RedisSentinelOptions {
  std::string master_name = "mymaster";
  int sentinels = 3;
  int quorum = 2;
  /// sentinel down-after-milliseconds: how long until an unreachable master is subjectively down.
  std::chrono::milliseconds down_after{1000};
  /// sentinel failover-timeout; a new failover of the same master waits twice this long.
  std::chrono::milliseconds failover_timeout{5000};
  /// Extra redis-server arguments for the master and the replica (not the sentinels).
  std::vector<std::string> extra_args;
  /// Each process is killed this long after each start, even if the test hangs.
  std::chrono::seconds max_lifetime{600};
};

/// One master, one replica and `sentinels` sentinels monitoring them as master_name().
class RedisSentinelGroup {
 public:
  /// Starts the master, the replica (once linked) and the sentinels, and waits until
  /// wait_until_ready() holds.
  explicit RedisSentinelGroup(RedisSentinelOptions options = {});
  /// Stops every process by PID. Never throws.
  ~RedisSentinelGroup();

  RedisSentinelGroup(const RedisSentinelGroup&) = delete;
  RedisSentinelGroup& operator=(const RedisSentinelGroup&) = delete;

  const std::string& master_name() const { return options_.master_name; }
  /// The sentinels' ports, in start order.
  std::vector<int> sentinel_ports() const;
  /// "redis://127.0.0.1:PORT" of every sentinel: a client's sentinel list.
  std::vector<std::string> sentinel_urls() const;
  /// The two data nodes' ports: the first master, then the first replica.
  std::vector<int> data_ports() const;
  /// The master's port as the first running sentinel reports it (SENTINEL
  /// GET-MASTER-ADDR-BY-NAME); throws std::runtime_error when no sentinel answers with one.
  int master_port() const;
  /// The data node that is not master_port().
  int replica_port() const;
  /// "redis://127.0.0.1:PORT".
  std::string url_of(int port) const;

  /// The data node or sentinel on `port`; throws std::out_of_range.
  RedisServer& node(int port);
  const RedisServer& node(int port) const;
  /// node(port).command(args).
  std::string command(int port, const std::vector<std::string>& args) const;

  /// SENTINEL FAILOVER (retried while the sentinel finds no good replica yet), then waits until
  /// every running sentinel reports the other data node as master and it answers ROLE as master.
  /// The old master is turned into a replica by the sentinels some seconds later (see
  /// wait_until_ready()). Throws std::runtime_error when that does not happen in ~30 s.
  void failover();
  /// Stops a data node or a sentinel (SIGTERM; the sentinel's rewritten config stays).
  void stop_node(int port);
  /// Restarts a stopped node on the same port (a sentinel with the config it rewrote).
  void start_node(int port);

  /// Waits until every running sentinel agrees on the master, sees it up, knows every other
  /// sentinel and lists the replica (when running) without s_down/disconnected flags, and the
  /// replica says it is linked to the master. After failover() that means waiting for the
  /// sentinels to turn the old master into a replica, which they do ~8 s after the switch.
  /// Throws std::runtime_error after `timeout`.
  void wait_until_ready(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const;

 private:
  std::string describe() const;

  RedisSentinelOptions options_;
  std::vector<std::unique_ptr<RedisServer>> data_;
  std::vector<std::unique_ptr<RedisServer>> sentinels_;
};

struct RedisMastersOptions {
  int count = 3;
  /// Extra redis-server arguments for every master.
  std::vector<std::string> extra_args;
  std::chrono::seconds max_lifetime{600};
};

/// `count` independent masters, as RedLock needs.
class RedisMasters {
 public:
  explicit RedisMasters(RedisMastersOptions options = {});

  std::size_t size() const { return servers_.size(); }
  std::vector<int> ports() const;
  std::vector<std::string> urls() const;
  /// The i-th master, in start order.
  RedisServer& operator[](std::size_t i) { return *servers_.at(i); }
  const RedisServer& operator[](std::size_t i) const { return *servers_.at(i); }

 private:
  std::vector<std::unique_ptr<RedisServer>> servers_;
};

}  // namespace redisson::test
