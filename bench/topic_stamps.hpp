// The two sides of the topic latency scenarios (topic, topic-fanout, reliable-topic): the
// publisher sends CLOCK_MONOTONIC stamps (paced, or one at a time), and a listener records the
// delay from each publish() call to its own call, until the end mark (-1) arrives.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>

#include "clock.hpp"
#include "histogram.hpp"
#include "workers.hpp"

namespace redisson_bench {

/// Shared between the publishing process and its subscriber processes.
struct TopicShared {
  std::atomic<std::int64_t> ready;     // subscribers subscribed
  std::atomic<std::int64_t> received;  // messages their listeners got
  std::atomic<std::int64_t> failed;    // one gave up
  SharedSignal changed;                // raised after received changed
};

/// Adds the listener to `topic` (a Topic or ReliableTopic of std::int64_t), tells the publisher
/// it is ready, and returns once the end mark arrived.
template <class TopicType>
void record_stamps(TopicType& topic, TopicShared& shared, Samples& latency) {
  std::promise<void> done;  // set by the listener's strand
  topic.add_listener([&](std::string_view, std::int64_t stamp) {
    const auto now = monotonic_ns();
    if (stamp < 0) return done.set_value();
    latency.record(now - stamp);
    shared.received.fetch_add(1);
    shared.changed.raise();
  });
  shared.ready.fetch_add(1);
  if (done.get_future().wait_for(std::chrono::hours(1)) != std::future_status::ready) {
    throw std::runtime_error("no end mark");
  }
}

/// Calls `publish()` for `duration`, each time once the subscriber received the last message
/// (a stamp at a time, so each delay is measured alone); returns why it stopped early, or "".
template <class Publish>
std::string publish_one_at_a_time(TopicShared& shared, std::chrono::nanoseconds duration,
                                  std::chrono::nanoseconds wait_limit, Publish&& publish) {
  const auto end = monotonic_ns() + duration.count();
  for (std::int64_t published = 0; monotonic_ns() < end; ++published) {
    if (!wait_signalled(
            shared.changed,
            [&] { return shared.received.load() >= published || shared.failed.load(); },
            wait_limit) ||
        shared.failed.load()) {
      return "the subscriber stopped receiving";
    }
    publish();
  }
  return "";
}

/// What publish_paced() did.
struct Paced {
  std::int64_t published = 0;
  double elapsed_s = 0;
};

/// Calls `publish()` once every `interval` for `duration` (the publishing rate, not a wait for
/// an outcome), then returns how many and over how long.
template <class Publish>
Paced publish_paced(std::chrono::nanoseconds duration, std::chrono::nanoseconds interval,
                    Publish&& publish) {
  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  Paced paced;
  while (next < start + duration) {
    std::this_thread::sleep_until(next);
    publish();
    ++paced.published;
    next += interval;
  }
  paced.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return paced;
}

}  // namespace redisson_bench
