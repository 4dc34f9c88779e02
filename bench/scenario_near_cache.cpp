// near-cache: LocalCachedMap<std::string, std::string>, Java Redisson's RLocalCachedMap.
//   (1) hits: get() from one thread on 1,000 keys (100-byte values) all cached by
//       preload_cache(), against Map<std::string, std::string>::get on the same hash from one
//       thread, in the same run. ratio = cached gets/s / plain gets/s; target >= 100x. Then
//       the same from as many threads as cores (at least 2) at once, for information.
//   (2) invalidation: a writer instance (this process, its own client) puts one key; a reader
//       instance in another process had the old value cached. Measured: from the writer's put()
//       call to the moment the reader's cache no longer holds the old value, one put at a time,
//       under the `invalidate` strategy (Redisson's default; the target) and under `update`.
//       Reference: redis-benchmark -c 1 PING p50 in the same run; target p50 <= 2x.
//
// How the reader sees the change without polling its cache all the time: a LocalCachedMap has
// no callback for "my cache changed", but its cache changes when the `{name}:topic` message is
// applied. The reader adds a plain Topic listener on that same channel, on the same client (one
// subscription, so the message reaches both listeners at once), added after the cache's own so
// that the cache's is handed the message first. When that listener is called,
// it checks the cache itself (cached_map(): is the old value still there?). The library runs
// each listener on its own strand of the listener threads, so the cache's listener may not have
// applied the message yet: then the check repeats (yielding) until the cache dropped or
// replaced the old value, bounded by a second. The stamp is taken after the check succeeded, so
// the figure is never earlier than the cache's change (at worst a little later); how often the
// check had to repeat is reported (`listener_ahead_of_cache`).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "objects/suffix_name.hpp"
#include "redis_tools.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/local_cached_map.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/topic.hpp"
#include "report.hpp"
#include "shared_memory.hpp"
#include "workers.hpp"

namespace redisson_bench {
namespace {

constexpr int kNearCacheKeys = 1000;
constexpr std::size_t kNearCacheValueBytes = 100;
constexpr double kTargetHitRatio = 100.0;
constexpr double kTargetInvalidationPingRatio = 2.0;
constexpr auto kNearCacheSetUpTimeout = std::chrono::seconds(30);
// How long the reader's check may wait for its cache after the message reached its listener.
constexpr auto kCacheApplyLimit = std::chrono::seconds(1);
const std::string kWatchedKey = "watched";

/// Shared between the writer (this process) and the reader process.
struct NearCacheShared {
  std::atomic<std::int64_t> ready;          // the reader cached version ready-1 of the key
  std::atomic<std::int64_t> changed;        // versions whose change the reader's cache showed
  std::atomic<std::int64_t> changed_at_ns;  // monotonic_ns() when the last change was seen
  std::atomic<std::int64_t> stop;           // the writer is done
  std::atomic<std::int64_t> failed;         // the reader gave up
  SharedSignal signal;                      // raised after any of the above changed
};

/// Version `n` of the watched key's value: 100 bytes.
std::string version_value(std::int64_t n) {
  auto value = "v" + std::to_string(n) + ":";
  value.resize(kNearCacheValueBytes, 'x');
  return value;
}

redisson::LocalCachedMapOptions sync_options(const std::string& sync) {
  redisson::LocalCachedMapOptions options;
  if (sync == "invalidate") {
    options.sync = redisson::LocalCacheSync::invalidate;
  } else if (sync == "update") {
    options.sync = redisson::LocalCacheSync::update;
  } else {
    throw std::invalid_argument("near-cache: unknown sync strategy " + sync);
  }
  return options;
}

/// Calls `op(i)` from one thread for `duration`; the calls per second.
template <class Op>
double ops_per_second(std::chrono::nanoseconds duration, Op&& op) {
  const auto start = monotonic_ns();
  const auto end = start + duration.count();
  std::int64_t done = 0;
  auto now = start;
  while (now < end) {
    for (int i = 0; i < 256; ++i) op(done++);
    now = monotonic_ns();
  }
  return static_cast<double>(done) / (static_cast<double>(now - start) / 1e9);
}

/// Calls `op(i)` from `threads` threads at once for `duration`; the calls per second of all.
template <class Op>
double ops_per_second_threads(int threads, std::chrono::nanoseconds duration, const Op& op) {
  std::vector<std::int64_t> done(static_cast<std::size_t>(threads));
  std::vector<std::thread> running;
  const auto start = monotonic_ns();
  const auto end = start + duration.count();
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      std::int64_t count = 0;
      while (monotonic_ns() < end) {
        for (int i = 0; i < 256; ++i) op(count++ + t * 7919);
      }
      done[static_cast<std::size_t>(t)] = count;
    });
  }
  for (auto& thread : running) thread.join();
  std::int64_t total = 0;
  for (const auto count : done) total += count;
  return static_cast<double>(total) / (static_cast<double>(monotonic_ns() - start) / 1e9);
}

