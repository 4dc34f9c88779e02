// many-locks: one client holds --locks (100,000) locks on distinct names with the watchdog on for
// --hold-time (60 s). Measured:
//  - the client's memory per held lock: VmRSS after acquiring them all (handles kept) minus
//    VmRSS before (client connected, scripts loaded), divided by the count;
//  - the renewals the server received over the hold (INFO commandstats from a second
//    connection): script calls per second against Redisson's one per 100 locks per round, and
//    keys renewed per second (the renewal script's PEXPIREs) against count / (lease / 3);
//  - that nothing was lost: lost() of every lock, a HEXISTS of every owner field at the end,
//    and the errors the client's error handler received;
//  - acquisition: the locks taken with async_lock, --in-flight (256) outstanding, against the
//    lock's acquire script sent raw through Client::async_execute on as many other names with as
//    many in flight. Two rounds each, alternating (locks, raw, locks, raw); the second lock round
//    releases at once. ratio = locks/s / raw EVALSHA/s.
// Everything is released or deleted at the end (the unlock latches expire on their own).
#include <atomic>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "clock.hpp"
#include "closed_loop.hpp"
#include "histogram.hpp"
#include "lock_script_pair.hpp"
#include "redisson/redisson.hpp"
#include "report.hpp"
#include "server_stats.hpp"

namespace redisson_bench {
namespace {

constexpr double kTargetRatio = 0.9;
constexpr double kTargetBytesPerLock = 1024;
// Java Redisson renews at most 100 locks per script call (its watchdog's chunk).
constexpr double kRedissonLocksPerRenewal = 100;

// One pass of `count` operations, `in_flight` outstanding, on `client`'s I/O thread.
struct Pass {
  double seconds = 0;
  std::uint64_t completed = 0;
  std::uint64_t errors = 0;
  std::string first_error;
};

Pass run_pass(redisson::Client& client, int in_flight, std::uint64_t count,
              LatencyHistogram& latency, const ClosedLoop::Start& start, const char* what) {
  ClosedLoop loop(client.get_executor(), latency, start);
  const auto started = monotonic_ns();
  loop.run(in_flight, count);
  // Generous: the machine is shared; 1 ms per operation is far slower than any real pass.
  const auto timeout = std::chrono::milliseconds(30'000 + static_cast<std::int64_t>(count));
  if (!loop.drain(timeout)) {
    throw std::runtime_error(std::string("many-locks: ") + what + " still outstanding after " +
                             std::to_string(timeout.count() / 1000) + " s");
  }
  return Pass{static_cast<double>(loop.last_completion_ns() - started) / 1e9, loop.completed(),
              loop.errors(), loop.first_error()};
}

// Errors of a pass that must have none.
void expect_no_errors(const Pass& pass, const char* what) {
  if (pass.errors != 0) {
    throw std::runtime_error(std::string("many-locks: ") + what + ": " +
                             std::to_string(pass.errors) + " errors, first: " + pass.first_error);
  }
}

double rate(std::uint64_t operations, double seconds) {
  return seconds > 0 ? static_cast<double>(operations) / seconds : 0;
}

}  // namespace

nlohmann::json run_many_locks(const Options& options) {
  const auto count = static_cast<std::uint64_t>(options.locks);
  std::atomic<std::uint64_t> handler_errors{0};
  std::mutex first_handler_error_mutex;
  std::string first_handler_error;
  auto config = redisson::Config::from_url(options.url);
  config.lock_watchdog_timeout = options.watchdog_timeout;
  config.error_handler = [&](const redisson::error& failure) {
    if (handler_errors++ == 0) {
      std::lock_guard guard(first_handler_error_mutex);
      first_handler_error = failure.what();
    }
  };
  redisson::Client client(config);
  redisson::Client stats_client(options.url);
  client.execute(redisson::Command{"PING"});
  const LockScriptPair scripts(client, client.id() + ":many-locks-raw");
  const auto owner = client.new_owner_id();

  // ---- the held locks: memory and acquisition ------------------------------------------------
  const auto rss_before = process_rss_bytes();
  std::vector<redisson::Lock> locks;
  locks.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    locks.emplace_back(client, bench_key(options, "many-locks:" + std::to_string(i)));
  }
  const auto acquire_lock = [&](std::uint64_t i, ClosedLoop::Completion done) {
    locks[i].async_lock(owner, [done = std::move(done)](std::error_code ec, bool) { done(ec); });
  };
  LatencyHistogram lock_latency, raw_latency, discarded;
  std::vector<Pass> lock_passes, raw_passes;
  lock_passes.push_back(
      run_pass(client, options.in_flight, count, lock_latency, acquire_lock, "acquisitions"));
  expect_no_errors(lock_passes.back(), "acquisitions");
  const auto rss_held = process_rss_bytes();

