// handoff: two processes, one lock. The holder waits until the other process is asleep in
// lock() (subscribed to the release channel), unlocks and publishes its unlock timestamps in
// shared memory; the waiter's lock() returns and it records the difference. Then the roles
// swap. CLOCK_MONOTONIC is one clock for every process on the machine. The waiter calls
// try_lock_for(end of run + grace): lock()'s code path with a bound, so a dead partner
// cannot hang it.
//
// Rounds: in round r the holder H_r releases and the waiter W_r acquires; W_r is H_{r+1}.
#include <atomic>
#include <iostream>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "redisson/redisson.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr double kTargetP50Us = 200;
constexpr auto kHandoffSetUpTimeout = std::chrono::seconds(30);
constexpr auto kLastRoundGrace = std::chrono::seconds(20);  // after the end, for the last round

struct HandoffShared {
  std::atomic<std::int64_t> ready;          // workers connected
  std::atomic<std::int64_t> go;             // 1: start
  std::atomic<std::int64_t> end_ns;         // no new round after this
  std::atomic<std::int64_t> first_held;     // worker 0 took the lock for round 1
  std::atomic<std::int64_t> waiting_round;  // the round whose waiter is about to lock()
  std::atomic<std::int64_t> published;      // the round whose unlock timestamps are below
  std::atomic<std::int64_t> acquired;       // the round whose waiter's lock() returned
  std::atomic<std::int64_t> unlock_start_ns;
  std::atomic<std::int64_t> unlock_return_ns;
  std::atomic<std::int64_t> stop;    // the last round: the waiter unlocks and leaves
  std::atomic<std::int64_t> failed;  // a worker gave up: the other leaves too
};

std::int64_t channel_subscribers(redisson::Client& client, const std::string& channel) {
  const auto reply = client.execute(redisson::Command{"PUBSUB", "NUMSUB", channel});
  // RESP2: [channel, count]; RESP3 may send the same pairs as a map.
  return reply.elements.size() >= 2 ? reply.elements[1].integer : 0;
}

class HandoffWorker {
 public:
  HandoffWorker(const WorkerOptions& options, HandoffShared& shared)
      : options_(options),
        shared_(shared),
        client_(options.common.url),
        lock_(redisson::Lock(client_, options.lock_name)),
        channel_("redisson_lock__channel:{" + options.lock_name + "}") {}

  nlohmann::json run() {
    shared_.ready.fetch_add(1);
    if (!wait_for_count(shared_.go, 1, kHandoffSetUpTimeout)) return fail("no start signal");
    end_ns_ = shared_.end_ns.load();
    hard_end_ns_ = end_ns_ + std::chrono::nanoseconds(kLastRoundGrace).count();
    std::int64_t round = 1;
    bool holding = false;
    if (options_.index == 0) {
      lock_.lock();
      holding = true;
      shared_.first_held.store(1);
    } else if (!wait_for_count(shared_.first_held, 1, kHandoffSetUpTimeout)) {
      return fail("worker 0 never took the lock");
    }
    for (;;) {
      if (holding) {
        if (!release(round)) {
          return fail("the waiter of round " + std::to_string(round) + " never came");
        }
        if (stopping_) break;
      } else {
        if (!acquire(round)) return fail("lock() of round " + std::to_string(round) + " gave up");
        if (shared_.stop.load()) {
          lock_.unlock();
          break;
        }
      }
      // The holder of round r waits in round r + 1; the waiter of round r holds in r + 1.
      holding = !holding;
      ++round;
    }
    return {{"from_return", from_return_.serialize()}, {"from_start", from_start_.serialize()}};
  }

