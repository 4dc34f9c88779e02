// executor: ExecutorService, Java Redisson's RExecutorService. 4 worker processes (--processes
// changes it), each a client with register_workers(tasks, 1): one task at a time per process.
//   (1) throughput: this process keeps 64 tasks in flight (2 submitter threads, each a window
//       of 32: submit() until 32 are out, then get() the oldest) of a trivial task, echo(long).
//       Reported: tasks completed per second, and, in the same run, redis-benchmark -c 64
//       -t rpush,lpop (no pipelining) as a plain list hand-over (hand-overs/s = its ops/s / 2),
//       for information.
//   (2) latency, one task at a time: the task `stamp` is submitted with CLOCK_MONOTONIC read
//       just before submit() (one clock for every process on the machine) and answers its
//       worker's reading of the same clock as the handler starts minus that stamp: submit ->
//       start. The round trip is submit() call -> get() return in this process.
//       Reference: redis-benchmark -c 1 PING p50 in the same run. Target (soft, the figures
//       are what matter): round trip p50 <= 10x PING p50. A task is five scripts in a row
//       (submit; the worker's take and renew before the handler, finish and respond after it)
//       and two wake-ups of a blocked pop (the worker's BLPOP, the submitter's on its results).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redis_tools.hpp"
#include "redisson/client.hpp"
#include "redisson/services/executor_service.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr int kExecutorProcesses = 4;
constexpr int kExecutorSubmitters = 2;
constexpr int kExecutorWindow = 32;  // tasks in flight per submitter thread
constexpr int kExecutorWarmUpTasks = 200;
constexpr double kTargetExecutorPingRatio = 10.0;
constexpr auto kExecutorSetUpTimeout = std::chrono::seconds(30);
constexpr auto kExecutorResultWait = std::chrono::seconds(30);

/// Shared between this process and the worker processes.
struct ExecutorShared {
  std::atomic<std::int64_t> ready;   // worker processes whose workers are registered
  std::atomic<std::int64_t> stop;    // the benchmark is done
  std::atomic<std::int64_t> failed;  // a worker process gave up
  SharedSignal signal;               // raised after any of the above changed
};

redisson::ExecutorTasks executor_bench_tasks(std::atomic<std::int64_t>& runs) {
  return redisson::ExecutorTasks()
      .task("echo",
            [&runs](std::int64_t value) {
              runs.fetch_add(1, std::memory_order_relaxed);
              return value;
            })
      .task("stamp", [&runs](std::int64_t submitted_ns) {
        const auto started = monotonic_ns();
        runs.fetch_add(1, std::memory_order_relaxed);
        return started - submitted_ns;
      });
}

/// (1): `threads` threads each keep `window` echo tasks in flight for `duration`; tasks/s.
double executor_throughput(const redisson::ExecutorService& executor, int threads, int window,
                           std::chrono::nanoseconds duration, std::int64_t& completed) {
  std::vector<std::int64_t> done(static_cast<std::size_t>(threads));
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(threads));
  std::vector<std::thread> running;
  const auto start = monotonic_ns();
  const auto end = start + duration.count();
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      std::deque<std::pair<std::int64_t, redisson::TaskFuture<std::int64_t>>> out;
      std::int64_t next = static_cast<std::int64_t>(t) << 40;
      std::int64_t count = 0;
      try {
        while (monotonic_ns() < end) {
          while (static_cast<int>(out.size()) < window) {
            out.emplace_back(next, executor.submit<std::int64_t>("echo", next));
            ++next;
          }
          if (out.front().second.get(kExecutorResultWait) != out.front().first) {
            throw std::runtime_error("executor: echo answered another value");
          }
          out.pop_front();
          ++count;
        }
        done[static_cast<std::size_t>(t)] = count;
        // The tasks still out complete after the measured time (not counted).
        for (auto& [value, future] : out) (void)future.get(kExecutorResultWait);
      } catch (...) {
        failures[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  for (auto& thread : running) thread.join();
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  completed = 0;
  for (const auto count : done) completed += count;
  return static_cast<double>(completed) / (static_cast<double>(end - start) / 1e9);
}

/// (2): one `stamp` task at a time for `duration`.
void executor_latency(const redisson::ExecutorService& executor, std::chrono::nanoseconds duration,
                      Samples& submit_call, Samples& to_start, Samples& round_trip) {
  const auto end = monotonic_ns() + duration.count();
  while (monotonic_ns() < end) {
    const auto before = monotonic_ns();
    const auto future = executor.submit<std::int64_t>("stamp", before);
    submit_call.record(monotonic_ns() - before);
    const auto started_after = future.get(kExecutorResultWait);
    round_trip.record(monotonic_ns() - before);
    to_start.record(started_after);
  }
}

}  // namespace

