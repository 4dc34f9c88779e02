// The objects' single-client throughput, each against the raw commands it stands for, sent by
// redis-benchmark in the same run (closed_loop.hpp):
//   bucket       Bucket<std::string>::async_set / async_get alternating, the default codec
//                (kryo5) encoding and decoding every value, vs -P 32 -c 50 -t set,get
//   atomic-long  AtomicLong::async_increment_and_get vs -P 32 -c 50 -t incr
//   map          Map<std::string, std::string>::async_fast_put / async_get alternating (HSET,
//                HGET), the default codec, vs -P 32 -c 50 -t hset (redis-benchmark has no HGET
//                test; the server does the same work for both)
#include "bench.hpp"
#include "closed_loop.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/map.hpp"

namespace redisson_bench {

nlohmann::json run_bucket(const Options& options) {
  redisson::Client client(options.url);
  redisson::Bucket<std::string> bucket(client, bench_key(options, "bucket"));
  const std::string value = "xxx";
  auto out = run_throughput(
      options, client,
      {"bucket",
       {"-P", "32", "-c", "50", "-t", "set,get"},
       "SET and GET, 50 connections, pipeline 32"},
      [&](std::uint64_t sequence, ClosedLoop::Completion done) {
        if (sequence & 1) {
          bucket.async_get(
              [done = std::move(done)](std::error_code ec, const std::optional<std::string>&) {
                done(ec);
              });
        } else {
          bucket.async_set(value, [done = std::move(done)](std::error_code ec) { done(ec); });
        }
      });
  out["codec"] = std::string(bucket.codec().name());
  return out;
}

nlohmann::json run_atomic_long(const Options& options) {
  redisson::Client client(options.url);
  redisson::AtomicLong counter(client, bench_key(options, "atomic-long"));
  return run_throughput(
      options, client,
      {"atomic-long", {"-P", "32", "-c", "50", "-t", "incr"}, "INCR, 50 connections, pipeline 32"},
      [&](std::uint64_t, ClosedLoop::Completion done) {
        counter.async_increment_and_get(
            [done = std::move(done)](std::error_code ec, std::int64_t) { done(ec); });
      });
}

nlohmann::json run_map(const Options& options) {
  redisson::Client client(options.url);
  redisson::Map<std::string, std::string> map(client, bench_key(options, "map"));
  const std::string field = "element";
  const std::string value = "xxx";
  auto out = run_throughput(
      options, client,
      {"map", {"-P", "32", "-c", "50", "-t", "hset"}, "HSET, 50 connections, pipeline 32"},
      [&](std::uint64_t sequence, ClosedLoop::Completion done) {
        if (sequence & 1) {
          map.async_get(field,
                        [done = std::move(done)](std::error_code ec,
                                                 const std::optional<std::string>&) { done(ec); });
        } else {
          map.async_fast_put(field, value,
                             [done = std::move(done)](std::error_code ec, bool) { done(ec); });
        }
      });
  out["codec"] = std::string(map.codec().name());
  return out;
}

}  // namespace redisson_bench
