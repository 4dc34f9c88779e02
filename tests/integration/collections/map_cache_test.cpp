// MapCache<K, V> against a real redis-server: entries expiring by time to live and max idle
// time, the bytes and zset scores Java Redisson 3.52 writes (its fixtures), events, and errors
// that change nothing.
#include "redisson/objects/map_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/unswept_server_test.hpp"

namespace collections_map_cache_test {

using redisson::errc;
using redisson::MapCache;
using redisson::test::codec_of_case;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::java_case;
using redisson::test::java_dump_entry;
using redisson::test::load_java_fixtures;
using redisson::test::to_hex;
using namespace std::chrono_literals;
namespace codecs = redisson::codecs;

namespace {

class MapCacheTest : public redisson::test::UnsweptServerTest {
 protected:
  std::int64_t zscore(const std::string& key, const std::string& member) {
    return std::stoll(server.command({"ZSCORE", key, member}));
  }
};

using StringCache = MapCache<std::string, std::string>;

TEST_F(MapCacheTest, PutWithTtlIsReadableUntilItExpires) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_EQ(cache.put("k", "v1", 1h), std::nullopt);
  EXPECT_EQ(cache.put("k", "v2", 200ms), "v1");
  EXPECT_EQ(cache.get("k"), "v2");
  EXPECT_TRUE(cache.contains_key("k"));
  const auto left = cache.remaining_time_to_live("k");
  EXPECT_GT(left.count(), 0);
  EXPECT_LE(left.count(), 200);

  ASSERT_TRUE(eventually([&] { return cache.get("k") == std::nullopt; }));
  EXPECT_FALSE(cache.contains_key("k"));
  EXPECT_EQ(cache.remaining_time_to_live("k"), -2ms);
  EXPECT_EQ(cache.size(), 1) << "an expired entry stays in the hash until removed, as in Redisson";
  // A put over an expired entry is an insert: nothing replaced.
  EXPECT_EQ(cache.put("k", "v3", 1h), std::nullopt);
  EXPECT_EQ(cache.remove("k"), "v3");
  EXPECT_EQ(cache.remove("k"), std::nullopt);
  EXPECT_EQ(cache.size(), 0);
  EXPECT_EQ(server.command({"EXISTS", "c", "redisson__timeout__set:{c}"}), "0");
}

TEST_F(MapCacheTest, PlainPutNeverExpiresAndClearsAnEarlierTtl) {
  StringCache cache(client, "c", codecs::string());
  cache.put("k", "v1", 1h, 10min);
  EXPECT_EQ(cache.put("k", "v2"), "v1");
  EXPECT_EQ(server.command({"ZSCORE", "redisson__timeout__set:{c}", "k"}), "(nil)");
  EXPECT_EQ(server.command({"ZSCORE", "redisson__idle__set:{c}", "k"}), "(nil)");
  EXPECT_EQ(cache.remaining_time_to_live("k"), -1ms);
  EXPECT_EQ(cache.get("k"), "v2");
  EXPECT_EQ(cache.remaining_time_to_live("absent"), -2ms);
}

TEST_F(MapCacheTest, MaxIdleExpiresUnreadEntriesAndReadsMoveTheDeadline) {
  StringCache cache(client, "c", codecs::string());
  const auto before = now_ms();
  cache.put("k", "v", 0ms, 1h);
  const auto first = zscore("redisson__idle__set:{c}", "k");
  EXPECT_GE(first, before + 3600000);
  EXPECT_EQ(server.command({"ZSCORE", "redisson__timeout__set:{c}", "k"}), "(nil)");
  // Each read moves the idle deadline to now + max idle: it grows as the clock does.
  ASSERT_TRUE(eventually([&] {
    EXPECT_EQ(cache.get("k"), "v");
    return zscore("redisson__idle__set:{c}", "k") > first;
  }));

  cache.put("short", "v", 0ms, 200ms);
  EXPECT_EQ(cache.get("short"), "v");
  // Polling with get or contains_key would keep it alive: remaining_time_to_live reads only.
  ASSERT_TRUE(eventually([&] { return cache.remaining_time_to_live("short") == -2ms; }));
  EXPECT_FALSE(cache.contains_key("short"));
  EXPECT_EQ(cache.get("short"), std::nullopt);
  EXPECT_EQ(cache.get("k"), "v") << "the max idle time of one entry is its own";
}

TEST_F(MapCacheTest, ConditionalAndFastPutsTreatExpiredEntriesAsAbsent) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_TRUE(cache.fast_put("k", "a", 200ms));
  EXPECT_FALSE(cache.fast_put("k", "b", 200ms));
  EXPECT_EQ(cache.put_if_absent("k", "c", 1h), "b");
  EXPECT_EQ(cache.get("k"), "b");
  ASSERT_TRUE(eventually([&] { return !cache.contains_key("k"); }));
  EXPECT_EQ(cache.put_if_absent("k", "d", 1h), std::nullopt);
  EXPECT_EQ(cache.get("k"), "d");
  EXPECT_TRUE(cache.fast_put("new", "e"));
  EXPECT_EQ(cache.remaining_time_to_live("new"), -1ms);
}

