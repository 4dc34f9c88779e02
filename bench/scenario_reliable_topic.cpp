// reliable-topic: delivery latency of a ReliableTopic while publishing 1,000 messages/s. A
// subscriber process listens on a ReliableTopic<std::int64_t>; this process publishes one
// CLOCK_MONOTONIC stamp (kryo5, a Long) every millisecond for the duration. Measured: listener
// call - publish() call, across processes, so through the stream, the subscriber's blocking
// XREADGROUP, its I/O thread and its listener thread; and the messages lost or repeated
// (target: none). Reference: redis-benchmark -c 1 PING p50 in the same run; target p50 <= 3x.
// (Java Redisson 3.52 here falls behind at this rate: a 1.4-1.7 s backlog; p50 748 us at 100
// messages/s.)
#include <thread>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redis_tools.hpp"
#include "redisson/objects/reliable_topic.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr auto kReliableSetUpTimeout = std::chrono::seconds(30);
constexpr auto kReliableInterval = std::chrono::milliseconds(1);  // 1,000 messages/s
constexpr double kTargetReliablePingRatio = 3.0;

struct ReliableTopicShared {
  std::atomic<std::int64_t> ready;     // the subscriber is registered
  std::atomic<std::int64_t> received;  // messages its listener got
  std::atomic<std::int64_t> failed;    // it gave up
};

}  // namespace

int worker_reliable_topic(const WorkerOptions& options) {
  Shared<ReliableTopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    redisson::Client client(options.common.url);
    redisson::ReliableTopic<std::int64_t> topic(client, options.lock_name);
    std::atomic<bool> done{false};  // written by the listener's strand
    topic.add_listener([&](std::string_view, std::int64_t stamp) {
      const auto now = monotonic_ns();
      if (stamp < 0) return done.store(true);
      latency.record(now - stamp);
      shared->received.fetch_add(1);
    });
    shared->ready.fetch_add(1);
    if (!wait_until([&] { return done.load(); }, std::chrono::hours(1))) {
      throw std::runtime_error("no end mark");
    }
    topic.remove_all_listeners();  // its group and deadline go with it
  });
}

nlohmann::json run_reliable_topic(const Options& options) {
  Shared<ReliableTopicShared> shared;
  const auto name = bench_key(options, "reliable-topic");
  ChildGroup workers;
  workers.spawn(worker_command(options, "reliable-topic", 0, name), /*capture_stderr=*/false,
                shared.fd());
  redisson::Client client(options.url);
  redisson::ReliableTopic<std::int64_t> topic(client, name);
  if (!wait_for_count(shared->ready, 1, kReliableSetUpTimeout)) {
    throw std::runtime_error("the subscriber never started");
  }
  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  std::int64_t published = 0;
  while (next < start + options.duration) {
    std::this_thread::sleep_until(next);  // the publishing rate, not a wait for an outcome
    topic.publish(monotonic_ns());
    ++published;
    next += kReliableInterval;
  }
  const double elapsed = seconds(std::chrono::steady_clock::now() - start);
  topic.publish(-1);
  const auto latency = merged_latency(
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kReliableSetUpTimeout)));
  const auto delivered = static_cast<std::int64_t>(latency.count());
  nlohmann::json out{{"scenario", "reliable-topic"},
                     {"processes", 2},
                     {"published", published},
                     {"ops_per_s", round2(static_cast<double>(published) / elapsed)},
                     {"ops_meaning", "messages published per second (paced at 1,000)"},
                     {"lost", published - delivered},
                     {"measured", "listener call in another process - publish() call"}};
  latency.add_to(out);
  const auto reference = run_redis_benchmark(
      options, {"-c", "1", "-t", "ping_mbulk"},
      std::max<std::chrono::nanoseconds>(options.duration / 4, std::chrono::seconds(1)));
  const double reference_p50_us = reference.p50_ms * 1000.0;
  out["reference"] = {{"tool", "redis-benchmark"},
                      {"command", reference.command_line},
                      {"what", "PING round trip of one connection, no pipelining"},
                      {"p50_us", round2(reference_p50_us)}};
  const double ratio = latency.percentile_us(50) / reference_p50_us;
  out["ratio"] = round2(ratio);
  out["ratio_meaning"] = "delivery p50 / redis-benchmark -c 1 PING p50 (lower is better)";
  add_target(out, "delivery p50 <= 3x redis-benchmark -c 1 PING p50, none lost or repeated",
             delivered == published && ratio <= kTargetReliablePingRatio);
  return out;
}

}  // namespace redisson_bench
