// The topics:
//   topic  (1) delivery latency: a subscriber process listens on a Topic<std::int64_t>; this
//          process publishes one CLOCK_MONOTONIC stamp at a time (kryo5, a Long), the next once
//          the last arrived. Measured: listener call - publish() call, across processes, so
//          through the server, the subscriber's I/O thread and its listener thread. Reference:
//          redis-benchmark -c 1 PING p50 in the same run; target p50 <= 1.5x.
//          (2) publish throughput from one client: Topic::async_publish closed loop (nobody
//          subscribed) vs redis-benchmark -P 32 -c 50 PUBLISH in the same run; target >= 0.9x.
//   topic-fanout  one publisher, 100 listeners in 4 subscriber processes (25 listeners on one
//          client each, so one SUBSCRIBE per process): stamps published at 1,000 messages/s for
//          the duration. Measured: every listener call's delay after its publish() call (p50,
//          p99) and the deliveries lost (target: none).
#include <future>
#include <iostream>
#include <thread>

#include "bench.hpp"
#include "clock.hpp"
#include "closed_loop.hpp"
#include "histogram.hpp"
#include "raw_pubsub.hpp"
#include "redis_tools.hpp"
#include "redisson/objects/topic.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "topic_stamps.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr auto kTopicSetUpTimeout = std::chrono::seconds(30);
constexpr double kTargetTopicPingRatio = 1.5;

constexpr int kFanoutProcesses = 4;
constexpr int kFanoutListenersPerProcess = 25;
constexpr auto kFanoutInterval = std::chrono::milliseconds(1);  // 1,000 messages/s

}  // namespace

int worker_topic_subscriber(const WorkerOptions& options) {
  Shared<TopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    redisson::Client client(options.common.url);
    redisson::Topic<std::int64_t> topic(client, options.lock_name);
    record_stamps(topic, *shared, latency);
  });
}

int worker_topic_fanout(const WorkerOptions& options) {
  Shared<TopicShared> shared(kWorkerSharedFd);
  return run_latency_worker(shared->failed, [&](Samples& latency) {
    redisson::Client client(options.common.url);
    redisson::Topic<std::int64_t> topic(client, options.lock_name);
    // One Samples per listener: each is written by its own listener's strand only.
    std::vector<Samples> per_listener(kFanoutListenersPerProcess);
    std::atomic<int> finished{0};
    std::promise<void> all_finished;  // set by the last listener to see the end mark
    for (auto& samples : per_listener) {
      topic.add_listener([&](std::string_view, std::int64_t stamp) {
        const auto now = monotonic_ns();
        if (stamp < 0) {
          if (finished.fetch_add(1) + 1 == kFanoutListenersPerProcess) all_finished.set_value();
          return;
        }
        samples.record(now - stamp);
        shared->received.fetch_add(1);
      });
    }
    shared->ready.fetch_add(1);
    if (all_finished.get_future().wait_for(std::chrono::hours(1)) != std::future_status::ready) {
      throw std::runtime_error("no end mark");
    }
    for (const auto& samples : per_listener) latency.append(samples);
  });
}

