// redisson-bench: runs benchmark scenarios against one Redis server and prints one JSON
// object per scenario per line on stdout. Progress and diagnostics go to stderr.
//
//   redisson-bench --scenario raw|bucket|map|atomic-long|rate-limiter|codec|uncontended|parallel|
//                             parallel-cluster|handoff|contention|fair-contention|rw|semaphore|
//                             many-locks|batch|remote|near-cache|executor|all
//                  [--url URL] [--duration 5s] [--in-flight 256] [--processes 16]
//                  [--cluster-urls URL,URL,...] [--locks 100000] [--hold-time 60s]
//                  [--watchdog-timeout 30s]
//
// Multi-process scenarios re-execute this binary with the hidden --worker options.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>

#include "bench.hpp"
#include "clock.hpp"
#include "raw_pubsub.hpp"
#include "sweep.hpp"

namespace {

using redisson_bench::Options;
using Runner = std::function<nlohmann::json(const Options&)>;

const std::vector<std::pair<std::string, Runner>>& scenarios() {
  static const std::vector<std::pair<std::string, Runner>> kScenarios{
      {"raw", redisson_bench::run_raw},
      {"bucket", redisson_bench::run_bucket},
      {"map", redisson_bench::run_map},
      {"map-cache", redisson_bench::run_map_cache},
      {"script-families", redisson_bench::run_script_families},
      {"queue", redisson_bench::run_queue},
      {"blocking-queue", redisson_bench::run_blocking_queue},
      {"atomic-long", redisson_bench::run_atomic_long},
      {"uncontended", redisson_bench::run_uncontended},
      {"parallel", redisson_bench::run_parallel},
      {"parallel-cluster", redisson_bench::run_parallel_cluster},
      {"handoff", redisson_bench::run_handoff},
      {"contention", redisson_bench::run_contention},
      {"fair-contention", redisson_bench::run_fair_contention},
      {"rw", redisson_bench::run_rw},
      {"semaphore", redisson_bench::run_semaphore},
      {"rate-limiter", redisson_bench::run_rate_limiter},
      {"topic", redisson_bench::run_topic},
      {"topic-fanout", redisson_bench::run_topic_fanout},
      {"reliable-topic", redisson_bench::run_reliable_topic},
      {"codec", redisson_bench::run_codec},
      {"many-locks", redisson_bench::run_many_locks},
      {"batch", redisson_bench::run_batch},
      {"remote", redisson_bench::run_remote},
      {"near-cache", redisson_bench::run_near_cache},
      {"executor", redisson_bench::run_executor},
  };
  return kScenarios;
}

// Every scenario's name, in the order they run with `all`, then "all".
std::string scenario_names() {
  std::string names;
  for (const auto& [name, run] : scenarios()) names += name + ", ";
  return names + "all";
}

// The machine's 1-minute load average: how much else was running (the figures are noisy).
double load_average() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return load;
}

