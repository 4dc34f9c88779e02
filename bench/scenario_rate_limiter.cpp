// rate-limiter: RateLimiter::async_try_acquire(1) from one client, `in_flight` calls kept
// outstanding (each completion issues the next), on a limiter whose rate is too high ever to
// refuse; against the same script (the library's embedded rate_limiter_acquire, with the
// arguments a RateLimiter sends: 1 permit, the client's clock, 16 random bytes) sent raw as
// EVALSHA through Client::async_execute, alternating slice by slice in the same run.
// ratio = our acquisitions/s / raw EVALSHA/s: what the object layer costs over the script.
#include <chrono>
#include <random>
#include <stdexcept>

#include "bench.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/rate_limiter.hpp"
#include "sync/names.hpp"
#include "versus_script.hpp"

namespace redisson_bench {
namespace {

// Far above what one client can take in an interval: no attempt is ever refused.
constexpr std::int64_t kRate = 1'000'000'000'000;
constexpr auto kInterval = std::chrono::seconds(1);

}  // namespace

nlohmann::json run_rate_limiter(const Options& options) {
  redisson::Client client(options.url);
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
    send_raw(
        client,
        script(raw_keys, {"1", std::to_string(redisson::detail::unix_time_ms()), tag}).command,
        [](const redisson::Reply& reply) { return reply.is_null(); }, std::move(done));
  };

  auto out = run_versus_script(options, client,
                               {"rate-limiter", "try_acquire(1) calls, all granted",
                                "the rate limiter's acquire script, same keys and arguments",
                                "try_acquire/s / raw EVALSHA/s of the same script"},
                               ours, raw);
  limiter.delete_object();
  redisson::RateLimiter(client, raw_name).delete_object();
  return out;
}

}  // namespace redisson_bench
