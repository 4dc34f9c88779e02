// contention: N processes (default 16) on one lock, each holding it 1 ms per acquisition
// (busy-waiting by default, so the hold is exact; --hold-mode sleep: nanosleep, which
// overshoots by ~0.1 ms) for the duration. Reports acquisitions/s, per-process max/min, the busy
// fraction (acquisitions x hold / duration), the lock's idle gap between holders, and the
// commands sent per acquisition (INFO commandstats before and after, from a separate client).
#include <atomic>
#include <iostream>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redisson/client.hpp"
#include "report.hpp"
#include "server_stats.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr int kDefaultProcesses = 16;
constexpr std::int64_t kHoldNs = 1'000'000;
constexpr double kTargetBusy = 0.85;
constexpr auto kSetUpTimeout = std::chrono::seconds(30);
constexpr auto kGrace = std::chrono::seconds(30);

struct ContentionShared {
  std::atomic<std::int64_t> ready;  // workers connected
  std::atomic<std::int64_t> go;     // 1: start_ns and end_ns are set
  std::atomic<std::int64_t> start_ns;
  std::atomic<std::int64_t> end_ns;
  std::atomic<std::int64_t> release_start_ns;  // the last holder's unlock() call
  std::atomic<std::int64_t> holder;            // worker index + 1 while held, else 0
  std::atomic<std::int64_t> last_holder;       // worker index + 1 of the last holder
  std::atomic<std::int64_t> violations;        // two holders at once (must stay 0)
};

nlohmann::json contention_worker(const WorkerOptions& options, ContentionShared& shared) {
  redisson::Client client(options.common.url);
  auto lock = client.get_lock(options.lock_name);
  shared.ready.fetch_add(1);
  if (!wait_for_count(shared.go, 1, kSetUpTimeout)) return {{"error", "no start signal"}};
  const auto start = shared.start_ns.load();
  const auto end = shared.end_ns.load();
  sleep_until_ns(start);

  const bool spin = options.common.hold_mode == "spin";
  LatencyHistogram wait, idle, idle_same, idle_other;
  std::int64_t acquisitions = 0, held_ns = 0, reacquired = 0;
  for (;;) {
    const auto t0 = monotonic_ns();
    if (t0 >= end) break;
    // Bounded by the end of the run: a waiter gives up then instead of taking one more turn.
    if (!lock.try_lock_for(std::chrono::nanoseconds(end - t0))) break;
    const auto t1 = monotonic_ns();
    if (t1 >= end) {
      lock.unlock();
      break;
    }
    wait.record(t1 - t0);
    const auto released = shared.release_start_ns.load();
    // Did the process that released take it again (it barged ahead of the woken waiters)?
    const bool same = shared.last_holder.exchange(options.index + 1) == options.index + 1;
    reacquired += same ? 1 : 0;
    if (released >= start) {
      idle.record(t1 - released);
      (same ? idle_same : idle_other).record(t1 - released);
    }
    if (shared.holder.exchange(options.index + 1) != 0) shared.violations.fetch_add(1);
    if (spin) {
      busy_wait_ns(options.hold_ns);
    } else {
      timespec hold{0, static_cast<long>(options.hold_ns)};
      while (nanosleep(&hold, &hold) != 0) {
      }
    }
    shared.holder.store(0);
    const auto t2 = monotonic_ns();
    held_ns += t2 - t1;
    ++acquisitions;
    shared.release_start_ns.store(t2);
    lock.unlock();
  }
  return {{"acquisitions", acquisitions},
          {"held_ns", held_ns},
          {"reacquired", reacquired},
          {"wait", wait.serialize()},
          {"idle", idle.serialize()},
          {"idle_same", idle_same.serialize()},
          {"idle_other", idle_other.serialize()}};
}

}  // namespace

int worker_contention(const WorkerOptions& options) {
  Shared<ContentionShared> shared(kWorkerSharedFd);
  nlohmann::json report;
  try {
    report = contention_worker(options, *shared);
  } catch (const std::exception& e) {
    report = {{"error", e.what()}};
  }
  std::cout << report.dump() << std::endl;
  return report.contains("error") ? 1 : 0;
}

