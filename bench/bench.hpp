// What every scenario gets from the command line, and the scenarios themselves.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "redisson/config.hpp"

namespace redisson_bench {

struct Options {
  std::string url = "redis://127.0.0.1:6379";
  redisson::ServerAddress server;  ///< parsed from url
  std::chrono::nanoseconds duration = std::chrono::seconds(5);
  int in_flight = 256;           ///< raw: commands kept outstanding
  std::optional<int> processes;  ///< multi-process scenarios: worker processes (their default)
  std::string hold_mode;         ///< "spin" (busy, exact) or "sleep"; empty: the scenario's
  std::string run_id;            ///< makes key names unique per run
  std::vector<std::string> cluster_urls;  ///< parallel-cluster: a seed URL per cluster node
  int locks = 100'000;                    ///< many-locks: locks held at once
  std::chrono::nanoseconds hold_time = std::chrono::seconds(60);  ///< many-locks: how long
  std::chrono::milliseconds watchdog_timeout{30'000};  ///< many-locks: the client's lease
};

/// Parses "5s", "500ms", "1.5s", "2m", "250us" or a bare number of seconds.
std::chrono::nanoseconds parse_duration(const std::string& text);

double seconds(std::chrono::nanoseconds d) noexcept;

/// A key name no other run or scenario uses: "redisson-bench:<run>:<what>".
std::string bench_key(const Options& options, const std::string& what);

// Each scenario runs for about options.duration (plus bounded set-up and reference runs) and
// returns its JSON result. Failures throw; main() reports them as {"scenario", "error"}.
nlohmann::json run_raw(const Options& options);
nlohmann::json run_bucket(const Options& options);
nlohmann::json run_map(const Options& options);
nlohmann::json run_queue(const Options& options);
nlohmann::json run_map_cache(const Options& options);
nlohmann::json run_script_families(const Options& options);
nlohmann::json run_blocking_queue(const Options& options);
nlohmann::json run_atomic_long(const Options& options);
nlohmann::json run_uncontended(const Options& options);
nlohmann::json run_parallel(const Options& options);
nlohmann::json run_parallel_cluster(const Options& options);
nlohmann::json run_handoff(const Options& options);
nlohmann::json run_contention(const Options& options);
nlohmann::json run_fair_contention(const Options& options);
nlohmann::json run_rw(const Options& options);
nlohmann::json run_semaphore(const Options& options);
nlohmann::json run_rate_limiter(const Options& options);
/// Topic delivery latency across processes and publish throughput (scenario_topic.cpp).
nlohmann::json run_topic(const Options& options);
/// One publisher, 100 listeners in 4 processes (scenario_topic.cpp).
nlohmann::json run_topic_fanout(const Options& options);
/// ReliableTopic delivery latency at 1,000 messages/s (scenario_reliable_topic.cpp).
nlohmann::json run_reliable_topic(const Options& options);
/// Batches of 1,000 mixed operations (issue 32).
nlohmann::json run_batch(const Options& options);
/// RemoteService call round trip, with and without the ack (scenario_remote.cpp).
nlohmann::json run_remote(const Options& options);
/// LocalCachedMap: cached get/s vs Map::get/s, and a put's time until another process's cache
/// dropped the old value (scenario_near_cache.cpp).
nlohmann::json run_near_cache(const Options& options);
/// ExecutorService: tasks/s with 4 worker processes, submit -> start and round-trip latency
/// (scenario_executor.cpp).
nlohmann::json run_executor(const Options& options);
/// One client holding options.locks watchdog-renewed locks for options.hold_time.
nlohmann::json run_many_locks(const Options& options);
/// No server: ns per value to encode and decode with the kryo5 and json codecs.
nlohmann::json run_codec(const Options& options);

/// Arguments of a worker process (hidden --worker mode).
struct WorkerOptions {
  Options common;
  std::string kind;  ///< "handoff" or "contention"
  int index = 0;
  std::string lock_name;
  std::int64_t hold_ns = 1'000'000;
  std::string sync_kind = "lock";  ///< contention workers: lock, fair, rw, semaphore
};

/// Worker bodies: run in a child process with the shared-memory region on fd 3, print one
/// JSON object on stdout, return the exit status.
int worker_handoff(const WorkerOptions& options);
int worker_contention(const WorkerOptions& options);
int worker_queue_consumer(const WorkerOptions& options);
int worker_topic_subscriber(const WorkerOptions& options);
int worker_topic_fanout(const WorkerOptions& options);
int worker_reliable_topic(const WorkerOptions& options);
/// kind "near-cache-invalidate" or "near-cache-update": the reader instance of near-cache.
int worker_near_cache(const WorkerOptions& options);
/// kind "executor": a worker process of the executor scenario (register_workers, 1 worker).
int worker_executor(const WorkerOptions& options);

/// The command line that starts worker `index` of `kind` for this run.
std::vector<std::string> worker_command(const Options& options, const std::string& kind, int index,
                                        const std::string& lock_name, std::int64_t hold_ns = 0);

}  // namespace redisson_bench
