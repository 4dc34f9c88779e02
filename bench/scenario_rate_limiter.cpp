// rate-limiter: RateLimiter::async_try_acquire(1) from one client, `in_flight` calls kept
// outstanding (each completion issues the next), on a limiter whose rate is too high ever to
// refuse; against the same script (the library's embedded rate_limiter_acquire, with the
// arguments a RateLimiter sends: 1 permit, the client's clock, 16 random bytes) sent raw as
// EVALSHA through Client::async_execute, alternating slice by slice in the same run.
// ratio = our acquisitions/s / raw EVALSHA/s: what the object layer costs over the script.
#include <asio/post.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <random>
#include <stdexcept>

#include "alternate.hpp"
#include "bench.hpp"
#include "clock.hpp"
#include "histogram.hpp"
#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/rate_limiter.hpp"
#include "report.hpp"
#include "server_stats.hpp"
#include "sync/names.hpp"

namespace redisson_bench {
namespace {

constexpr double kTargetRatio = 0.9;
// Far above what one client can take in an interval: no attempt is ever refused.
constexpr std::int64_t kRate = 1'000'000'000'000;
constexpr auto kInterval = std::chrono::seconds(1);

/// One call: issues an operation that calls `done(ok)` on completion.
using Issue = std::function<void(std::function<void(bool)> done)>;

// `in_flight` loops of `issue`, each completion issuing the next until stop(). Everything but
// `stopping_` and the drain signal is touched only on the client's I/O thread.
class InFlightLoad {
 public:
  InFlightLoad(redisson::Client& client, Issue issue, LatencyHistogram& latency)
      : client_(client), issue_(std::move(issue)), latency_(latency) {}

  void start(int in_flight) {
    in_flight_ = in_flight;
    asio::post(client_.get_executor(), [this] {
      for (int i = 0; i < in_flight_; ++i) next();
    });
  }
  void stop() { stopping_.store(true); }
  bool drain(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return drained_cv_.wait_for(lock, timeout, [this] { return drained_; });
  }

  std::uint64_t completed() const { return completed_; }
  std::uint64_t errors() const { return errors_; }
  std::int64_t last_completion_ns() const { return last_completion_ns_; }

 private:
  void next() {
    const auto started = monotonic_ns();
    issue_([this, started](bool ok) { on_done(ok, started); });
  }

  void on_done(bool ok, std::int64_t started) {
    const auto now = monotonic_ns();
    latency_.record(now - started);
    last_completion_ns_ = now;
    if (ok) {
      ++completed_;
    } else {
      ++errors_;
    }
    if (!stopping_.load(std::memory_order_relaxed)) return next();
    if (--in_flight_ == 0) {
      std::lock_guard lock(mutex_);
      drained_ = true;
      drained_cv_.notify_all();
    }
  }