/// (1): cached gets/s and plain gets/s, one thread each, on the same 1,000 entries; then the
/// same from as many threads as the machine has cores (at least 2), for information.
nlohmann::json measure_hits(const Options& options, redisson::Client& client) {
  namespace codecs = redisson::codecs;
  const auto name = bench_key(options, "near-cache-hits");
  std::vector<std::string> keys;
  std::map<std::string, std::string> entries;
  for (int i = 0; i < kNearCacheKeys; ++i) {
    keys.push_back("key:" + std::to_string(i));
    entries.emplace(keys.back(), version_value(i));
  }
  redisson::Map<std::string, std::string> plain(client, name, codecs::string());
  plain.put_all(entries);
  redisson::LocalCachedMap<std::string, std::string> cached(client, name, {}, codecs::string());
  cached.preload_cache();
  const auto before = cached.local_cache_stats();
  if (before.size != kNearCacheKeys) {
    throw std::runtime_error("near-cache: preload_cache cached " + std::to_string(before.size) +
                             " of " + std::to_string(kNearCacheKeys) + " entries");
  }
  std::size_t bytes = 0;  // read back, so that no get is left out
  for (const auto& key : keys) bytes += cached.get(key).value_or("").size();  // warm-up
  const auto warm = cached.local_cache_stats();
  const double cached_rate = ops_per_second(options.duration / 4, [&](std::int64_t i) {
    bytes += cached.get(keys[static_cast<std::size_t>(i) % keys.size()]).value_or("").size();
  });
  const auto after = cached.local_cache_stats();
  for (int i = 0; i < 200; ++i)
    bytes += plain.get(keys[static_cast<std::size_t>(i)]).value_or("").size();
  const double plain_rate = ops_per_second(options.duration / 4, [&](std::int64_t i) {
    bytes += plain.get(keys[static_cast<std::size_t>(i) % keys.size()]).value_or("").size();
  });
  // Every thread: a get, its value's size checked (so no get is left out).
  std::atomic<std::int64_t> empty{0};
  const auto read = [&](const auto& map) {
    return [&keys, &empty, m = &map](std::int64_t i) {
      if (!m->get(keys[static_cast<std::size_t>(i) % keys.size()])) empty.fetch_add(1);
    };
  };
  const int threads = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  const double cached_threads_rate =
      ops_per_second_threads(threads, options.duration / 8, read(cached));
  const auto after_threads = cached.local_cache_stats();
  const double plain_threads_rate =
      ops_per_second_threads(threads, options.duration / 8, read(plain));
  if (bytes == 0 || empty.load() != 0) {
    throw std::runtime_error("near-cache: a get answered nothing");
  }
  cached.destroy();
  plain.delete_object();

  const auto misses = after.misses - warm.misses;
  const double ratio = cached_rate / plain_rate;
  nlohmann::json out{{"measured",
                      "get() calls/s from 1 thread, 1,000 keys of 100-byte values, all cached by "
                      "preload_cache()"},
                     {"threads", 1},
                     {"cached_ops_per_s", round2(cached_rate)},
                     {"plain_map_ops_per_s", round2(plain_rate)},
                     {"cached_hits", after.hits - warm.hits},
                     {"cached_misses", misses},
                     {"ratio", round2(ratio)},
                     {"ratio_meaning", "LocalCachedMap::get/s / Map::get/s (higher is better)"}};
  add_target(out, "cached get/s >= 100x Map::get/s, no miss",
             misses == 0 && ratio >= kTargetHitRatio);
  out["threads_" + std::to_string(threads)] = {
      {"measured", "the same from " + std::to_string(threads) +
                       " threads at once on one client (for information)"},
      {"cached_ops_per_s", round2(cached_threads_rate)},
      {"cached_ops_per_s_per_thread", round2(cached_threads_rate / threads)},
      {"plain_map_ops_per_s", round2(plain_threads_rate)},
      {"plain_map_ops_per_s_per_thread", round2(plain_threads_rate / threads)},
      {"cached_misses", after_threads.misses - after.misses},
      {"ratio", round2(cached_threads_rate / plain_threads_rate)}};
  return out;
}

