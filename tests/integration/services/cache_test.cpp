// Cache and CacheManager against a real redis-server: the MapCache and near-cache backends, the
// time to live and size kept in Redis, one loader per key across two clients, statistics.
#include "redisson/services/cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace services_cache_test {

using namespace std::chrono_literals;
using redisson::Cache;
using redisson::CacheBackend;
using redisson::CacheConfig;
using redisson::CacheManager;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;

namespace {

using StringCache = Cache<std::string, std::string>;

class CacheTest : public redisson::test::ServerTest {};

TEST_F(CacheTest, AMapCacheBackedCacheKeepsTheTimeToLiveAndSizeInRedis) {
  CacheConfig config;
  config.time_to_live = 1h;
  config.max_size = 2;
  StringCache users(client, "cache:users", config, codecs::string());
  EXPECT_EQ(users.get("ada"), std::nullopt);
  users.put("ada", "Ada Lovelace");
  EXPECT_EQ(users.get("ada"), "Ada Lovelace");
  EXPECT_EQ(users.put_if_absent("ada", "someone"), "Ada Lovelace");
  // The entry's deadline is in MapCache's timeout set, about an hour from now.
  const auto deadline =
      std::stoll(server.command({"ZSCORE", "redisson__timeout__set:{cache:users}", "ada"}));
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  EXPECT_GT(deadline, now + 3500 * 1000);
  EXPECT_LE(deadline, now + 3600 * 1000);
  EXPECT_EQ(server.command({"HGET", "{cache:users}:redisson_options", "max-size"}), "2");
  users.put("bob", "Bob");
  users.put("cy", "Cy");
  EXPECT_EQ(users.map().size(), 2) << "the size is kept by the server";
  EXPECT_TRUE(users.evict("cy"));
  EXPECT_FALSE(users.evict("cy"));

  const auto stats = users.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.misses, 1);
  EXPECT_EQ(stats.puts, 3);
  EXPECT_EQ(stats.removals, 1);
  users.clear();
  EXPECT_EQ(server.command({"EXISTS", "cache:users"}), "0");
}

TEST_F(CacheTest, OneLoaderPerKeyAcrossClients) {
  Client other(config_for(server));
  std::atomic<int> loads{0};
  auto loader = [&loads](const std::string& key) {
    ++loads;
    std::this_thread::sleep_for(50ms);  // a slow source: the others must wait for its value
    return "loaded " + key;
  };
  std::vector<std::thread> callers;
  std::vector<std::string> seen(4);
  for (int i = 0; i < 4; ++i) {
    callers.emplace_back([&, i] {
      StringCache cache(i % 2 == 0 ? client : other, "cache:loaded", {}, codecs::string());
      seen[static_cast<std::size_t>(i)] = cache.get_or_compute("k", loader);
    });
  }
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(loads.load(), 1);
  for (const auto& value : seen) EXPECT_EQ(value, "loaded k");

  StringCache cache(client, "cache:loaded", {}, codecs::string());
  EXPECT_THROW(cache.get_or_compute("bad",
                                    [](const std::string&) -> std::string {
                                      throw std::runtime_error("source down");
                                    }),
               std::runtime_error);
  EXPECT_EQ(cache.get("bad"), std::nullopt) << "a failed load stores nothing";
  EXPECT_EQ(server.command({"KEYS", "{cache:loaded}:*:lock"}), "(empty array)")
      << "the key's lock is released";
}

TEST_F(CacheTest, ANearCacheBackedCacheAnswersFromMemory) {
  CacheConfig config;
  config.backend = CacheBackend::local_cached_map;
  config.max_size = 100;
  CacheManager manager(client, {{"cache:near", config}}, {}, codecs::string());
  EXPECT_EQ(manager.cache_names(), std::vector<std::string>{"cache:near"});
  auto near = manager.cache<std::string, std::string>("cache:near");
  near.put("k", "v");
  EXPECT_EQ(near.get("k"), "v");
  ASSERT_NE(near.near_cache(), nullptr);
  auto& map = *near.near_cache();
  map.preload_cache();
  const auto before = map.local_cache_stats().hits;
  EXPECT_EQ(near.get("k"), "v");
  EXPECT_EQ(map.local_cache_stats().hits, before + 1);

  auto plain = manager.cache<std::string, std::string>("cache:other");  // the default config
  plain.put("k", "v");
  EXPECT_EQ(server.command({"TYPE", "cache:other"}), "hash");
  EXPECT_EQ(plain.config().backend, CacheBackend::map_cache);
  EXPECT_EQ(plain.near_cache(), nullptr);
}

TEST_F(CacheTest, BadConfigurationsAreRefused) {
  CacheConfig config;
  config.time_to_live = -1ms;
  expect_error(errc::invalid_argument, [&] { StringCache(client, "cache:bad", config); });
  config = {};
  config.max_size = -1;
  expect_error(errc::invalid_argument, [&] { StringCache(client, "cache:bad", config); });
  server.command({"SET", "cache:text", "x"});
  StringCache wrong(client, "cache:text", {}, codecs::string());
  expect_error(errc::wrong_type, [&] { wrong.put("k", "v"); });
  EXPECT_EQ(server.command({"GET", "cache:text"}), "x");
}

}  // namespace

}  // namespace services_cache_test
