// The Java-made Bloom filters and rate limiters of the fixtures (java_fixtures.hpp: cases
// bloom_string, bloom_kryo, ratelimiter_overall, ratelimiter_per_client), written into a test
// server under any name, with the rate limiter's acquisition time of the test's choosing.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/java_fixtures.hpp"
#include "support/redis_server.hpp"

namespace redisson::test::java352 {

using redisson::test::from_hex;
using redisson::test::to_hex;

/// The client id of the Java client that wrote the fixtures (its per-client rate limiter keys).
inline std::string writer_client_id() {
  return java_fixtures_meta().at("writer_client_id").get<std::string>();
}

/// The bitmap Java wrote for fx:bloom_string or fx:bloom_kryo (tryInit(1000, 0.03), then
/// add("a"), add("b"), add("c")), as hex; it ends at its highest set bit.
inline std::string bloom_bitmap_hex(std::string_view name) { return java_string_hex(name); }

/// The one permit entry Java's tryAcquire(3) left (0x10, 16 random bytes, uint32 LE 3), as hex.
inline std::string permit_entry_hex(bool per_client) {
  return java_zset_members_hex(per_client
                                   ? "{fx:ratelimiter_per_client}:permits:" + writer_client_id()
                                   : std::string("{fx:ratelimiter_overall}:permits"))
      .at(0);
}

/// Writes Java's Bloom filter `java_name` (bitmap + config) into `server` as `name`.
inline void load_bloom(const RedisServer& server, const std::string& name,
                       std::string_view java_name) {
  server.command({"SET", name, from_hex(bloom_bitmap_hex(java_name))});
  std::vector<std::string> hset{"HSET", "{" + name + "}:config"};
  for (const auto& [field, value] : java_hash_fields("{" + std::string(java_name) + "}:config")) {
    hset.push_back(field);
    hset.push_back(value);
  }
  server.command(hset);
}

/// Writes Java's rate limiter (rate 10 per 1000 ms, 3 permits taken, value 7) into `server` as
/// `name`, the acquisition scored `acquired_at_ms`. Per client: under `client_id`'s keys.
inline void load_rate_limiter(const RedisServer& server, const std::string& name, bool per_client,
                              const std::string& client_id, std::int64_t acquired_at_ms) {
  std::vector<std::string> hset{"HSET", name};
  const char* java_name = per_client ? "fx:ratelimiter_per_client" : "fx:ratelimiter_overall";
  for (const auto& [field, value] : java_hash_fields(java_name)) {
    hset.push_back(field);
    hset.push_back(value);
  }
  server.command(hset);
  std::string value = "{" + name + "}:value";
  std::string permits = "{" + name + "}:permits";
  if (per_client) {
    value += ":" + client_id;
    permits += ":" + client_id;
  }
  server.command({"SET", value, "7"});
  server.command(
      {"ZADD", permits, std::to_string(acquired_at_ms), from_hex(permit_entry_hex(per_client))});
}

inline std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace redisson::test::java352