  // ---- the hold: renewals ---------------------------------------------------------------------
  const auto counts_before = read_command_counts(stats_client);
  const auto hold_started = monotonic_ns();
  sleep_until_ns(hold_started + options.hold_time.count());
  const auto counts_after = read_command_counts(stats_client);
  const double hold_seconds = static_cast<double>(monotonic_ns() - hold_started) / 1e9;
  const auto rss_after_hold = process_rss_bytes();
  const auto delta = command_delta(counts_before, counts_after);
  const auto calls = [&](const char* name) {
    const auto it = delta.find(name);
    return it == delta.end() ? std::int64_t{0} : it->second;
  };
  // EVALSHA, plus EVAL where the server did not have the renewal script yet (its first round
  // on a fresh server: NOSCRIPT, then EVAL).
  const auto renewal_calls = calls("evalsha") + calls("eval");
  const auto keys_renewed = calls("pexpire");
  const double round_seconds = static_cast<double>(options.watchdog_timeout.count()) / 3000.0;
  const double expected_keys_per_s = static_cast<double>(count) / round_seconds;
  const double redisson_calls_per_s =
      std::ceil(static_cast<double>(count) / kRedissonLocksPerRenewal) / round_seconds;

  // ---- nothing lost ---------------------------------------------------------------------------
  std::uint64_t lost = 0;
  for (const auto& lock : locks) lost += lock.lost(owner) ? 1 : 0;
  std::atomic<std::uint64_t> missing{0};
  const auto field = locks.empty() ? std::string() : locks.front().owner_field(owner);
  const auto check = run_pass(
      client, options.in_flight, count, discarded,
      [&](std::uint64_t i, ClosedLoop::Completion done) {
        client.async_execute(
            redisson::Command{"HEXISTS", locks[i].name(), field},
            [&missing, done = std::move(done)](std::error_code ec, const redisson::Reply& reply) {
              if (!ec && reply.integer != 1) ++missing;
              done(ec);
            });
      },
      "HEXISTS checks");
  expect_no_errors(check, "HEXISTS checks");

  const auto release_lock = [&](std::uint64_t i, ClosedLoop::Completion done) {
    locks[i].async_unlock(owner, [done = std::move(done)](std::error_code ec) { done(ec); });
  };
  const auto release =
      run_pass(client, options.in_flight, count, discarded, release_lock, "releases");
  expect_no_errors(release, "releases");