TEST_F(MapCacheTest, ReadsWhatJavaWrote) {
  load_java_fixtures(server);
  for (const char* name : {"mapcache_ttl_kryo", "mapcache_ttl_string", "mapcache_ttl_idle_kryo",
                           "mapcache_ttl_idle_string", "mapcache_plain_kryo"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    StringCache cache(client, java.at("key").get<std::string>(), codec_of_case(java));
    EXPECT_EQ(cache.get("k"), "v");
    EXPECT_EQ(cache.size(), 1);
    EXPECT_EQ(cache.read_all_map(), (std::map<std::string, std::string>{{"k", "v"}}));
    // The value's own bytes (Kryo's string "v" is 3 of them), not the entry's packing.
    const auto v_bytes =
        codec_of_case(java)->map_value_codec().encode(redisson::to_value(std::string("v")));
    EXPECT_EQ(cache.value_size("k"), static_cast<std::int64_t>(v_bytes.size()));
    const auto left = cache.remaining_time_to_live("k");
    if (std::string(name) == "mapcache_plain_kryo") {
      EXPECT_EQ(left, -1ms);
    } else {
      EXPECT_GT(left, 0ms);
    }
  }
}

// The bytes and scores Java writes for put("k", "v", 1, HOURS, 10, MINUTES), put("k", "v", 1,
// HOURS) and put("k", "v"): C++ writes the same ones (scores up to the clock).
TEST_F(MapCacheTest, WritesJavasLayout) {
  struct Case {
    const char* java;
    std::chrono::milliseconds ttl;
    std::chrono::milliseconds max_idle;
  };
  for (const Case& c :
       {Case{"mapcache_ttl_idle_kryo", 1h, 10min}, Case{"mapcache_ttl_idle_string", 1h, 10min},
        Case{"mapcache_ttl_kryo", 1h, 0ms}, Case{"mapcache_ttl_string", 1h, 0ms},
        Case{"mapcache_plain_kryo", 0ms, 0ms}}) {
    SCOPED_TRACE(c.java);
    const auto& java = java_case(c.java);
    const std::string java_name = java.at("key").get<std::string>();
    const std::string name = "cpp:" + java_name;
    StringCache cache(client, name, codec_of_case(java));
    const auto before = now_ms();
    if (c.ttl == 0ms) {
      cache.put("k", "v");
    } else {
      cache.put("k", "v", c.ttl, c.max_idle);
    }
    const auto after = now_ms();

    const auto& hash = java_dump_entry(java_name).at("content");
    ASSERT_EQ(hash.size(), 1u);
    const std::string field_hex = hash[0][0].at("hex").get<std::string>();
    const std::string value_hex = hash[0][1].at("hex").get<std::string>();
    EXPECT_EQ(server.command({"HLEN", name}), "1");
    EXPECT_EQ(to_hex(server.command({"HGET", name, redisson::test::from_hex(field_hex)})),
              value_hex);

    const std::string field = redisson::test::from_hex(field_hex);
    const auto check_zset = [&](const std::string& prefix, std::chrono::milliseconds delta) {
      const std::string java_key = std::string(prefix).append(":{").append(java_name).append("}");
      const std::string key = std::string(prefix).append(":{").append(name).append("}");
      if (delta == 0ms) {
        EXPECT_EQ(server.command({"EXISTS", key}), "0") << key;
        EXPECT_THROW((void)java_dump_entry(java_key), std::exception) << java_key;
        return;
      }
      const auto& members = java_dump_entry(java_key).at("content");
      ASSERT_EQ(members.size(), 1u);
      EXPECT_EQ(members[0][0].at("hex").get<std::string>(), field_hex);
      // Java's score is call time + delta; ours must be the same formula.
      const auto java_score = std::stoll(members[0][1].get<std::string>());
      EXPECT_NEAR(static_cast<double>(java_score - java.at("call_at_ms").get<std::int64_t>()),
                  static_cast<double>(delta.count()), 50.0);
      const auto score = zscore(key, field);
      EXPECT_GE(score, before + delta.count());
      EXPECT_LE(score, after + delta.count());
    };
    check_zset("redisson__timeout__set", c.ttl);
    check_zset("redisson__idle__set", c.max_idle);
  }
}

TEST_F(MapCacheTest, PublishesRedissonsEventsWhenAListenerIsRegistered) {
  for (const char* name : {"mapcache_events_kryo", "mapcache_events_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    const std::string cache_name = java.at("key").get<std::string>();
    StringCache cache(client, cache_name, codec_of_case(java));
    // What a Java listener does when it registers.
    server.command({"HSET", "{" + cache_name + "}:redisson_options", "has-listeners", "1"});
    redisson::test::Messages messages;
    std::vector<std::string> channels;
    std::vector<redisson::Subscription> subscriptions;
    for (const auto& step : java.at("captured")) {
      const auto channel = step.at("channel").get<std::string>();
      subscriptions.push_back(client.subscribe(channel, messages.sink()));
      ASSERT_TRUE(redisson::test::subscribers_are(server, channel, 1));
    }
    cache.put("k", "v", 1h);
    cache.put("k", "v2", 1h);
    cache.remove("k");
    ASSERT_TRUE(eventually([&] { return messages.get().size() == 3; }));
    const auto received = messages.get();
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(to_hex(received[i]), java.at("captured")[i].at("hex").get<std::string>()) << i;
    }
  }
}

TEST_F(MapCacheTest, KeepsTheAccessScoresOfAMapJavaBounded) {
  // What Java's setMaxSize(10) (LRU, the default mode) writes; C++ keeps the scores, so Java's
  // eviction picks the least recently used entry.
  server.command({"HSET", "{c}:redisson_options", "max-size", "10", "mode", "LRU"});
  StringCache cache(client, "c", codecs::string());
  const auto before = now_ms();
  cache.put("a", "1", 1h);
  cache.fast_put("b", "2");
  EXPECT_GE(zscore("redisson__map_cache__last_access__set:{c}", "a"), before);
  EXPECT_GE(zscore("redisson__map_cache__last_access__set:{c}", "b"), before);
  const auto a_put = zscore("redisson__map_cache__last_access__set:{c}", "a");
  ASSERT_TRUE(eventually([&] {
    EXPECT_EQ(cache.get("a"), "1");
    return zscore("redisson__map_cache__last_access__set:{c}", "a") > a_put;
  }));
  EXPECT_EQ(cache.remove("a"), "1");
  EXPECT_EQ(server.command({"ZSCORE", "redisson__map_cache__last_access__set:{c}", "a"}), "(nil)");

  // LFU counts accesses.
  server.command({"HSET", "{f}:redisson_options", "max-size", "10", "mode", "LFU"});
  StringCache counted(client, "f", codecs::string());
  counted.put("k", "v");
  (void)counted.get("k");
  (void)counted.contains_key("k");
  EXPECT_EQ(zscore("redisson__map_cache__last_access__set:{f}", "k"), 3);

  // Without a max size nothing is kept.
  StringCache unbounded(client, "u", codecs::string());
  unbounded.put("k", "v");
  (void)unbounded.get("k");
  EXPECT_EQ(server.command({"EXISTS", "redisson__map_cache__last_access__set:{u}"}), "0");
}

TEST_F(MapCacheTest, ReadingAJavaEntryWithMaxIdleMovesItsIdleDeadline) {
  load_java_fixtures(server);
  const auto& java = java_case("mapcache_ttl_idle_kryo");
  const std::string name = java.at("key").get<std::string>();
  const std::string idle_key = "redisson__idle__set:{" + name + "}";
  const std::string field = redisson::test::from_hex("03826b");
  StringCache cache(client, name, codec_of_case(java));
  const auto before = now_ms();
  EXPECT_EQ(cache.get("k"), "v");
  // Java packed max idle 600000.0: the read sets the deadline to now + 10 min.
  const auto score = zscore(idle_key, field);
  EXPECT_GE(score, before + 600000);
  EXPECT_LE(score, now_ms() + 600000);
  const auto left = cache.remaining_time_to_live("k");
  EXPECT_GT(left, 9min);
  EXPECT_LE(left, 10min);
}

TEST_F(MapCacheTest, ABoundedMapEvictsTheLeastRecentlyOrOftenUsed) {
  StringCache lru(client, "lru", codecs::string());
  EXPECT_TRUE(lru.try_set_max_size(2));
  EXPECT_FALSE(lru.try_set_max_size(5, redisson::EvictionMode::lfu));
  EXPECT_EQ(server.command({"HGET", "{lru}:redisson_options", "max-size"}), "2");
  EXPECT_EQ(server.command({"HGET", "{lru}:redisson_options", "mode"}), "LRU");
  lru.put("a", "1");
  lru.put("b", "2", 1h, 10min);
  // A later access makes "a" the most recent (scores are ms: wait until the clock moved).
  const auto b_score = zscore("redisson__map_cache__last_access__set:{lru}", "b");
  ASSERT_TRUE(eventually([&] {
    (void)lru.get("a");
    return zscore("redisson__map_cache__last_access__set:{lru}", "a") > b_score;
  }));
  EXPECT_EQ(lru.put("a", "1b"), "1") << "an update at the bound evicts nothing";
  EXPECT_EQ(lru.size(), 2);
  lru.put("c", "3");
  EXPECT_EQ(lru.size(), 2);
  EXPECT_EQ(lru.get("b"), std::nullopt);
  EXPECT_EQ(lru.get("a"), "1b");
  EXPECT_EQ(lru.get("c"), "3");
  EXPECT_EQ(server.command({"EXISTS", "redisson__timeout__set:{lru}", "redisson__idle__set:{lru}"}),
            "0")
      << "the evicted entry left every zset";

  StringCache lfu(client, "lfu", codecs::string());
  lfu.set_max_size(2, redisson::EvictionMode::lfu);
  lfu.put("a", "1");
  (void)lfu.get("a");
  (void)lfu.get("a");
  lfu.put("b", "2");
  lfu.put("c", "3");
  EXPECT_EQ(lfu.get("b"), std::nullopt) << "used once, against three times";
  EXPECT_EQ(lfu.get("a"), "1");
  EXPECT_EQ(lfu.get("c"), "3");

  expect_error(
      errc::invalid_argument, [&] { lfu.set_max_size(-1); }, "set_max_size(-1)");
}

TEST_F(MapCacheTest, ExpireEntrySetsAndClearsTheDeadlinesOfALiveEntry) {
  StringCache cache(client, "c", codecs::string());
  cache.put("k", "v");
  const auto before = now_ms();
  EXPECT_TRUE(cache.expire_entry("k", 1h, 10min));
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "k"), before + 3600000);
  EXPECT_GE(zscore("redisson__idle__set:{c}", "k"), before + 600000);
  // Redisson repacks the value with the new max idle: 600000.0 as a little-endian double.
  EXPECT_EQ(to_hex(server.command({"HGET", "c", "k"})), "00000000804f2241010000000000000076");
  EXPECT_GT(cache.remaining_time_to_live("k"), 0ms);
  EXPECT_LE(cache.remaining_time_to_live("k"), 10min);
  // 0 removes a limit; the value stays.
  EXPECT_TRUE(cache.expire_entry("k", 0ms, 0ms));
  EXPECT_EQ(server.command({"ZSCORE", "redisson__timeout__set:{c}", "k"}), "(nil)");
  EXPECT_EQ(server.command({"ZSCORE", "redisson__idle__set:{c}", "k"}), "(nil)");
  EXPECT_EQ(cache.remaining_time_to_live("k"), -1ms);
  EXPECT_EQ(cache.get("k"), "v");

  EXPECT_FALSE(cache.expire_entry("absent", 1h));
  EXPECT_FALSE(cache.contains_key("absent"));
  // An expired entry (its deadline written in the past) is not brought back.
  cache.put("old", "x");
  server.command({"ZADD", "redisson__timeout__set:{c}", "1", "old"});
  EXPECT_FALSE(cache.expire_entry("old", 1h));
  EXPECT_EQ(zscore("redisson__timeout__set:{c}", "old"), 1);
  EXPECT_EQ(cache.get("old"), std::nullopt);

  cache.put("a", "1");
  cache.put("b", "2");
  EXPECT_EQ(cache.expire_entries({"a", "b", "old", "absent"}, 1h), 2);
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "a"), before + 3600000);
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "b"), before + 3600000);
  EXPECT_EQ(cache.expire_entries({}, 1h), 0);
  EXPECT_TRUE(cache.async_expire_entry("a", 2h, 0ms, asio::use_future).get());
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "a"), before + 7200000);
}