int worker_executor(const WorkerOptions& options) {
  Shared<ExecutorShared> shared(kWorkerSharedFd);
  nlohmann::json report;
  std::atomic<std::int64_t> runs{0};
  try {
    {
      redisson::Client client(options.common.url);
      redisson::ExecutorService executor(client, options.lock_name);
      if (!executor.register_workers(executor_bench_tasks(runs), 1)) {
        throw std::runtime_error("register_workers: this client had workers already");
      }
      shared->ready.fetch_add(1);
      shared->signal.raise();
      if (!wait_signalled(
              shared->signal, [&] { return shared->stop.load() != 0; }, std::chrono::hours(1))) {
        throw std::runtime_error("never told to stop");
      }
      executor.deregister_workers();
    }  // the client waits for a task still running
    report = {{"tasks_run", runs.load()}};
  } catch (const std::exception& e) {
    shared->failed.store(1);
    shared->signal.raise();
    report = {{"error", e.what()}};
  }
  std::cout << report.dump() << std::endl;
  return report.contains("error") ? 1 : 0;
}

nlohmann::json run_executor(const Options& options) {
  const int processes = options.processes.value_or(kExecutorProcesses);
  const auto name = bench_key(options, "executor");
  Shared<ExecutorShared> shared;
  ChildGroup workers;
  for (int i = 0; i < processes; ++i) {
    workers.spawn(worker_command(options, "executor", i, name), /*capture_stderr=*/false,
                  shared.fd());
  }
  redisson::Client client(options.url);
  redisson::ExecutorService executor(client, name);
  if (!wait_signalled(
          shared->signal,
          [&] { return shared->ready.load() >= processes || shared->failed.load() != 0; },
          kExecutorSetUpTimeout) ||
      shared->failed.load() != 0) {
    throw std::runtime_error("executor: the worker processes never started");
  }
  for (int i = 0; i < kExecutorWarmUpTasks; ++i) {
    if (executor.submit<std::int64_t>("echo", std::int64_t{i}).get(kExecutorResultWait) != i) {
      throw std::runtime_error("executor: echo answered another value");
    }
  }
  const auto workers_seen = executor.count_active_workers(std::chrono::seconds(2));

  std::int64_t completed = 0;
  const double tasks_per_s = executor_throughput(executor, kExecutorSubmitters, kExecutorWindow,
                                                 options.duration / 2, completed);
  Samples submit_call;
  Samples to_start;
  Samples round_trip;
  executor_latency(executor, options.duration / 2, submit_call, to_start, round_trip);

  shared->stop.store(1);
  shared->signal.raise();
  const auto reports =
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kExecutorSetUpTimeout));
  executor.delete_object();
  std::vector<std::int64_t> per_process;
  for (const auto& report : reports) per_process.push_back(report.value("tasks_run", 0));

  nlohmann::json out{{"scenario", "executor"},
                     {"processes", processes},
                     {"workers_per_process", 1},
                     {"active_workers_counted", workers_seen},
                     {"tasks_run_per_process", per_process}};
  nlohmann::json throughput{
      {"measured", "echo(long) tasks completed/s, " +
                       std::to_string(kExecutorSubmitters * kExecutorWindow) + " in flight from " +
                       std::to_string(kExecutorSubmitters) + " submitter threads"},
      {"in_flight", kExecutorSubmitters * kExecutorWindow},
      {"tasks", completed},
      {"tasks_per_s", round2(tasks_per_s)}};
  nlohmann::json latency{{"measured", "one task at a time"}};
  submit_call.add_to(latency, "submit_call_");  // submit() returns once the task is queued
  to_start.add_to(latency, "submit_to_start_");
  round_trip.add_to(latency, "round_trip_");

  const double reference_p50_us = ping_reference(options, options.duration / 4, out);
  const auto queue = run_redis_benchmark(
      options, {"-c", std::to_string(kExecutorSubmitters * kExecutorWindow), "-t", "rpush,lpop"},
      options.duration / 4);
  auto queue_reference = reference_json(queue, "plain list hand-over, no pipelining");
  queue_reference["handovers_per_s"] = round2(queue.ops_per_s / 2);
  throughput["queue_reference"] = queue_reference;
  throughput["ratio_to_list_handover"] = round2(tasks_per_s / (queue.ops_per_s / 2));
  const double ratio = round_trip.percentile_us(50) / reference_p50_us;
  latency["ratio"] = round2(ratio);
  latency["submit_to_start_ratio"] = round2(to_start.percentile_us(50) / reference_p50_us);
  out["ratio_meaning"] =
      "latency: round trip p50 / redis-benchmark -c 1 PING p50 (lower is better); throughput: "
      "tasks/s / plain RPUSH+LPOP hand-overs/s";
  out["throughput"] = throughput;
  out["latency"] = latency;
  // The table's columns.
  out["ops_per_s"] = throughput["tasks_per_s"];
  out["ops_meaning"] = "echo tasks completed/s, " + std::to_string(processes) + " worker processes";
  out["p50_us"] = latency["round_trip_p50_us"];
  out["p99_us"] = latency["round_trip_p99_us"];
  out["latency_meaning"] = "submit() call -> get() return, one task at a time";
  out["ratio"] = latency["ratio"];
  add_target(out, "round trip p50 <= 10x redis-benchmark -c 1 PING p50 (soft)",
             round_trip.count() > 0 && ratio <= kTargetExecutorPingRatio);
  return out;
}

}  // namespace redisson_bench
