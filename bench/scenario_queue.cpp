// The queues:
//   queue           Queue<std::string>::async_offer / async_poll alternating (RPUSH, LPOP), the
//                   default codec (kryo5), vs redis-benchmark -P 32 -c 50 -t rpush,lpop in the
//                   same run (closed_loop.hpp); target ratio >= 0.9
//   blocking-queue  a consumer process waits in BlockingQueue::take() (BLPOP on a dedicated
//                   connection); this process offers one element at a time, stamped with
//                   CLOCK_MONOTONIC (one clock for every process on the machine), once the
//                   consumer is waiting again. Measured: take() return - offer() call. The
//                   reference: redis-benchmark -c 1 PING p50 in the same run (a round trip of
//                   one connection); target p50 <= 2x. Our own blocking execute(PING),
//                   interleaved with the offers, is reported beside it (ping_ratio): since a
//                   blocking caller reads its own reply, it can share a CPU with the server
//                   and beat any round trip through a second process.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <thread>

#include "bench.hpp"
#include "clock.hpp"
#include "closed_loop.hpp"
#include "histogram.hpp"
#include "redis_tools.hpp"
#include "redisson/objects/blocking_queue.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr auto kQueueSetUpTimeout = std::chrono::seconds(30);
constexpr auto kTakeWait = std::chrono::seconds(10);
constexpr double kTargetPingRatio = 2.0;

struct QueueShared {
  std::atomic<std::int64_t> ready;   // the consumer is connected
  std::atomic<std::int64_t> taken;   // elements the consumer has taken
  std::atomic<std::int64_t> failed;  // the consumer gave up
};

/// The number of clients the server has blocked in a command (INFO clients).
std::int64_t blocked_clients(redisson::Client& client) {
  const auto info = client.execute(redisson::Command{"INFO", "clients"}).str;
  const auto at = info.find("blocked_clients:");
  return at == std::string::npos ? 0 : std::stoll(info.substr(at + 16));
}

}  // namespace

nlohmann::json run_queue(const Options& options) {
  redisson::Client client(options.url);
  redisson::Queue<std::string> queue(client, bench_key(options, "queue"));
  const std::string value = "xxx";
  auto out = run_throughput(
      options, client,
      {"queue",
       {"-P", "32", "-c", "50", "-t", "rpush,lpop"},
       "RPUSH and LPOP, 50 connections, "
       "pipeline 32"},
      [&](std::uint64_t sequence, ClosedLoop::Completion done) {
        if (sequence & 1) {
          queue.async_poll(
              [done = std::move(done)](std::error_code ec, const std::optional<std::string>&) {
                done(ec);
              });
        } else {
          queue.async_offer(
              value, [done = std::move(done)](std::error_code ec, std::int64_t) { done(ec); });
        }
      });
  out["codec"] = std::string(queue.codec().name());
  queue.delete_object();
  return out;
}

int worker_queue_consumer(const WorkerOptions& options) {
  Shared<QueueShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    redisson::Client client(options.common.url);
    redisson::BlockingQueue<std::int64_t> queue(client, options.lock_name);
    shared->ready.fetch_add(1);
    for (;;) {
      const auto stamp = queue.poll(kTakeWait);
      const auto now = monotonic_ns();
      if (!stamp) throw std::runtime_error("no element within 10 s");
      if (*stamp < 0) break;  // the producer's end mark
      latency.record(now - *stamp);
      shared->taken.fetch_add(1);
    }
  });
}

nlohmann::json run_blocking_queue(const Options& options) {
  Shared<QueueShared> shared;
  const auto name = bench_key(options, "blocking-queue");
  ChildGroup workers;
  workers.spawn(worker_command(options, "queue-consumer", 0, name), /*capture_stderr=*/false,
                shared.fd());
  redisson::Client client(options.url);
  redisson::BlockingQueue<std::int64_t> queue(client, name);
  const redisson::Command ping{"PING"};
  LatencyHistogram ping_rtt;
  std::string failure;
  if (!wait_for_count(shared->ready, 1, kQueueSetUpTimeout)) failure = "the consumer never started";
  const auto start = monotonic_ns();
  const auto end = start + options.duration.count();
  std::int64_t offered = 0;
  while (failure.empty() && monotonic_ns() < end) {
    // The consumer is asleep in take() again before the next element goes out.
    if (!wait_until([&] { return shared->taken.load() >= offered || shared->failed.load(); },
                    kQueueSetUpTimeout) ||
        shared->failed.load()) {
      failure = "the consumer stopped taking";
      break;
    }
    if (!wait_until([&] { return blocked_clients(client) >= 1; }, kQueueSetUpTimeout)) {
      failure = "the consumer never waited";
      break;
    }
    const auto t0 = monotonic_ns();
    client.execute(ping);
    ping_rtt.record(monotonic_ns() - t0);
    queue.offer(monotonic_ns());
    ++offered;
  }
  queue.offer(-1);
  const auto deadline = std::chrono::steady_clock::now() + kQueueSetUpTimeout;
  const auto latency = merged_latency(worker_reports(workers.wait_all(deadline)));
  const double elapsed = static_cast<double>(monotonic_ns() - start) / 1e9;
  nlohmann::json out{{"scenario", "blocking-queue"},
                     {"processes", 2},
                     {"elements", latency.count()},
                     {"ops_per_s", round2(static_cast<double>(latency.count()) / elapsed)},
                     {"ops_meaning", "elements handed over per second (one at a time)"}};
  latency.add_to(out);
  ping_rtt.add_to(out, "ping_");
  out["measured"] = "consumer take() return - producer offer() call (p50_us, p99_us)";
  const double reference_p50_us = ping_reference(options, options.duration / 2, out);
  const double ratio = latency.percentile_us(50) / reference_p50_us;
  out["ratio"] = round2(ratio);
  out["ratio_meaning"] = "hand-over p50 / redis-benchmark -c 1 PING p50 (lower is better)";
  out["ping_ratio"] = round2(latency.percentile_us(50) / ping_rtt.percentile_us(50));
  out["ping_ratio_meaning"] = "hand-over p50 / our blocking PING p50 (information)";
  if (!failure.empty()) out["error"] = failure;
  add_target(out, "hand-over p50 <= 2x redis-benchmark -c 1 PING p50",
             failure.empty() && ratio <= kTargetPingRatio);
  return out;
}

}  // namespace redisson_bench