TEST_F(MapCacheTest, ExpireEntryIfNotSetLeavesEntriesThatAlreadyExpire) {
  StringCache cache(client, "c", codecs::string());
  cache.put("plain", "v");
  cache.put("ttl", "v", 1h);
  cache.put("idle", "v", 0ms, 1h);
  EXPECT_FALSE(cache.expire_entry_if_not_set("ttl", 5min));
  EXPECT_FALSE(cache.expire_entry_if_not_set("idle", 5min));
  EXPECT_FALSE(cache.expire_entry_if_not_set("absent", 5min));
  const auto ttl_score = zscore("redisson__timeout__set:{c}", "ttl");
  EXPECT_TRUE(cache.expire_entry_if_not_set("plain", 0ms, 5min));
  EXPECT_EQ(server.command({"ZSCORE", "redisson__timeout__set:{c}", "plain"}), "(nil)");
  EXPECT_FALSE(cache.expire_entry_if_not_set("plain", 1h)) << "now it has a max idle deadline";
  EXPECT_EQ(zscore("redisson__timeout__set:{c}", "ttl"), ttl_score);

  cache.put("p1", "v");
  cache.put("p2", "v");
  EXPECT_EQ(cache.expire_entries_if_not_set({"p1", "p2", "ttl", "absent"}, 1h), 2);
  EXPECT_EQ(cache.expire_entries_if_not_set({"p1", "p2"}, 1h), 0);
  EXPECT_EQ(cache.async_expire_entries_if_not_set({"p1"}, 1h, 0ms, asio::use_future).get(), 0);
}