 private:
  // Holder of `round`: wait until the waiter sleeps in lock(), then unlock.
  bool release(std::int64_t round) {
    if (monotonic_ns() >= end_ns_) {
      stopping_ = true;
      shared_.stop.store(1);
    }
    if (!wait_until([&] { return shared_.waiting_round.load() >= round || shared_.failed.load(); },
                    std::chrono::nanoseconds(hard_end_ns_ - monotonic_ns()))) {
      return false;
    }
    if (shared_.failed.load()) return false;
    // The waiter's lock(): one attempt, SUBSCRIBE, a second attempt, then it sleeps. Give it
    // time for that, and make sure the subscription is there (our own UNSUBSCRIBE from the
    // previous round may still be counted, hence the sleep first).
    sleep_until_ns(monotonic_ns() + 2'000'000);
    if (!wait_until([&] { return channel_subscribers(client_, channel_) >= 1; },
                    std::chrono::seconds(5))) {
      return false;
    }
    sleep_until_ns(monotonic_ns() + 500'000);
    const auto started = monotonic_ns();
    lock_.unlock();
    const auto returned = monotonic_ns();
    shared_.unlock_start_ns.store(started);
    shared_.unlock_return_ns.store(returned);
    shared_.published.store(round);
    // Our next lock() must not barge in ahead of this round's waiter.
    return stopping_ ||
           wait_until([&] { return shared_.acquired.load() >= round || shared_.failed.load(); },
                      std::chrono::nanoseconds(hard_end_ns_ - monotonic_ns()));
  }

  // Waiter of `round`: announce, lock(), then wait for the holder's timestamps.
  bool acquire(std::int64_t round) {
    shared_.waiting_round.store(round);
    const auto left = std::chrono::nanoseconds(hard_end_ns_ - monotonic_ns());
    if (!lock_.try_lock_for(left)) return false;
    const auto acquired = monotonic_ns();
    shared_.acquired.store(round);
    if (!wait_until([&] { return shared_.published.load() >= round; }, std::chrono::seconds(10))) {
      return false;
    }
    from_return_.record(acquired - shared_.unlock_return_ns.load());
    from_start_.record(acquired - shared_.unlock_start_ns.load());
    return true;
  }

  nlohmann::json fail(const std::string& why) {
    shared_.failed.store(1);
    return {{"error", why}};
  }

  const WorkerOptions& options_;
  HandoffShared& shared_;
  redisson::Client client_;
  redisson::Lock lock_;
  const std::string channel_;
  std::int64_t end_ns_ = 0;
  std::int64_t hard_end_ns_ = 0;
  bool stopping_ = false;
  Samples from_return_;
  Samples from_start_;
};

}  // namespace

int worker_handoff(const WorkerOptions& options) {
  Shared<HandoffShared> shared(kWorkerSharedFd);
  nlohmann::json report;
  try {
    HandoffWorker worker(options, *shared);
    report = worker.run();
  } catch (const std::exception& e) {
    shared->failed.store(1);
    report = {{"error", e.what()}};
  }
  std::cout << report.dump() << std::endl;
  return report.contains("error") ? 1 : 0;
}

nlohmann::json run_handoff(const Options& options) {
  Shared<HandoffShared> shared;
  const auto lock_name = bench_key(options, "handoff");
  ChildGroup workers;
  for (int i = 0; i < 2; ++i) {
    workers.spawn(worker_command(options, "handoff", i, lock_name), /*capture_stderr=*/false,
                  shared.fd());
  }
  if (!wait_for_count(shared->ready, 2, kHandoffSetUpTimeout)) shared->failed.store(1);
  const auto start = monotonic_ns();
  shared->end_ns.store(start + options.duration.count());
  shared->go.store(1);
  const auto deadline =
      std::chrono::steady_clock::now() + options.duration + kHandoffSetUpTimeout + kLastRoundGrace;
  const auto reports = worker_reports(workers.wait_all(deadline));
  const double elapsed = static_cast<double>(monotonic_ns() - start) / 1e9;

  Samples from_return, from_start;
  for (const auto& report : reports) {
    from_return.append(Samples::deserialize(report.at("from_return")));
    from_start.append(Samples::deserialize(report.at("from_start")));
  }
  nlohmann::json out{
      {"scenario", "handoff"},
      {"processes", 2},
      {"handoffs", from_return.count()},
      {"ops_per_s", round2(static_cast<double>(from_return.count()) / elapsed)},
      {"ops_meaning", "handoffs/s (each round waits ~2.5 ms for the waiter to sleep)"}};
  from_return.add_to(out);
  from_start.add_to(out, "from_unlock_start_");
  out["measured"] =
      "waiter lock() return - holder unlock() return (p50_us, p99_us); "
      "from_unlock_start_*: - holder unlock() call";
  add_target(out, "p50_us < 200", from_return.percentile_us(50) < kTargetP50Us);
  return out;
}

}  // namespace redisson_bench
