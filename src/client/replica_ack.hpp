// Replica acknowledgement of synchronizer writes (Config::sync_replicas, Redisson's
// checkLockSyncedSlaves, which covers locks; here semaphores and latches too).
//
// After a state-changing script of a lock, semaphore or latch is queued on a node's connection,
// follow() queues on the same connection `WAIT 1 <sync_replicas_timeout>`: WAIT covers every write
// the connection made before it, so it says whether at least one replica has the script's effect.
// One acknowledging replica is the whole criterion ("none acknowledged" is the failure), so WAIT
// asks for one and returns as soon as one answered instead of waiting for the slowest replica.
//
// The node's replica count comes from `INFO replication` (connected_slaves), asked once per node
// before its first WAIT and again after a WAIT that nobody acknowledged (the replicas may be gone);
// for a node without replicas it is asked after every write, so that a replica that comes back is
// waited on from the next write (what was written unchecked while it was back would be lost if a
// failover promoted it). A node without replicas gets no WAIT at all, except one that had replicas
// within the last kRecount: it is still WAITed on, so its acquisitions fail with not_replicated.
// Why: a master loses its replica the moment a failover promotes it, about a second before clients
// hear of the switch, and what they write to the old master in between is lost with it (a fencing
// token drawn there would be drawn again from the new master). A replica that is gone for good
// costs kRecount of refused acquisitions, after which the master is used unchecked, as Redisson
// does. A node that has just become a master (masters_changed: a failover promoted it) is treated
// the same way: it is WAITed on for kRecount even though its first count finds no replica, since
// that count is usually taken before the sentinels or the cluster made the old master its replica,
// and a second failover back to the old master (which comes back with its own data) would lose
// what was written to it unchecked meanwhile; the failover-sync soak saw fencing tokens drawn
// twice that way. A server or proxy that refuses WAIT or INFO (an error reply) is remembered, and
// nothing is sent to any node of this client afterwards. Until a node's count and the first WAIT
// have been answered, further calls for it wait for those answers instead of asking again, so a
// refusal is met once; those that waited for a count of none share the next count. An error a
// failover causes (WAIT sent to a master demoted meanwhile) is no refusal: remembered, it would
// switch off every later check of that client, and the next failover would lose writes reported as
// acknowledged.
//
// Cost: with healthy replicas, one extra command per synchronizer write and the replica's
// acknowledgement time (a round trip master -> replica -> master); on a node without replicas, one
// `INFO replication` per write instead. WAIT blocks the connection it runs on: while no replica
// answers, each such write holds the node's pipelined connection for up to sync_replicas_timeout.
//
// Threading: follow() may be called from any thread; outcomes are delivered on the I/O thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "net/connection.hpp"

namespace redisson::detail {

/// What the replicas said about the writes queued on a connection before follow().
enum class ReplicaOutcome {
  acknowledged,      ///< at least one replica has them
  no_replicas,       ///< the node has no replicas: nothing to wait for
  unchecked,         ///< WAIT or INFO is refused here (a proxy, an ACL): not checked
  not_acknowledged,  ///< replicas exist and none acknowledged in time (or WAIT got no answer)
};

class ReplicaAck : public std::enable_shared_from_this<ReplicaAck> {
 public:
  /// How long a node that lost its replicas is still WAITed on (its writes refused) before it is
  /// used unchecked.
  static constexpr std::chrono::seconds kRecount{10};

  ReplicaAck(std::chrono::milliseconds wait_timeout, std::chrono::milliseconds command_timeout);

  /// Queues what it takes to learn whether a replica of `node` ("host:port") acknowledged the
  /// writes already queued on `connection`, and calls `done` with the outcome.
  void follow(const std::shared_ptr<Connection>& connection, const std::string& node,
              std::function<void(ReplicaOutcome)> done);

  /// The client's masters now ("host:port"), after a topology change (or, the first time, as
  /// the client started): a node that was not a master before is WAITed on for kRecount from
  /// now, with or without replicas. Any thread.
  void masters_changed(const std::vector<std::string>& masters);

  /// True once a server refused WAIT or INFO: follow() then answers `unchecked` at once.
  bool refused() const;

  /// The `connected_slaves` count in an INFO replication reply; nullopt when it has none.
  static std::optional<int> connected_replicas(std::string_view info);

  /// Whether an error reply to WAIT or INFO means the server refuses it for good (an unknown or
  /// renamed command, an ACL, a proxy): then nothing more is sent. Not so for a node that is a
  /// replica now ("WAIT cannot be used with replica instances": a failover demoted it) or one
  /// that is loading or busy: that write is not acknowledged, and the next one is checked again.
  static bool refuses_for_good(std::string_view error);

 private:
  using Done = std::function<void(ReplicaOutcome)>;
  struct Waiter {
    std::shared_ptr<Connection> connection;
    Done done;
  };
  struct NodeState {
    int replicas = -1;  // -1: unknown; 0 is counted again before every write
    // When a count or a WAIT last showed a replica; never: the epoch.
    Clock::time_point replicated_at{};
    // A count or the first WAIT is under way: later calls wait for its answer instead of
    // asking again (the scripts' NOSCRIPT resends and concurrent callers would).
    bool probing = false;
    std::vector<Waiter> waiters;
  };

  void probe(const std::shared_ptr<Connection>& connection, const std::string& node,
             bool count_first, Done done);
  void send_wait(const std::shared_ptr<Connection>& connection, const std::string& node,
                 bool probing, Done done);
  void end_probe(const std::string& node);
  /// Whether `state` is to be WAITed on though its last count found no replica: see the top.
  static bool lost_replicas_lately(const NodeState& state);
  void forget(const std::string& node);

  std::chrono::milliseconds wait_timeout_;
  std::chrono::milliseconds command_timeout_;
  mutable std::mutex mutex_;  // guards the four below
  std::map<std::string, NodeState, std::less<>> nodes_;
  std::optional<std::set<std::string>> masters_;  // the last masters_changed(); none before
  bool refused_ = false;
  bool wait_answered_ = false;  // some server answered WAIT: it is not refused here
};

}  // namespace redisson::detail