TEST_F(MapCacheTest, ExpireEntryRefusesBadInputAndOtherTypesChangingNothing) {
  StringCache cache(client, "c", codecs::string());
  cache.put("k", "v");
  expect_error(
      errc::invalid_argument, [&] { cache.expire_entry("k", -1ms); }, "negative ttl");
  expect_error(
      errc::invalid_argument, [&] { cache.expire_entries({"k"}, 1h, -1ms); }, "negative idle");
  expect_error(
      errc::invalid_argument, [&] { cache.expire_entry_if_not_set("k", -1ms); }, "negative ttl");
  EXPECT_EQ(cache.remaining_time_to_live("k"), -1ms);

  server.command({"SET", "s", "x"});
  StringCache wrong(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { wrong.expire_entry("k", 1h); }, "expire_entry");
  expect_error(
      errc::wrong_type, [&] { wrong.expire_entries_if_not_set({"k"}, 1h); }, "if_not_set");
  expect_error(
      errc::wrong_type, [&] { (void)wrong.get_with_ttl_only("k"); }, "get_with_ttl_only");
  expect_error(
      errc::wrong_type, [&] { (void)wrong.get_all_with_ttl_only({"k"}); }, "get_all_with_ttl_only");
  EXPECT_EQ(server.command({"GET", "s"}), "x");
  EXPECT_EQ(server.command({"EXISTS", "redisson__timeout__set:{s}"}), "0");
}