nlohmann::json run_contention(const Options& options) {
  const int processes = options.processes.value_or(kDefaultProcesses);
  Shared<ContentionShared> shared;
  const auto lock_name = bench_key(options, "contention");
  redisson::Client stats_client(options.url);

  ChildGroup workers;
  for (int i = 0; i < processes; ++i) {
    workers.spawn(worker_command(options, "contention", i, lock_name, kHoldNs),
                  /*capture_stderr=*/false, shared.fd());
  }
  if (!wait_for_count(shared->ready, processes, kSetUpTimeout)) {
    throw std::runtime_error("contention: only " + std::to_string(shared->ready.load()) + " of " +
                             std::to_string(processes) + " workers connected within 30 s");
  }
  const auto commands_before = read_command_counts(stats_client);
  const auto server_cpu_before = read_server_cpu_seconds(stats_client);
  const auto start = monotonic_ns() + 50'000'000;  // every worker is waiting for it by then
  const auto end = start + options.duration.count();
  shared->start_ns.store(start);
  shared->end_ns.store(end);
  shared->go.store(1);
  const auto deadline = std::chrono::steady_clock::now() + options.duration + kGrace;
  const auto reports = worker_reports(workers.wait_all(deadline));
  const auto finished = monotonic_ns();
  const auto server_cpu = read_server_cpu_seconds(stats_client) - server_cpu_before;
  const auto delta = command_delta(commands_before, read_command_counts(stats_client));
  const auto commands = summarize(delta);

  LatencyHistogram wait, idle, idle_same, idle_other;
  std::int64_t total = 0, held_ns = 0, reacquired = 0;
  std::int64_t most = 0, least = std::numeric_limits<std::int64_t>::max();
  nlohmann::json per_process = nlohmann::json::array();
  for (const auto& report : reports) {
    const auto n = report.at("acquisitions").get<std::int64_t>();
    total += n;
    held_ns += report.at("held_ns").get<std::int64_t>();
    most = std::max(most, n);
    least = std::min(least, n);
    per_process.push_back(n);
    wait.merge(LatencyHistogram::deserialize(report.at("wait")));
    idle.merge(LatencyHistogram::deserialize(report.at("idle")));
    idle_same.merge(LatencyHistogram::deserialize(report.at("idle_same")));
    idle_other.merge(LatencyHistogram::deserialize(report.at("idle_other")));
    reacquired += report.at("reacquired").get<std::int64_t>();
  }
  const double duration_s = seconds(options.duration);
  const double busy = static_cast<double>(total) * static_cast<double>(kHoldNs) / 1e9 / duration_s;
  const double per_acquisition = total > 0 ? 1.0 / static_cast<double>(total) : 0.0;

  nlohmann::json out{{"scenario", "contention"},
                     {"processes", processes},
                     {"hold_us", kHoldNs / 1000},
                     {"hold_mode", options.hold_mode},
                     {"acquisitions", total},
                     {"ops_per_s", round2(static_cast<double>(total) / duration_s)},
                     {"per_process_max", most},
                     {"per_process_min", least},
                     {"per_process", per_process},
                     {"busy", round2(busy)},
                     {"busy_measured", round2(static_cast<double>(held_ns) / 1e9 / duration_s)},
                     {"violations", shared->violations.load()}};
  wait.add_to(out);  // p50_us/p99_us: lock() call to return, per acquisition
  idle.add_to(out, "idle_gap_");
  out["reacquired_by_releaser"] = round2(static_cast<double>(reacquired) * per_acquisition);
  out["idle_gap_reacquire"] = {{"p50_us", round2(idle_same.percentile_us(50))},
                               {"p99_us", round2(idle_same.percentile_us(99))},
                               {"samples", idle_same.count()}};
  out["idle_gap_other_process"] = {{"p50_us", round2(idle_other.percentile_us(50))},
                                   {"p99_us", round2(idle_other.percentile_us(99))},
                                   {"samples", idle_other.count()}};
  out["measured"] =
      "p50_us/p99_us: wait in lock() per acquisition; idle_gap_*: previous "
      "holder's unlock() call to next holder's lock() return";
  out["commands_per_acquisition"] =
      round2(static_cast<double>(commands.client_sent) * per_acquisition);
  out["server_commands_per_acquisition"] =
      round2(static_cast<double>(commands.client_sent + commands.script_inner) * per_acquisition);
  nlohmann::json breakdown = nlohmann::json::object();
  for (const auto& [name, calls] : commands.per_command.items()) {
    breakdown[name] = round2(calls.get<double>() * per_acquisition);
  }
  out["commands_breakdown_per_acquisition"] = std::move(breakdown);
  out["server_cpu"] = round2(server_cpu / (static_cast<double>(finished - start) / 1e9));
  add_target(out, "busy >= 0.85", busy >= kTargetBusy);
  return out;
}

}  // namespace redisson_bench
