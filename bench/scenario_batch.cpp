// batch: batches of 1,000 mixed operations (Bucket set on 16 buckets, Map fast_put on 16 fields,
// AtomicLong increment_and_get, in turn) made by kBatchProducers threads of one client, each making
// its next batch while up to kBatchesInFlight of its batches execute; every operation has its own
// completion. Reference: redis-benchmark -P 32 -c 50 -t set in the same run; ratio =
// operations/s / SET/s (issue 32: >= 0.9).
#include <asio/use_future.hpp>
#include <atomic>
#include <deque>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "alternate.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "redisson/redisson.hpp"
#include "report.hpp"

namespace redisson_bench {
namespace {

constexpr int kBatchOperations = 1000;
constexpr int kBatchProducers = 2;
constexpr int kBatchBuckets = 16;
constexpr std::size_t kBatchesInFlight = 4;  // per producer
constexpr double kBatchTargetRatio = 0.9;

// One producer's loop: batches until `stop`; returns the operations completed.
std::uint64_t produce_batches(redisson::Client& client, const Options& options, int producer,
                              const std::atomic<bool>& stop, std::atomic<std::uint64_t>& errors,
                              std::string& first_error) {
  const auto prefix = bench_key(options, "batch:" + std::to_string(producer) + ":");
  const auto codec = redisson::codecs::string();
  std::uint64_t done = 0;
  auto count_error = [&errors](std::error_code ec, auto&&...) {
    if (ec) errors.fetch_add(1, std::memory_order_relaxed);
  };
  // As many map fields as buckets: with one field per operation (333) the map is a listpack
  // the server scans on every HSET (1.9 us a call against SET's 0.2 us in INFO commandstats),
  // and the run would measure that scan instead of the client.
  std::vector<std::string> fields;
  for (int f = 0; f < kBatchBuckets; ++f) fields.push_back("field:" + std::to_string(f));
  std::uint64_t round = 0;
  std::deque<std::future<redisson::BatchResult>> executing;
  const auto wait_oldest = [&] {
    try {
      executing.front().get();
      done += kBatchOperations;
    } catch (const std::system_error& e) {
      if (errors.fetch_add(1) == 0) first_error = e.what();
    }
    executing.pop_front();
  };
  while (!stop.load(std::memory_order_relaxed)) {
    redisson::Batch batch(client);
    std::vector<redisson::Bucket<std::string>> buckets;
    buckets.reserve(kBatchBuckets);
    for (int b = 0; b < kBatchBuckets; ++b) {
      buckets.push_back(
          batch.get<redisson::Bucket<std::string>>(prefix + "bucket:" + std::to_string(b), codec));
    }
    auto map = batch.get<redisson::Map<std::string, std::string>>(prefix + "map", codec);
    auto counter = batch.get<redisson::AtomicLong>(prefix + "counter");
    const auto value = std::to_string(round++);
    for (int i = 0; i < kBatchOperations; ++i) {
      switch (i % 3) {
        case 0:
          buckets[static_cast<std::size_t>(i % kBatchBuckets)].async_set(value, count_error);
          break;
        case 1:
          map.async_fast_put(fields[static_cast<std::size_t>(i % kBatchBuckets)], value,
                             count_error);
          break;
        default:
          counter.async_increment_and_get(count_error);
          break;
      }
    }
    // The next batch is made while this one is on its way.
    executing.push_back(batch.async_execute(asio::use_future));
    if (executing.size() > kBatchesInFlight) wait_oldest();
  }
  while (!executing.empty()) wait_oldest();
  return done;
}

}  // namespace

nlohmann::json run_batch(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  std::uint64_t operations = 0;
  std::atomic<std::uint64_t> errors{0};
  std::string first_error;
  const auto slice = [&](std::chrono::nanoseconds duration, bool warm_up) {
    std::atomic<bool> stop{false};
    std::vector<std::uint64_t> done(kBatchProducers, 0);
    std::vector<std::string> error_texts(kBatchProducers);
    std::vector<std::thread> producers;
    const auto started = monotonic_ns();
    for (int p = 0; p < kBatchProducers; ++p) {
      producers.emplace_back([&, p] {
        done[static_cast<std::size_t>(p)] = produce_batches(
            client, options, p, stop, errors, error_texts[static_cast<std::size_t>(p)]);
      });
    }
    sleep_until_ns(started + duration.count());
    stop = true;
    for (auto& producer : producers) producer.join();
    const auto ended = monotonic_ns();
    for (const auto& text : error_texts) {
      if (first_error.empty() && !text.empty()) first_error = text;
    }
    if (warm_up) return Slice{};
    std::uint64_t slice_operations = 0;
    for (const auto count : done) slice_operations += count;
    operations += slice_operations;
    return Slice{static_cast<double>(slice_operations), static_cast<double>(ended - started) / 1e9};
  };
  const auto result =
      alternate(options, stats_client, slice, {"-P", "32", "-c", "50", "-t", "set"}, 1.0);

  nlohmann::json out{{"scenario", "batch"},
                     {"batch_size", kBatchOperations},
                     {"producers", kBatchProducers},
                     {"ops_per_s", round2(result.ours_ops_per_s)},
                     {"unit", "operations (bucket set, map fast_put, atomic increment)"}};
  out["operations"] = operations;
  out["errors"] = errors.load();
  if (errors.load() != 0) out["first_error"] = first_error;
  result.add_to(out, "SET, 50 connections, pipeline 32");
  add_target(out, "ratio >= 0.9", result.ratio >= kBatchTargetRatio);
  return out;
}

}  // namespace redisson_bench
