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
#include "raw_pubsub.hpp"
#include "redis_tools.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/reliable_topic.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "topic_stamps.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr auto kReliableSetUpTimeout = std::chrono::seconds(30);
constexpr auto kReliableInterval = std::chrono::milliseconds(1);  // 1,000 messages/s
constexpr double kTargetReliablePingRatio = 3.0;

}  // namespace

int worker_reliable_topic(const WorkerOptions& options) {
  Shared<TopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    redisson::Client client(options.common.url);
    redisson::ReliableTopic<std::int64_t> topic(client, options.lock_name);
    record_stamps(topic, *shared, latency);
    topic.remove_all_listeners();  // its group and deadline go with it
  });
}

nlohmann::json run_reliable_topic(const Options& options) {
  Shared<TopicShared> shared;
  const auto name = bench_key(options, "reliable-topic");
  ChildGroup workers;
  workers.spawn(worker_command(options, "reliable-topic", 0, name), /*capture_stderr=*/false,
                shared.fd());
  redisson::Client client(options.url);
  redisson::ReliableTopic<std::int64_t> topic(client, name);
  if (!wait_for_count(shared->ready, 1, kReliableSetUpTimeout)) {
    throw std::runtime_error("the subscriber never started");
  }
  const auto paced =
      publish_paced(options.duration, kReliableInterval, [&] { topic.publish(monotonic_ns()); });
  const auto published = paced.published;
  const double elapsed = paced.elapsed_s;
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
  const double reference_p50_us = ping_reference(options, options.duration / 4, out);
  const double ratio = latency.percentile_us(50) / reference_p50_us;
  out["ratio"] = round2(ratio);
  out["ratio_meaning"] = "delivery p50 / redis-benchmark -c 1 PING p50 (lower is better)";
  const double floor_p50_us =
      raw_pubsub_floor(options, options.duration / 4, RawPacing{kReliableInterval}, out);
  out["floor_ratio"] = round2(latency.percentile_us(50) / floor_p50_us);
  out["floor_ratio_meaning"] = "delivery p50 / raw_floor p50, paced alike (lower is better)";
  add_target(out, "delivery p50 <= 3x redis-benchmark -c 1 PING p50, none lost or repeated",
             delivered == published && ratio <= kTargetReliablePingRatio);
  return out;
}

}  // namespace redisson_bench