TEST_F(MapCacheTest, TtlOnlyReadsIgnoreAndKeepTheMaxIdleDeadline) {
  StringCache cache(client, "c", codecs::string());
  cache.put("idle", "v", 0ms, 1h);
  // Its idle deadline written in the past: get() treats it as expired, the TTL-only read not,
  // and leaves the deadline where it was.
  server.command({"ZADD", "redisson__idle__set:{c}", "1", "idle"});
  EXPECT_EQ(cache.get_with_ttl_only("idle"), "v");
  EXPECT_EQ(zscore("redisson__idle__set:{c}", "idle"), 1);
  EXPECT_EQ(cache.get("idle"), std::nullopt);

  cache.put("gone", "v", 1h);
  server.command({"ZADD", "redisson__timeout__set:{c}", "1", "gone"});
  EXPECT_EQ(cache.get_with_ttl_only("gone"), std::nullopt);
  cache.put("live", "w", 1h);
  EXPECT_EQ(cache.get_with_ttl_only("live"), "w");
  EXPECT_EQ(cache.get_with_ttl_only("absent"), std::nullopt);
  EXPECT_EQ(cache.get_all_with_ttl_only({"idle", "gone", "live", "absent"}),
            (std::map<std::string, std::string>{{"idle", "v"}, {"live", "w"}}));
  EXPECT_TRUE(cache.get_all_with_ttl_only({}).empty());
  EXPECT_EQ(cache.async_get_with_ttl_only("live", asio::use_future).get(), "w");
}

