// The chaos run: worker processes contend for locks while a driver injects faults; a checker
// reads what they logged and counts what went wrong. See docs/reliability.md.
//
// Files in a run directory (one per configuration):
//   worker-<i>.log  one line per event of worker i (all its incarnations, appended):
//     A <kind> <start_us>                         acquired (written before the critical section)
//     E <kind> <owner> <token> <wait_start_us> <start_us> <end_us> <read> <wrote> <status> <unlock>
//                                                 one critical section; status ok | fenced_out |
//                                                 unknown (the write's reply was lost) |
//                                                 not_replicated (with --sync-replicas 1: the
//                                                 master has the write, no replica acknowledged
//                                                 it) | failed; unlock: ok, or the error the
//                                                 unlock (the semaphore's release) failed with,
//                                                 by its errc name: not_replicated (the release
//                                                 ran on the master, no replica acknowledged it),
//                                                 timeout, connection_lost, server_busy, ...
//     T <kind> <wait_start_us> <now_us>           gave up waiting
//     X <kind> <wait_start_us> <error> <now_us>   the acquire failed with an error (its errc
//                                                 name; "X sem ... not_replicated": the
//                                                 semaphore acquisition was undone), when it
//                                                 failed (runs before 2026-12-06: no time)
//     R <now_us>                                  written by the driver: this incarnation was
//                                                 killed (or exited) and is being restarted
//   faults.log      F <kind> <start_us> <end_us> <detail>
//                   (failover faults: detail old:<port>:new:<port>:switched_after:<n>ms, and
//                   :slot:<n> on the cluster); also "F sem_repair <start_us> <end_us>
//                   replicas:<n>": no fault, the driver putting back the semaphore's permit
//                   once it was gone for good (semaphore_watch.hpp)
//   final.txt       mode <promise> | lease_ms <n> | seconds <n> | counter <kind> <value> |
//                   permits <n> (the semaphore's, at the end) | left <key> <what>
//                   (the promise: safe | pause | fenced | failover-async (failover: the outage
//                   bound only) | failover-sync (failover-sync and cluster: no acknowledged loss
//                   and the outage bound); runs before these rules wrote "failover" for all
//                   three, which the checker still reads as measured, not promised)
// Times are wall-clock microseconds (one machine, one clock).
// Configurations: safe, pause, fenced (one redis-server behind per-worker fault proxies),
// failover and failover-sync (a Sentinel group; workers take --sentinels host:port,...
// --master-name NAME instead of --url; failover-sync adds --sync-replicas 1) and cluster (a
// Redis Cluster; workers take --cluster host:port,... and --sync-replicas 1).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace redisson::chaos {

inline std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// The lock kinds a worker can take: Lock, FairLock, ReadWriteLock (write), Semaphore with one
/// permit, FencedLock.
inline const std::vector<std::string>& all_kinds() {
  static const std::vector<std::string> kinds = {"lock", "fair", "rw", "sem", "fenced"};
  return kinds;
}
inline std::string lock_name(const std::string& kind) { return "chaos:" + kind; }
inline std::string counter_name(const std::string& kind) { return "chaos:counter:" + kind; }
/// The fenced resource: a hash {value, token} that refuses tokens older than the newest seen.
inline const char* fenced_resource() { return "chaos:resource"; }

/// The workers' Config::command_timeout (the driver derives their latches' lifetime from it).
inline constexpr std::chrono::milliseconds kWorkerCommandTimeout{1000};
/// The workers' Config::sync_replicas_timeout where it is on (failover-sync, cluster).
inline constexpr std::chrono::milliseconds kWorkerSyncReplicasTimeout{500};

/// What `redisson-chaos run` was asked (main.cpp parses and checks it).
struct DriverOptions {
  double seconds = 600;  ///< split over the configurations (each at least 5 s)
  std::string out = "build/chaos";
  int workers = 8;
  std::chrono::milliseconds lease{3000};
  std::optional<std::uint64_t> seed;  ///< none: the clock's microseconds
  std::string only;                   ///< one configuration; empty: all of them
};

/// The configurations a run goes through, in order (`--only` takes one of them).
std::vector<std::string> configuration_names();

/// The worker's "--key value" options, as the driver passes them (the keys without "--").
int run_worker(const std::map<std::string, std::string>& options);
int run_driver(const DriverOptions& options, const std::string& self);
int run_checker(const std::vector<std::string>& dirs, const std::string& summary_path);

}  // namespace redisson::chaos