  // ---- the reference: the acquire script sent raw, alternating with a second lock round -------
  std::vector<std::string> raw_names;
  raw_names.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    raw_names.push_back(bench_key(options, "many-locks-raw:" + std::to_string(i)));
  }
  const auto acquire_raw = [&](std::uint64_t i, ClosedLoop::Completion done) {
    client.async_execute(
        scripts.acquire(raw_names[i]),
        [done = std::move(done)](std::error_code ec, const redisson::Reply& reply) {
          // nil: acquired; a PTTL: the name was not free.
          if (!ec && !reply.is_null()) {
            ec = std::make_error_code(std::errc::device_or_resource_busy);
          }
          done(ec);
        });
  };
  const auto delete_raw = [&](std::uint64_t i, ClosedLoop::Completion done) {
    client.async_execute(
        redisson::Command{"DEL", raw_names[i]},
        [done = std::move(done)](std::error_code ec, const redisson::Reply&) { done(ec); });
  };
  // A measured pass over every name, then an unmeasured one that undoes it.
  const auto take_and_undo = [&](auto& passes, LatencyHistogram& latency, const auto& take,
                                 const auto& undo, const char* what) {
    passes.push_back(run_pass(client, options.in_flight, count, latency, take, what));
    expect_no_errors(passes.back(), what);
    const std::string undone = std::string(what) + " undone";
    expect_no_errors(run_pass(client, options.in_flight, count, discarded, undo, undone.c_str()),
                     undone.c_str());
  };
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {
      take_and_undo(lock_passes, lock_latency, acquire_lock, release_lock, "second acquisitions");
    }
    take_and_undo(raw_passes, raw_latency, acquire_raw, delete_raw, "raw acquisitions");
  }

  double lock_seconds = 0, raw_seconds = 0;
  nlohmann::json pass_ratios = nlohmann::json::array();
  for (std::size_t i = 0; i < lock_passes.size(); ++i) {
    lock_seconds += lock_passes[i].seconds;
    raw_seconds += raw_passes[i].seconds;
    pass_ratios.push_back(round2(rate(lock_passes[i].completed, lock_passes[i].seconds) /
                                 rate(raw_passes[i].completed, raw_passes[i].seconds)));
  }
  const double lock_rate = rate(count * lock_passes.size(), lock_seconds);
  const double raw_rate = rate(count * raw_passes.size(), raw_seconds);
  const double ratio = raw_rate > 0 ? lock_rate / raw_rate : 0;
  const double bytes_per_lock =
      static_cast<double>(rss_held - rss_before) / static_cast<double>(count);
  const double renewal_calls_per_s = static_cast<double>(renewal_calls) / hold_seconds;

  nlohmann::json out{{"scenario", "many-locks"},
                     {"locks", count},
                     {"in_flight", options.in_flight},
                     {"ops_per_s", round2(lock_rate)},
                     {"unit", "acquisitions (async_lock) per second"}};
  lock_latency.add_to(out);
  out["reference"] = {{"tool", "redisson::Client::async_execute(EVALSHA lock_acquire)"},
                      {"what", "the lock's acquire script on as many distinct names"},
                      {"ops_per_s", round2(raw_rate)},
                      {"p50_us", round2(raw_latency.percentile_us(50))},
                      {"p99_us", round2(raw_latency.percentile_us(99))}};
  out["ratio"] = round2(ratio);
  out["pass_ratios"] = std::move(pass_ratios);
  out["memory"] = {
      {"rss_before_bytes", rss_before},
      {"rss_held_bytes", rss_held},
      {"rss_after_hold_bytes", rss_after_hold},
      {"bytes_per_lock", round2(bytes_per_lock)},
      {"bytes_per_lock_after_hold",
       round2(static_cast<double>(rss_after_hold - rss_before) / static_cast<double>(count))}};
  out["renewal"] = {
      {"hold_s", round2(hold_seconds)},
      {"lease_ms", options.watchdog_timeout.count()},
      {"script_calls", renewal_calls},
      {"script_calls_per_s", round2(renewal_calls_per_s)},
      {"redisson_script_calls_per_s", round2(redisson_calls_per_s)},
      {"keys_renewed", keys_renewed},
      {"keys_renewed_per_s", round2(static_cast<double>(keys_renewed) / hold_seconds)},
      {"expected_keys_per_s", round2(expected_keys_per_s)},
      {"server_commands", summarize(delta).per_command}};
  out["lost"] = lost;
  out["missing_at_end"] = missing.load();
  out["error_handler_calls"] = handler_errors.load();
  if (handler_errors.load() != 0) {
    std::lock_guard guard(first_handler_error_mutex);
    out["first_handler_error"] = first_handler_error;
  }
  out["release_per_s"] = round2(rate(release.completed, release.seconds));

  const bool memory_met = bytes_per_lock <= kTargetBytesPerLock;
  const bool renewal_met = renewal_calls_per_s <= redisson_calls_per_s;
  const bool none_lost = lost == 0 && missing.load() == 0 && handler_errors.load() == 0;
  const bool ratio_met = ratio >= kTargetRatio;
  out["meets"] = {{"bytes_per_lock <= 1024", memory_met},
                  {"renewal calls <= Redisson's", renewal_met},
                  {"none lost", none_lost},
                  {"ratio >= 0.9", ratio_met}};
  add_target(out,
             "bytes_per_lock <= 1024, renewal calls <= Redisson's (1 per 100 locks per round), "
             "none lost, ratio >= 0.9",
             memory_met && renewal_met && none_lost && ratio_met);
  return out;
}

}  // namespace redisson_bench