TEST_F(MapCacheTest, ComputeStoresWithATtlAndSeesExpiredEntriesAsAbsent) {
  StringCache cache(client, "c", codecs::string());
  using Old = std::optional<std::string>;
  const auto before = now_ms();
  EXPECT_EQ(cache.compute(
                "k", 1h,
                [](const std::string&, const Old& old) -> Old { return old.value_or("") + "a"; }),
            "a");
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "k"), before + 3600000);
  EXPECT_EQ(cache.compute_if_absent("n", 1h, [](const std::string& key) -> Old { return key; }),
            "n");
  EXPECT_GE(zscore("redisson__timeout__set:{c}", "n"), before + 3600000);
  // Map's forms store without a time to live.
  EXPECT_EQ(
      cache.compute("k", [](const std::string&, const Old& old) -> Old { return *old + "b"; }),
      "ab");
  EXPECT_EQ(cache.remaining_time_to_live("k"), -1ms);
  EXPECT_EQ(
      cache.merge("k", "c",
                  [](const std::string& old, const std::string& v) -> Old { return old + v; }),
      "abc");

  server.command({"ZADD", "redisson__timeout__set:{c}", "1", "n"});
  EXPECT_EQ(cache.compute("n",
                          [](const std::string&, const Old& old) -> Old {
                            EXPECT_EQ(old, std::nullopt) << "an expired entry is absent";
                            return std::nullopt;
                          }),
            std::nullopt);
  EXPECT_EQ(cache.compute_if_present("n",
                                     [](const std::string&, const std::string&) -> Old {
                                       ADD_FAILURE() << "called for an expired entry";
                                       return "x";
                                     }),
            std::nullopt);
  expect_error(
      errc::invalid_argument,
      [&] { (void)cache.compute("k", -1ms, [](const std::string&, const Old& o) { return o; }); },
      "negative ttl");
  EXPECT_EQ(server.command({"EXISTS", cache.lock_name("k"), cache.lock_name("n")}), "0");

  cache.put("r1", "1", 1h);
  cache.put("r2", "2");
  cache.replace_all([](const std::string&, const std::string& v) { return v + v; });
  EXPECT_EQ(cache.get("r1"), "11");
  EXPECT_EQ(cache.get("r2"), "22");
  EXPECT_GT(cache.remaining_time_to_live("r1"), 0ms) << "a replace keeps the entry's time to live";
  std::set<std::string> keys;
  for (const auto& key : cache.keys()) keys.insert(key);
  EXPECT_EQ(keys, (std::set<std::string>{"k", "r1", "r2"})) << "the expired n is not scanned";
}

TEST_F(MapCacheTest, WrongTypeKeyIsRefusedAndLeftAlone) {
  server.command({"SET", "s", "x"});
  StringCache cache(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { cache.put("k", "v", 1h); }, "put");
  expect_error(
      errc::wrong_type, [&] { (void)cache.get("k"); }, "get");
  expect_error(
      errc::wrong_type, [&] { (void)cache.remove("k"); }, "remove");
  expect_error(
      errc::wrong_type, [&] { (void)cache.size(); }, "size");
  EXPECT_EQ(server.command({"GET", "s"}), "x");
  EXPECT_EQ(server.command({"EXISTS", "redisson__timeout__set:{s}"}), "0");
  expect_error(
      errc::invalid_argument, [&] { cache.put("k", "v", -1ms); }, "negative ttl");
}

TEST_F(MapCacheTest, DeleteAndExpireActOnEveryKey) {
  StringCache cache(client, "c", codecs::string());
  cache.put("k", "v", 1h, 10min);
  EXPECT_TRUE(cache.expire(1h));
  EXPECT_NE(server.command({"PTTL", "redisson__idle__set:{c}"}), "-1");
  EXPECT_TRUE(cache.delete_object());
  EXPECT_EQ(
      server.command({"EXISTS", "c", "redisson__timeout__set:{c}", "redisson__idle__set:{c}"}),
      "0");
}

TEST_F(MapCacheTest, EvictExpiredRemovesExpiredEntriesAndPublishesExpiredEvents) {
  StringCache cache(client, "c", codecs::string());
  server.command({"HSET", "{c}:redisson_options", "has-listeners", "1"});
  redisson::test::Messages expired;
  auto subscription = client.subscribe("redisson_map_cache_expired:{c}", expired.sink());
  ASSERT_TRUE(redisson::test::subscribers_are(server, "redisson_map_cache_expired:{c}", 1));
  cache.put("ttl", "a", 100ms);
  cache.put("idle", "b", 0ms, 100ms);
  cache.put("kept", "c", 1h);
  cache.put("forever", "d");
  // Waiting without reading "idle", which would move its idle deadline.
  const auto idle_deadline = zscore("redisson__idle__set:{c}", "idle");
  ASSERT_TRUE(eventually([&] { return now_ms() > idle_deadline + 5; }));
  ASSERT_TRUE(eventually([&] { return !cache.contains_key("ttl"); }));
  EXPECT_EQ(cache.size(), 4);
  EXPECT_EQ(cache.evict_expired(), 2);
  EXPECT_EQ(cache.size(), 2);
  EXPECT_EQ(server.command({"ZRANGE", "redisson__timeout__set:{c}", "0", "-1"}), "kept");
  EXPECT_EQ(server.command({"ZCARD", "redisson__idle__set:{c}"}), "0");
  EXPECT_EQ(cache.evict_expired(), 0);
  // Redisson's expired event: 'Lc0Lc0' (key, value), 8-byte little-endian lengths.
  ASSERT_TRUE(eventually([&] { return expired.get().size() == 2; }));
  std::vector<std::string> got = expired.get();
  std::sort(got.begin(), got.end());
  const auto event = [](const std::string& key, const std::string& value) {
    std::string bytes;
    for (const auto& part : {key, value}) {
      std::uint64_t length = part.size();
      for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
      bytes += part;
    }
    return bytes;
  };
  std::vector<std::string> want{event("idle", "b"), event("ttl", "a")};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  expect_error(errc::invalid_argument, [&] { cache.evict_expired(0); });
}