std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The same object with the fields a reader looks for first in front.
nlohmann::ordered_json headline_first(const nlohmann::json& result) {
  static const char* const kFirst[] = {"scenario", "error",  "ops_per_s",    "p50_us",   "p99_us",
                                       "ratio",    "target", "meets_target", "reference"};
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const char* key : kFirst) {
    if (result.contains(key)) out[key] = result[key];
  }
  for (const auto& [key, value] : result.items()) {
    if (!out.contains(key)) out[key] = value;
  }
  return out;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  for (const char c : text) {
    if (c == sep) {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redisson-cpp benchmarks: one JSON object per scenario per line on stdout"};
  std::string scenario = "all";
  std::string duration = "5s";
  Options options;
  redisson_bench::WorkerOptions worker;
  app.add_option("--scenario", scenario, scenario_names() + " (or a comma list)")
      ->capture_default_str();
  app.add_option("--url", options.url, "redis://[user:pass@]host:port[/db]")->capture_default_str();
  app.add_option("--duration", duration, "measured time per scenario (5s, 500ms, 1m)")
      ->capture_default_str();
  app.add_option("--in-flight", options.in_flight, "raw, rate-limiter: calls kept in flight")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  app.add_option("--processes", options.processes,
                 "multi-process scenarios: worker processes (default 16; rw: 17; executor: 4)")
      ->check(CLI::Range(2, 256));
  app.add_option("--cluster-urls", options.cluster_urls,
                 "parallel-cluster: the cluster's node URLs (comma separated)")
      ->delimiter(',');
  app.add_option("--hold-mode", options.hold_mode,
                 "how a holder spends its 1 ms (spin: busy, exact; sleep: off the CPU); default: "
                 "spin for contention and fair-contention, sleep for rw and semaphore")
      ->check(CLI::IsMember({"spin", "sleep"}));
  std::string hold_time = "60s", watchdog_timeout = "30s";
  app.add_option("--locks", options.locks, "many-locks: locks held at once")
      ->check(CLI::Range(1, 10'000'000))
      ->capture_default_str();
  app.add_option("--hold-time", hold_time,
                 "many-locks: how long the locks are held with the watchdog renewing them")
      ->capture_default_str();
  app.add_option("--watchdog-timeout", watchdog_timeout,
                 "many-locks: the client's lock_watchdog_timeout (renewal every third of it)")
      ->capture_default_str();
  // Hidden: how the multi-process scenarios start their workers.
  app.add_option("--worker", worker.kind)->group("");
  app.add_option("--worker-index", worker.index)->group("");
  app.add_option("--lock-name", worker.lock_name)->group("");
  app.add_option("--hold-ns", worker.hold_ns)->group("");
  app.add_option("--sync-kind", worker.sync_kind)->group("");
  app.add_option("--run-id", options.run_id)->group("");
  CLI11_PARSE(app, argc, argv);

  try {
    options.duration = redisson_bench::parse_duration(duration);
    options.hold_time = redisson_bench::parse_duration(hold_time);
    options.watchdog_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(
        redisson_bench::parse_duration(watchdog_timeout));
    if (options.watchdog_timeout.count() <= 0) {
      throw std::invalid_argument("--watchdog-timeout must be at least 1ms");
    }
    options.server = redisson::ServerAddress::from_url(options.url);
  } catch (const std::exception& e) {
    std::cerr << "redisson-bench: " << e.what() << '\n';
    return 2;
  }
  if (options.run_id.empty()) {
    options.run_id = std::to_string(::getpid()) + "-" +
                     std::to_string(redisson_bench::monotonic_ns() / 1000 % 1'000'000'000);
  }

  if (!worker.kind.empty()) {
    // A worker never outlives the benchmark that started it.
    const auto parent = ::getppid();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) return 1;
    worker.common = options;
    try {
      if (worker.kind == "handoff") return redisson_bench::worker_handoff(worker);
      if (worker.kind == "contention") return redisson_bench::worker_contention(worker);
      if (worker.kind == "queue-consumer") return redisson_bench::worker_queue_consumer(worker);
      if (worker.kind == "topic-fanout") return redisson_bench::worker_topic_fanout(worker);
      if (worker.kind == "reliable-topic") {
        return redisson_bench::worker_reliable_topic(worker);
      }
      if (worker.kind.starts_with("near-cache-")) return redisson_bench::worker_near_cache(worker);
      if (worker.kind == "executor") return redisson_bench::worker_executor(worker);
      if (worker.kind == "raw-subscriber") return redisson_bench::worker_raw_subscriber(worker);
      if (worker.kind == "topic-subscriber") {
        return redisson_bench::worker_topic_subscriber(worker);
      }
      std::cerr << "redisson-bench: unknown worker kind " << worker.kind << '\n';
    } catch (const std::exception& e) {
      std::cout << nlohmann::json{{"error", e.what()}}.dump() << std::endl;
    }
    return 1;
  }

  std::vector<std::string> wanted = split(scenario, ',');
  if (wanted.size() == 1 && wanted[0] == "all") {
    wanted.clear();
    for (const auto& [name, run] : scenarios()) {
      // Needs a cluster; `all` includes it only when one was given.
      if (name == "parallel-cluster" && options.cluster_urls.empty()) continue;
      wanted.push_back(name);
    }
  }
  std::map<std::string, Runner> by_name(scenarios().begin(), scenarios().end());
  for (const auto& name : wanted) {
    if (!by_name.contains(name)) {
      std::cerr << "redisson-bench: unknown scenario '" << name << "' (" << scenario_names()
                << ")\n";
      return 2;
    }
  }

  int failures = 0;
  for (const auto& name : wanted) {
    std::cerr << "redisson-bench: " << name << " ..." << std::endl;
    nlohmann::json result;
    const auto started = utc_now();
    try {
      result = by_name[name](options);
    } catch (const std::exception& e) {
      result = {{"scenario", name}, {"error", e.what()}};
    }
    result["started"] = started;
    result["duration_s"] = redisson_bench::seconds(options.duration);
    result["load_avg_1m"] = load_average();
    if (name != "codec") {  // (codec needs no server)
      try {
        result["unlock_latches_swept"] = redisson_bench::sweep_unlock_latches(options);
      } catch (const std::exception& e) {
        result["sweep_error"] = e.what();
      }
    }
    if (result.contains("error")) ++failures;
    std::cout << headline_first(result).dump() << std::endl;
  }
  return failures == 0 ? 0 : 1;
}