nlohmann::json run_topic_fanout(const Options& options) {
  Shared<TopicShared> shared;
  const auto name = bench_key(options, "topic-fanout");
  ChildGroup workers;
  for (int i = 0; i < kFanoutProcesses; ++i) {
    workers.spawn(worker_command(options, "topic-fanout", i, name), /*capture_stderr=*/false,
                  shared.fd());
  }
  redisson::Client client(options.url);
  redisson::Topic<std::int64_t> topic(client, name);
  if (!wait_for_count(shared->ready, kFanoutProcesses, kTopicSetUpTimeout)) {
    throw std::runtime_error("the subscribers never started");
  }
  std::int64_t receivers = 0;
  const auto paced = publish_paced(options.duration, kFanoutInterval,
                                   [&] { receivers += topic.publish(monotonic_ns()); });
  const auto published = paced.published;
  const double elapsed = paced.elapsed_s;
  topic.publish(-1);
  const auto latency = merged_latency(
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kTopicSetUpTimeout)));
  const std::int64_t listeners = kFanoutProcesses * kFanoutListenersPerProcess;
  const std::int64_t expected = published * listeners;
  const auto delivered = static_cast<std::int64_t>(latency.count());
  nlohmann::json out{{"scenario", "topic-fanout"},
                     {"processes", kFanoutProcesses + 1},
                     {"listeners", listeners},
                     {"published", published},
                     {"ops_per_s", round2(static_cast<double>(published) / elapsed)},
                     {"ops_meaning", "messages published per second (paced at 1,000)"},
                     {"deliveries_per_s", round2(static_cast<double>(delivered) / elapsed)},
                     {"subscribers_per_publish",
                      round2(static_cast<double>(receivers) / static_cast<double>(published))},
                     {"lost", expected - delivered},
                     {"measured", "each listener call - its publish() call"}};
  latency.add_to(out);
  add_target(out, "no delivery lost", delivered == expected);
  return out;
}

nlohmann::json run_topic(const Options& options) {
  Shared<TopicShared> shared;
  const auto name = bench_key(options, "topic");
  ChildGroup workers;
  workers.spawn(worker_command(options, "topic-subscriber", 0, name), /*capture_stderr=*/false,
                shared.fd());
  redisson::Client client(options.url);
  redisson::Topic<std::int64_t> topic(client, name);
  std::string failure;
  if (!wait_for_count(shared->ready, 1, kTopicSetUpTimeout))
    failure = "the subscriber never started";
  // Half the time for latency, half for throughput.
  if (failure.empty()) {
    failure = publish_one_at_a_time(*shared, options.duration / 2, kTopicSetUpTimeout,
                                    [&] { topic.publish(monotonic_ns()); });
  }
  topic.publish(-1);
  const auto latency = merged_latency(
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kTopicSetUpTimeout)));

  // Publish throughput from this one client, nobody listening (the reference's case too).
  Options half = options;
  half.duration = options.duration / 2;
  redisson::Topic<std::string> load(client, name + ":load", redisson::codecs::string());
  const std::string message = "xxx";
  auto out = run_throughput(
      half, client,
      {"topic",
       {"-P", "32", "-c", "50", "PUBLISH", name + ":load", message},
       "PUBLISH, 50 connections, pipeline 32"},
      [&](std::uint64_t, ClosedLoop::Completion done) {
        load.async_publish(
            message, [done = std::move(done)](std::error_code ec, std::int64_t) { done(ec); });
      });
  out["processes"] = 2;
  nlohmann::json delivery{{"messages", latency.count()},
                          {"measured", "listener call in another process - publish() call"}};
  latency.add_to(delivery);
  const double reference_p50_us = ping_reference(options, options.duration / 4, delivery);
  const double ratio = latency.percentile_us(50) / reference_p50_us;
  delivery["ratio"] = round2(ratio);
  delivery["ratio_meaning"] = "delivery p50 / redis-benchmark -c 1 PING p50 (lower is better)";
  const double floor_p50_us =
      raw_pubsub_floor(options, options.duration / 4, RawPacing{}, delivery);
  delivery["floor_ratio"] = round2(latency.percentile_us(50) / floor_p50_us);
  delivery["floor_ratio_meaning"] = "delivery p50 / raw_floor p50, paced alike (lower is better)";
  out["delivery"] = delivery;
  if (!failure.empty()) out["error"] = failure;
  const bool publish_met = out.value("meets_target", false);
  add_target(
      out, "publish ratio >= 0.9 and delivery p50 <= 1.5x redis-benchmark -c 1 PING p50",
      publish_met && failure.empty() && latency.count() > 0 && ratio <= kTargetTopicPingRatio);
  return out;
}

}  // namespace redisson_bench