/// (2): one strategy's put-to-reader's-cache latency, with the reader in another process.
Samples measure_invalidation(const Options& options, redisson::Client& client,
                             const std::string& sync, nlohmann::json& report) {
  namespace codecs = redisson::codecs;
  Shared<NearCacheShared> shared;
  const auto name = bench_key(options, "near-cache-" + sync);
  redisson::LocalCachedMap<std::string, std::string> writer(client, name, sync_options(sync),
                                                            codecs::string());
  writer.put(kWatchedKey, version_value(0));
  ChildGroup workers;
  workers.spawn(worker_command(options, "near-cache-" + sync, 0, name), /*capture_stderr=*/false,
                shared.fd());
  Samples latency;
  std::string failure;
  const auto end = monotonic_ns() + (options.duration / 4).count();
  std::int64_t version = 0;
  while (failure.empty() && monotonic_ns() < end) {
    // The reader holds `version` in its cache before the next put.
    if (!wait_signalled(
            shared->signal,
            [&] { return shared->ready.load() >= version + 1 || shared->failed.load() != 0; },
            kNearCacheSetUpTimeout) ||
        shared->failed.load() != 0) {
      failure = "the reader stopped";
      break;
    }
    const auto start = monotonic_ns();
    writer.put(kWatchedKey, version_value(version + 1));
    if (!wait_signalled(
            shared->signal,
            [&] { return shared->changed.load() >= version + 1 || shared->failed.load() != 0; },
            kNearCacheSetUpTimeout) ||
        shared->failed.load() != 0) {
      failure = "the reader's cache kept the old value";
      break;
    }
    latency.record(shared->changed_at_ns.load() - start);
    ++version;
  }
  shared->stop.store(1);
  shared->signal.raise();
  const auto reports =
      worker_reports(workers.wait_all(std::chrono::steady_clock::now() + kNearCacheSetUpTimeout));
  writer.destroy();
  writer.delete_object();
  if (!failure.empty()) throw std::runtime_error("near-cache " + sync + ": " + failure);
  report["puts"] = version;
  report["listener_ahead_of_cache"] = reports.at(0).value("listener_ahead_of_cache", 0);
  latency.add_to(report);
  return latency;
}

}  // namespace