TEST_F(MapCacheTest, TheSweeperRemovesExpiredEntriesOnItsOwnOncePerIntervalAndFollowsARename) {
  auto config = config_for(server);
  config.eviction.min_delay = 200ms;
  ASSERT_TRUE(config.eviction.enabled) << "on by default";
  redisson::Client swept(config);
  StringCache cache(swept, "c", codecs::string());
  cache.put("a", "1", 50ms);
  cache.put("b", "2");
  ASSERT_TRUE(eventually([&] { return server.command({"HLEN", "c"}) == "1"; }));
  EXPECT_EQ(cache.get("b"), "2");
  EXPECT_EQ(server.command({"ZCARD", "redisson__timeout__set:{c}"}), "0");
  // Redisson's latch: the sweep that ran holds it so that other clients skip this interval.
  EXPECT_EQ(server.command({"EXISTS", "redisson__execute_task_once_latch:{c}"}), "1");
  // Renamed, the handle's sweeper follows the map to its new name.
  cache.rename("c2");
  cache.put("c", "3", 50ms);
  EXPECT_TRUE(eventually([&] { return server.command({"HLEN", "c2"}) == "1"; }));
  EXPECT_EQ(cache.get("b"), "2");
}

TEST_F(MapCacheTest, TheSweeperStaysOffWhenDisabledAndStopsWithItsLastHandle) {
  auto config = config_for(server);
  config.eviction.min_delay = 100ms;
  config.eviction.enabled = false;
  redisson::Client lazy(config);
  {
    StringCache cache(lazy, "off", codecs::string());
    cache.put("a", "1", 10ms);
    ASSERT_TRUE(eventually([&] { return !cache.contains_key("a"); }));
  }
  config.eviction.enabled = true;
  redisson::Client swept(config);
  {
    StringCache cache(swept, "gone", codecs::string());
    const StringCache copy = cache;  // copies share the one sweeper
  }
  // No handle on "gone" is left, so nothing sweeps it; "off"'s client never sweeps.
  server.command({"HSET", "gone", "x", "y"});
  server.command({"ZADD", "redisson__timeout__set:{gone}", "1", "x"});
  // Rather than a pause: a live handle's expired entry, created after those, swept away. By
  // then a sweeper still running for "gone" would have swept it too.
  StringCache kept(swept, "kept", codecs::string());
  kept.put("k", "v", 10ms);
  ASSERT_TRUE(eventually([&] { return server.command({"HLEN", "kept"}) == "0"; }));
  EXPECT_EQ(server.command({"HLEN", "off"}), "1");
  EXPECT_EQ(server.command({"HLEN", "gone"}), "1");
  auto bad = config_for(server);
  bad.eviction.keys_limit = 0;
  expect_error(errc::invalid_argument, [&] { redisson::Client refused(bad); });
  bad = config_for(server);
  bad.eviction.max_delay = 1ms;
  expect_error(errc::invalid_argument, [&] { redisson::Client refused(bad); });
}

using Event = redisson::MapCacheEvent<std::string, std::string>;
using redisson::MapCacheEventKind;

/// The events a listener heard, in order; safe to read while they arrive.
struct Heard {
  std::mutex mutex;
  std::vector<Event> events;
  std::function<void(const Event&)> sink() {
    return [this](const Event& event) {
      std::lock_guard guard(mutex);
      events.push_back(event);
    };
  }
  std::vector<Event> get() {
    std::lock_guard guard(mutex);
    return events;
  }
  /// The events of one kind, in the order they were heard (each listener hears its own kind
  /// in order; two listeners run on their own strands, so their calls may interleave).
  std::vector<Event> of(MapCacheEventKind kind) {
    std::vector<Event> same;
    for (auto& event : get()) {
      if (event.kind == kind) same.push_back(event);
    }
    return same;
  }
};

