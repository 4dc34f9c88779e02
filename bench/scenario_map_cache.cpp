// map-cache: MapCache<std::string, std::string>::async_fast_put(key, value, ttl 60 s) from one
// client, `in_flight` calls outstanding, over 100 keys; against the same script (the library's
// embedded map_cache_put, with the keys and arguments a MapCache sends: the client's clock, the
// expiry, the channels) sent raw as EVALSHA through Client::async_execute, alternating slice by
// slice in the same run (versus_script.hpp). ratio = our puts/s / raw EVALSHA/s.
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/map_cache.hpp"
#include "versus_script.hpp"

namespace redisson_bench {
namespace {

constexpr auto kTtl = std::chrono::seconds(60);
constexpr int kKeys = 100;

}  // namespace

nlohmann::json run_map_cache(const Options& options) {
  namespace codecs = redisson::codecs;
  redisson::Client client(options.url);
  const auto ours_name = bench_key(options, "map-cache");
  const auto raw_name = bench_key(options, "map-cache-raw");
  redisson::MapCache<std::string, std::string> cache(client, ours_name, codecs::string());
  std::vector<std::string> keys;
  for (int i = 0; i < kKeys; ++i) keys.push_back("k" + std::to_string(i));
  const std::string value = "xxx";

  const auto& script = redisson::detail::lua::map_cache_put;
  if (client.execute(redisson::Command{"SCRIPT", "LOAD", script.source}).str != script.sha1) {
    throw std::runtime_error("SCRIPT LOAD of map_cache_put answered another SHA-1");
  }
  std::vector<std::string> raw_keys{raw_name};
  for (auto& key : redisson::detail::map_cache_keys(raw_name)) raw_keys.push_back(key);
  const auto tag = "{" + raw_name + "}";

  // Both loops run on the client's I/O thread, one at a time: the counters need no lock.
  std::size_t ours_next = 0;
  std::size_t raw_next = 0;
  const Issue ours = [&](std::function<void(bool)> done) {
    cache.async_fast_put(keys[ours_next++ % keys.size()], value, kTtl, std::chrono::milliseconds{0},
                         [done = std::move(done)](std::error_code ec, bool) { done(!ec); });
  };
  const Issue raw = [&](std::function<void(bool)> done) {
    const auto now = redisson::detail::unix_time_ms();
    const auto expiry = now + std::chrono::duration_cast<std::chrono::milliseconds>(kTtl).count();
    send_raw(
        client,
        script(raw_keys,
               {std::to_string(now), std::to_string(expiry), "0", "0",
                keys[raw_next++ % keys.size()], value, "fast", "redisson_map_cache_created:" + tag,
                "redisson_map_cache_updated:" + tag, "redisson_map_cache_removed:" + tag})
            .command,
        [](const redisson::Reply& reply) { return !reply.is_error(); }, std::move(done));
  };

  auto out = run_versus_script(options, client,
                               {"map-cache", "fast_put(key, value, ttl 60 s) calls",
                                "the map cache's put script, same keys and arguments",
                                "fast_put/s / raw EVALSHA/s of the same script"},
                               ours, raw);
  cache.delete_object();
  redisson::MapCache<std::string, std::string>(client, raw_name, codecs::string()).delete_object();
  out["codec"] = "string";
  return out;
}

}  // namespace redisson_bench
