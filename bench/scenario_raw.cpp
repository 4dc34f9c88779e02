// raw: SET/GET alternating from one client, `in_flight` commands kept outstanding (each
// completion issues the next), against redis-benchmark -P 32 -c 50 -t set in the same run.
#include "bench.hpp"
#include "closed_loop.hpp"

namespace redisson_bench {

nlohmann::json run_raw(const Options& options) {
  redisson::Client client(options.url);
  const auto key = bench_key(options, "raw");
  const redisson::Command set{"SET", key, "xxx"};
  const redisson::Command get{"GET", key};
  return run_throughput(
      options, client,
      {"raw", {"-P", "32", "-c", "50", "-t", "set"}, "SET, 50 connections, pipeline 32"},
      [&](std::uint64_t sequence, ClosedLoop::Completion done) {
        client.async_execute(
            (sequence & 1) ? get : set,
            [done = std::move(done)](std::error_code ec, const redisson::Reply&) { done(ec); });
      });
}

}  // namespace redisson_bench