TEST_F(MapCacheTest, ListenersHearEveryKindOfEvent) {
  StringCache cache(client, "c", codecs::string());
  Heard heard;
  std::vector<redisson::ListenerId> ids;
  for (auto kind : {MapCacheEventKind::created, MapCacheEventKind::updated,
                    MapCacheEventKind::removed, MapCacheEventKind::expired}) {
    ids.push_back(cache.add_listener(kind, heard.sink()));
  }
  EXPECT_EQ(server.command({"HGET", "{c}:redisson_options", "has-listeners"}), "1")
      << "as Java's addListener, so that Java writers publish too";
  cache.put("k", "v", 1h);
  cache.put("k", "v2", 1h);
  cache.remove("k");
  cache.put("e", "x", 50ms);
  const auto deadline = zscore("redisson__timeout__set:{c}", "e");
  ASSERT_TRUE(eventually([&] { return now_ms() > deadline + 5; }));
  EXPECT_EQ(cache.evict_expired(), 1);
  ASSERT_TRUE(eventually([&] { return heard.get().size() == 5; }));
  EXPECT_EQ(heard.of(MapCacheEventKind::created),
            (std::vector<Event>{{MapCacheEventKind::created, "k", "v", std::nullopt},
                                {MapCacheEventKind::created, "e", "x", std::nullopt}}));
  EXPECT_EQ(heard.of(MapCacheEventKind::updated),
            (std::vector<Event>{{MapCacheEventKind::updated, "k", "v2", "v"}}));
  EXPECT_EQ(heard.of(MapCacheEventKind::removed),
            (std::vector<Event>{{MapCacheEventKind::removed, "k", "v2", std::nullopt}}));
  EXPECT_EQ(heard.of(MapCacheEventKind::expired),
            (std::vector<Event>{{MapCacheEventKind::expired, "e", "x", std::nullopt}}));
  for (const auto id : ids) EXPECT_TRUE(cache.remove_listener(id));
  EXPECT_FALSE(cache.remove_listener(ids[0])) << "already removed";
  EXPECT_TRUE(eventually([&] {
    return redisson::test::numsub(server, "redisson_map_cache_created:{c}") ==
           "redisson_map_cache_created:{c}\n0";
  }));
}

TEST_F(MapCacheTest, ListenersReadJavasEventsAndReportUnreadableOnes) {
  std::mutex mutex;
  std::vector<redisson::error> failures;
  auto config = redisson::test::unswept_config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard guard(mutex);
    failures.push_back(failure);
  };
  redisson::Client listening(config);
  for (const char* name : {"mapcache_events_kryo", "mapcache_events_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    StringCache cache(listening, java.at("key").get<std::string>(), codec_of_case(java));
    Heard heard;
    for (auto kind :
         {MapCacheEventKind::created, MapCacheEventKind::updated, MapCacheEventKind::removed}) {
      (void)cache.add_listener(kind, heard.sink());
    }
    // The bytes Java Redisson published for put k v, put k v2, remove k.
    for (const auto& step : java.at("captured")) {
      server.command({"PUBLISH", step.at("channel").get<std::string>(),
                      redisson::test::from_hex(step.at("hex").get<std::string>())});
    }
    ASSERT_TRUE(eventually([&] { return heard.get().size() == 3; }));
    EXPECT_EQ(heard.of(MapCacheEventKind::created),
              (std::vector<Event>{{MapCacheEventKind::created, "k", "v", std::nullopt}}));
    EXPECT_EQ(heard.of(MapCacheEventKind::updated),
              (std::vector<Event>{{MapCacheEventKind::updated, "k", "v2", "v"}}));
    EXPECT_EQ(heard.of(MapCacheEventKind::removed),
              (std::vector<Event>{{MapCacheEventKind::removed, "k", "v2", std::nullopt}}));
  }
  StringCache cache(listening, "bad", codecs::string());
  Heard heard;
  (void)cache.add_listener(MapCacheEventKind::removed, heard.sink());
  server.command({"PUBLISH", "redisson_map_cache_removed:{bad}", "not framed"});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard guard(mutex);
    return failures.size() == 1;
  }));
  // As any listener's failure (topics' too): listener_failed, saying what went wrong.
  EXPECT_EQ(failures[0].code(), errc::listener_failed) << failures[0].what();
  EXPECT_NE(std::string(failures[0].what()).find("not Redisson's framing"), std::string::npos)
      << failures[0].what();
  EXPECT_TRUE(heard.get().empty());
}

}  // namespace

}  // namespace collections_map_cache_test