  redisson::Client& client_;
  Issue issue_;
  LatencyHistogram& latency_;
  std::atomic<bool> stopping_{false};
  int in_flight_ = 0;
  std::uint64_t completed_ = 0;
  std::uint64_t errors_ = 0;
  std::int64_t last_completion_ns_ = 0;
  std::mutex mutex_;
  std::condition_variable drained_cv_;
  bool drained_ = false;
};

struct Side {
  LatencyHistogram latency;
  double operations = 0;
  double seconds = 0;
  std::uint64_t errors = 0;
  double client_cpu_seconds = 0;  ///< this process's CPU while the side ran
  double server_cpu_seconds = 0;
};

std::int64_t epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

nlohmann::json run_rate_limiter(const Options& options) {
  redisson::Client client(options.url);
  redisson::Client stats_client(options.url);
  const auto ours_name = bench_key(options, "rate-limiter");
  const auto raw_name = bench_key(options, "rate-limiter-raw");
  redisson::RateLimiter limiter(client, ours_name);
  limiter.set_rate(redisson::RateType::overall, kRate, kInterval);
  redisson::RateLimiter(client, raw_name).set_rate(redisson::RateType::overall, kRate, kInterval);

  // The raw side: the same script with the same keys and arguments, EVALSHA through execute.
  const auto& script = redisson::detail::lua::rate_limiter_acquire;
  if (client.execute(redisson::Command{"SCRIPT", "LOAD", script.source}).str != script.sha1) {
    throw std::runtime_error("SCRIPT LOAD of rate_limiter_acquire answered another SHA-1");
  }
  using redisson::detail::suffix_name;
  const auto value = suffix_name(raw_name, "value");
  const auto permits = suffix_name(raw_name, "permits");
  const std::vector<std::string> raw_keys{raw_name, value, suffix_name(value, client.id()), permits,
                                          suffix_name(permits, client.id())};
  std::mt19937_64 random{std::random_device{}()};

  const Issue ours = [&limiter](std::function<void(bool)> done) {
    limiter.async_try_acquire(
        1, [done = std::move(done)](std::error_code ec, bool acquired) { done(!ec && acquired); });
  };
  // Runs on the client's I/O thread only (one loop at a time): `random` needs no lock.
  const Issue raw = [&](std::function<void(bool)> done) {
    std::string tag(16, '\0');
    for (std::size_t i = 0; i < tag.size(); i += 8) {
      const auto bits = random();
      for (std::size_t j = 0; j < 8; ++j) tag[i + j] = static_cast<char>(bits >> (8 * j));
    }
    auto command = script(raw_keys, {"1", std::to_string(epoch_ms()), tag}).command;
    client.async_execute(
        command, [done = std::move(done)](std::error_code ec, const redisson::Reply& reply) {
          done(!ec && reply.is_null());
        });
  };

  Side mine, reference;
  const auto run_slice = [&](const Issue& issue, Side& side, std::chrono::nanoseconds duration,
                             bool warm_up) {
    LatencyHistogram discarded;
    InFlightLoad load(client, issue, warm_up ? discarded : side.latency);
    const double client_before = process_cpu_seconds();
    const double server_before = read_server_cpu_seconds(stats_client);
    const auto started = monotonic_ns();
    load.start(options.in_flight);
    sleep_until_ns(started + duration.count());
    load.stop();
    if (!load.drain(std::chrono::milliseconds(30'000))) {
      throw std::runtime_error("rate-limiter: calls still outstanding 30 s after the end");
    }
    if (warm_up) return;
    side.client_cpu_seconds += process_cpu_seconds() - client_before;
    side.server_cpu_seconds += read_server_cpu_seconds(stats_client) - server_before;
    side.operations += static_cast<double>(load.completed());
    side.seconds += static_cast<double>(load.last_completion_ns() - started) / 1e9;
    side.errors += load.errors();
  };

  const int slices = slice_count(options);
  const auto slice = options.duration / slices;
  constexpr auto kWarmUp = std::chrono::milliseconds(300);
  run_slice(ours, mine, kWarmUp, true);
  run_slice(raw, reference, kWarmUp, true);
  nlohmann::json slice_ratios = nlohmann::json::array();
  for (int i = 0; i < slices; ++i) {
    const double ours_before = mine.operations, ours_seconds = mine.seconds;
    const double raw_before = reference.operations, raw_seconds = reference.seconds;
    run_slice(ours, mine, slice, false);
    run_slice(raw, reference, slice, false);
    const double ours_rate = (mine.operations - ours_before) / (mine.seconds - ours_seconds);
    const double raw_rate = (reference.operations - raw_before) / (reference.seconds - raw_seconds);
    slice_ratios.push_back(round2(ours_rate / raw_rate));
  }
  limiter.delete_object();
  redisson::RateLimiter(client, raw_name).delete_object();

  const double ours_rate = mine.seconds > 0 ? mine.operations / mine.seconds : 0;
  const double raw_rate = reference.seconds > 0 ? reference.operations / reference.seconds : 0;
  const double ratio = raw_rate > 0 ? ours_rate / raw_rate : 0;
  nlohmann::json out{{"scenario", "rate-limiter"},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(ours_rate)},
                     {"unit", "try_acquire(1) calls, all granted"}};
  mine.latency.add_to(out);
  out["acquisitions"] = mine.operations;
  out["errors"] = mine.errors + reference.errors;
  out["reference"] = {{"tool", "redisson::Client::async_execute(EVALSHA)"},
                      {"what", "the rate limiter's acquire script, same keys and arguments"},
                      {"ops_per_s", round2(raw_rate)},
                      {"p50_us", round2(reference.latency.percentile_us(50))},
                      {"p99_us", round2(reference.latency.percentile_us(99))},
                      {"calls", reference.operations},
                      {"client_cpu", round2(reference.client_cpu_seconds / reference.seconds)},
                      {"server_cpu", round2(reference.server_cpu_seconds / reference.seconds)},
                      {"client_cpu_us_per_call",
                       round2(reference.client_cpu_seconds * 1e6 / reference.operations)}};
  out["client_cpu"] = round2(mine.client_cpu_seconds / mine.seconds);
  out["server_cpu"] = round2(mine.server_cpu_seconds / mine.seconds);
  out["client_cpu_us_per_call"] = round2(mine.client_cpu_seconds * 1e6 / mine.operations);
  out["ratio"] = round2(ratio);
  out["slice_ratios"] = std::move(slice_ratios);
  out["ratio_meaning"] = "try_acquire/s / raw EVALSHA/s of the same script";
  add_target(out, "ratio >= 0.9", ratio >= kTargetRatio);
  return out;
}

}  // namespace redisson_bench