int worker_near_cache(const WorkerOptions& options) {
  namespace codecs = redisson::codecs;
  Shared<NearCacheShared> shared(kWorkerSharedFd);
  nlohmann::json report;
  try {
    const std::string prefix = "near-cache-";
    const auto sync = options.kind.substr(prefix.size());
    redisson::Client client(options.common.url);
    redisson::LocalCachedMap<std::string, std::string> reader(client, options.lock_name,
                                                              sync_options(sync), codecs::string());
    std::mutex mutex;
    std::string old_value;  // what the cache held before the put being waited for
    std::atomic<std::int64_t> ahead{0};
    const auto holds_old = [&] {
      const auto entries = reader.cached_map();
      const auto at = entries.find(kWatchedKey);
      std::lock_guard<std::mutex> hold(mutex);
      return at != entries.end() && at->second == old_value;
    };
    // Subscribed and filled from here on. Its listener is added first: a message is handed to
    // a channel's listeners in the order they were added, so the cache's starts first.
    reader.preload_cache();
    // The same channel as the cache's own subscription (see the comment at the top).
    redisson::Topic<redisson::Bytes> messages(
        client, redisson::detail::suffix_name(options.lock_name, "topic"), codecs::bytes());
    // Removes our listener (only ours: the cache's own listens on the same channel) before what
    // it uses goes, on every path out; no call of it starts after remove_listener returns.
    struct RemoveListener {
      redisson::Topic<redisson::Bytes>& topic;
      std::optional<redisson::ListenerId> id;
      ~RemoveListener() {
        try {
          if (id) topic.remove_listener(*id);
        } catch (const std::exception&) {
          // The client is going too: its listener threads stop with it.
        }
      }
    } listener{messages, std::nullopt};
    listener.id = messages.add_listener([&](std::string_view, const redisson::Bytes&) {
      const auto limit = monotonic_ns() + std::chrono::nanoseconds(kCacheApplyLimit).count();
      if (holds_old()) {
        ahead.fetch_add(1);
        while (holds_old()) {
          if (monotonic_ns() > limit) {
            shared->failed.store(1);
            shared->signal.raise();
            return;
          }
          std::this_thread::yield();
        }
      }
      shared->changed_at_ns.store(monotonic_ns());
      shared->changed.fetch_add(1);
      shared->signal.raise();
    });
    for (std::int64_t version = 0;; ++version) {
      const auto expected = version_value(version);
      // A miss under `invalidate` (read from Redis and cached), a hit under `update`.
      if (reader.get(kWatchedKey) != expected) {
        throw std::runtime_error("the reader read another value than version " +
                                 std::to_string(version));
      }
      {
        std::lock_guard<std::mutex> hold(mutex);
        old_value = expected;
      }
      if (!holds_old()) throw std::runtime_error("get() left the value out of the cache");
      shared->ready.store(version + 1);
      shared->signal.raise();
      if (!wait_signalled(
              shared->signal,
              [&] { return shared->changed.load() >= version + 1 || shared->stop.load() != 0; },
              std::chrono::hours(1)) ||
          shared->stop.load() != 0) {
        break;
      }
    }
    reader.destroy();
    report = {{"listener_ahead_of_cache", ahead.load()}};
  } catch (const std::exception& e) {
    shared->failed.store(1);
    shared->signal.raise();
    report = {{"error", e.what()}};
  }
  std::cout << report.dump() << std::endl;
  return report.contains("error") ? 1 : 0;
}

nlohmann::json run_near_cache(const Options& options) {
  redisson::Client client(options.url);
  nlohmann::json out{{"scenario", "near-cache"}, {"processes", 2}};
  auto hits = measure_hits(options, client);
  out["hits"] = hits;

  nlohmann::json invalidate{{"measured",
                             "writer's put() call -> the reader's cache (another process) no "
                             "longer holds the old value, one put at a time"}};
  const auto latency = measure_invalidation(options, client, "invalidate", invalidate);
  nlohmann::json update{{"measured", invalidate["measured"]}};
  const auto updated = measure_invalidation(options, client, "update", update);
  const double reference_p50_us = ping_reference(options, options.duration / 4, out);
  const double ratio = latency.percentile_us(50) / reference_p50_us;
  invalidate["ratio"] = round2(ratio);
  update["ratio"] = round2(updated.percentile_us(50) / reference_p50_us);
  out["ratio_meaning"] =
      "hits: cached get/s / Map::get/s; invalidate and update: p50 / redis-benchmark -c 1 PING "
      "p50";
  out["invalidate"] = invalidate;
  out["update"] = update;
  // The table's columns: the cached gets/s, and the invalidation's latency (the target's).
  out["ops_per_s"] = hits["cached_ops_per_s"];
  out["ops_meaning"] = "LocalCachedMap::get calls/s on cached keys, 1 thread";
  out["p50_us"] = invalidate["p50_us"];
  out["p99_us"] = invalidate["p99_us"];
  out["latency_meaning"] = "invalidate: put() call -> the other process's cache dropped the value";
  const bool hits_met = hits["meets_target"].get<bool>();
  const bool invalidation_met = latency.count() > 0 && ratio <= kTargetInvalidationPingRatio;
  out["hits_meets_target"] = hits_met;
  out["invalidation_meets_target"] = invalidation_met;
  add_target(out,
             "cached get/s >= 100x Map::get/s (1 thread); invalidate p50 <= 2x redis-benchmark "
             "-c 1 PING p50",
             hits_met && invalidation_met);
  return out;
}

}  // namespace redisson_bench
