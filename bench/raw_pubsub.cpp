#include "raw_pubsub.hpp"

#include <limits>
#include <string>

#include "clock.hpp"
#include "histogram.hpp"
#include "raw_socket.hpp"
#include "shared_memory.hpp"
#include "topic_stamps.hpp"
#include "workers.hpp"

namespace redisson_bench {

int worker_raw_subscriber(const WorkerOptions& options) {
  Shared<TopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    RawConnection socket(options.common);
    socket.command({"SUBSCRIBE", options.lock_name});  // the subscription's confirmation
    shared->ready.fetch_add(1);
    for (;;) {
      const auto payload = socket.next_reply();
      const auto now = monotonic_ns();
      const auto stamp = std::stoll(payload);
      if (stamp < 0) return;
      latency.record(now - stamp);
      shared->received.fetch_add(1);
      shared->changed.raise();
    }
  });
}

namespace {

constexpr auto kRawSetUpTimeout = std::chrono::seconds(30);

nlohmann::json measure_floor(const Options& options, std::chrono::nanoseconds duration,
                             RawPacing pacing, double& p50_us) {
  Shared<TopicShared> shared;
  const auto channel = bench_key(options, "raw-floor");
  ChildGroup workers;
  workers.spawn(worker_command(options, "raw-subscriber", 0, channel), /*capture_stderr=*/false,
                shared.fd());
  RawConnection socket(options);
  const auto publish = [&](std::int64_t stamp) {
    socket.command({"PUBLISH", channel, std::to_string(stamp)});
  };
  std::string failure;
  if (!wait_for_count(shared->ready, 1, kRawSetUpTimeout)) failure = "never subscribed";
  if (failure.empty() && pacing.interval.count() > 0) {
    publish_paced(duration, pacing.interval, [&] { publish(monotonic_ns()); });
  } else if (failure.empty()) {
    failure = publish_one_at_a_time(*shared, duration, kRawSetUpTimeout,
                                    [&] { publish(monotonic_ns()); });
  }
  publish(-1);
  const auto latency = merged_latency(
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kRawSetUpTimeout)));
  nlohmann::json floor{
      {"what", "PUBLISH on a blocking socket -> SUBSCRIBE's blocking read in another process"},
      {"pacing", pacing.interval.count() > 0
                     ? "one every " + std::to_string(pacing.interval.count() / 1000) + " us"
                     : "the next once the last arrived"}};
  latency.add_to(floor);
  if (!failure.empty()) floor["error"] = failure;
  p50_us = latency.percentile_us(50);
  return floor;
}

}  // namespace

double raw_pubsub_floor(const Options& options, std::chrono::nanoseconds duration, RawPacing pacing,
                        nlohmann::json& out) {
  // A reference: when it cannot be measured (TLS, a server refusing it), the scenario's own
  // figures still stand, with the reason beside them.
  double p50_us = std::numeric_limits<double>::quiet_NaN();
  try {
    out["raw_floor"] = measure_floor(options, duration, pacing, p50_us);
  } catch (const std::exception& e) {
    out["raw_floor"] = {{"error", e.what()}};
  }
  return p50_us;
}

}  // namespace redisson_bench
