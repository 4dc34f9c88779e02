// SetCache<T> against a real redis-server: elements expiring by time to live, paged reads that
// skip expired elements, the eviction step, the bytes and scores Java Redisson 3.52 writes (its
// fixtures), and errors that change nothing.
#include "redisson/objects/set_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/unswept_server_test.hpp"

namespace collections_set_cache_test {

using redisson::errc;
using redisson::SetCache;
using redisson::test::codec_of_case;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::java_case;
using redisson::test::java_dump_entry;
using redisson::test::load_java_fixtures;
using redisson::test::to_hex;
using namespace std::chrono_literals;
namespace codecs = redisson::codecs;

namespace {

using Strings = std::vector<std::string>;
using StringCache = SetCache<std::string>;

class SetCacheTest : public redisson::test::UnsweptServerTest {
 protected:
  std::string zcard(const std::string& key) { return server.command({"ZCARD", key}); }
  std::int64_t scripts_run() {
    return redisson::test::command_calls(server, "eval") +
           redisson::test::command_calls(server, "evalsha");
  }
  static Strings sorted(Strings values) {
    std::sort(values.begin(), values.end());
    return values;
  }
};

TEST_F(SetCacheTest, TtlElementDisappearsWhenItExpiresAndOthersStay) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_TRUE(cache.add("short", 1h));
  EXPECT_TRUE(cache.add("forever"));
  EXPECT_TRUE(cache.add("long", 1h));
  EXPECT_TRUE(cache.contains("short"));
  EXPECT_EQ(cache.size(), 3);
  // Shortened: it may have expired by the time it is read on a busy machine, so only the bound.
  EXPECT_FALSE(cache.add("short", 150ms));
  EXPECT_LE(cache.remaining_time_to_live("short"), 150ms);
  EXPECT_EQ(cache.remaining_time_to_live("forever"), -1ms);
  EXPECT_GT(cache.remaining_time_to_live("long"), 59min);
  EXPECT_EQ(cache.remaining_time_to_live("absent"), -2ms);

  ASSERT_TRUE(eventually([&] { return !cache.contains("short"); }));
  EXPECT_EQ(cache.remaining_time_to_live("short"), -2ms);
  EXPECT_TRUE(cache.contains("forever"));
  EXPECT_TRUE(cache.contains("long"));
  EXPECT_EQ(cache.size(), 2) << "an expired element is not counted";
  EXPECT_EQ(sorted(cache.read_all()), (Strings{"forever", "long"}));
  EXPECT_EQ(zcard("c"), "3") << "it stays in the zset until evicted or removed";
  EXPECT_FALSE(cache.contains("absent"));
}

TEST_F(SetCacheTest, AddAnswersTrueForAnExpiredElementAndReplacesALiveOnesTtl) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_TRUE(cache.add("x", 100ms));
  ASSERT_TRUE(eventually([&] { return !cache.contains("x"); }));
  EXPECT_TRUE(cache.add("x", 1h)) << "expired counts as absent";
  EXPECT_FALSE(cache.add("x")) << "present: false, as in Redisson";
  EXPECT_EQ(cache.remaining_time_to_live("x"), -1ms) << "but the TTL was replaced";
  EXPECT_FALSE(cache.add("x", 100ms));
  ASSERT_TRUE(eventually([&] { return !cache.contains("x"); }));

  // A zero TTL is no TTL (Redisson's add(v, 0, unit) is add(v)).
  EXPECT_TRUE(cache.add("z", 0ms));
  EXPECT_EQ(server.command({"ZSCORE", "c", "z"}), "92233720368547760");
  EXPECT_EQ(cache.remaining_time_to_live("z"), -1ms);

  EXPECT_EQ(cache.add_all({"x", "z", "new"}, 1h), 2) << "x expired, z live, new absent";
  EXPECT_GT(cache.remaining_time_to_live("z"), 59min);
  EXPECT_EQ(cache.add_all({}), 0);
  EXPECT_EQ(cache.size(), 3);
}

TEST_F(SetCacheTest, RemoveCountsOnlyLiveElementsButRemovesExpiredOnesToo) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_EQ(cache.add_all({"a", "b", "c"}, 100ms), 3);
  EXPECT_TRUE(cache.add("d"));
  ASSERT_TRUE(eventually([&] { return cache.size() == 1; }));
  EXPECT_EQ(cache.remove_all({"a", "b", "d", "absent"}), 1);
  EXPECT_EQ(zcard("c"), "1") << "c, expired, was not named";
  EXPECT_FALSE(cache.remove("c"));
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");
  EXPECT_EQ(cache.remove_all({}), 0);

  EXPECT_TRUE(cache.add("e"));
  EXPECT_TRUE(cache.remove("e"));
  EXPECT_FALSE(cache.remove("e"));
}

TEST_F(SetCacheTest, PagesSkipExpiredElements) {
  SetCache<std::int64_t> cache(client, "paged");
  std::vector<std::int64_t> live;
  std::vector<std::int64_t> short_lived;
  for (std::int64_t i = 0; i < 250; ++i) live.push_back(i);
  for (std::int64_t i = 1000; i < 1100; ++i) short_lived.push_back(i);
  EXPECT_EQ(cache.add_all(live), 250);
  EXPECT_EQ(cache.add_all(short_lived, 100ms), 100);
  ASSERT_TRUE(eventually([&] { return cache.size() == 250; }));
  EXPECT_EQ(zcard("paged"), "350");

  std::set<std::int64_t> seen;
  std::size_t pages = 0;
  auto scan = cache.values(30);
  for (auto page = scan.next_batch(); !page.empty(); page = scan.next_batch()) {
    ++pages;
    seen.insert(page.begin(), page.end());
  }
  EXPECT_EQ(seen, std::set<std::int64_t>(live.begin(), live.end()));
  EXPECT_GT(pages, 1u) << "read in pages";

  std::set<std::int64_t> iterated;
  for (const auto value : cache.values(64)) iterated.insert(value);
  EXPECT_EQ(iterated, seen);

  auto all = cache.async_read_all(30, asio::use_future).get();
  EXPECT_EQ(std::set<std::int64_t>(all.begin(), all.end()), seen);
  expect_error(
      errc::invalid_argument, [&] { (void)cache.read_all(0); }, "page size 0");
}

TEST_F(SetCacheTest, EvictExpiredRemovesAtMostTheLimitEarliestFirst) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_EQ(cache.evict_expired(), 0) << "no key";
  cache.add_all({"a", "b", "c", "d", "e"}, 50ms);
  cache.add("live");
  cache.add("later", 1h);
  ASSERT_TRUE(eventually([&] { return cache.size() == 2; }));
  EXPECT_EQ(cache.evict_expired(2), 2);
  EXPECT_EQ(zcard("c"), "5");
  EXPECT_EQ(cache.async_evict_expired(100, asio::use_future).get(), 3);
  EXPECT_EQ(cache.evict_expired(), 0);
  EXPECT_EQ(sorted(cache.read_all()), (Strings{"later", "live"}));
  EXPECT_EQ(zcard("c"), "2");
  expect_error(
      errc::invalid_argument, [&] { (void)cache.evict_expired(0); }, "limit 0");
}

TEST_F(SetCacheTest, WrongTypeKeyIsRefusedAndLeftAlone) {
  server.command({"SET", "s", "x"});
  StringCache cache(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { (void)cache.add("v"); }, "add");
  expect_error(
      errc::wrong_type, [&] { (void)cache.add("v", 1h); }, "add ttl");
  expect_error(
      errc::wrong_type,
      [&] {
        (void)cache.add_all({"v", "w"});
      },
      "add_all");
  expect_error(
      errc::wrong_type, [&] { (void)cache.contains("v"); }, "contains");
  expect_error(
      errc::wrong_type, [&] { (void)cache.remaining_time_to_live("v"); }, "remaining ttl");
  expect_error(
      errc::wrong_type, [&] { (void)cache.remove("v"); }, "remove");
  expect_error(
      errc::wrong_type, [&] { (void)cache.size(); }, "size");
  expect_error(
      errc::wrong_type, [&] { (void)cache.read_all(); }, "read_all");
  expect_error(
      errc::wrong_type, [&] { (void)cache.values().next_batch(); }, "values");
  expect_error(
      errc::wrong_type, [&] { (void)cache.evict_expired(); }, "evict_expired");
  EXPECT_EQ(server.command({"GET", "s"}), "x");
}

TEST_F(SetCacheTest, NegativeTtlIsRefusedAndSendsNothing) {
  StringCache cache(client, "c", codecs::string());
  const auto before = scripts_run();
  expect_error(
      errc::invalid_argument, [&] { (void)cache.add("a", -1ms); }, "add");
  expect_error(
      errc::invalid_argument, [&] { (void)cache.add_all({"a"}, -5ms); }, "add_all");
  auto future = cache.async_add("a", -1ms, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { (void)future.get(); }, "async_add");
  EXPECT_EQ(scripts_run(), before);
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");
}

TEST_F(SetCacheTest, Resp2RepliesReadTheSame) {
  auto config = redisson::test::config_for(server);
  config.resp3 = false;
  redisson::Client resp2(config);
  StringCache cache(resp2, "c", codecs::string());
  cache.add("a");
  cache.add("b", 1h);
  cache.add("gone", 50ms);
  ASSERT_TRUE(eventually([&] { return !cache.contains("gone"); }));
  EXPECT_TRUE(cache.contains("a"));
  EXPECT_EQ(cache.remaining_time_to_live("a"), -1ms);
  EXPECT_GT(cache.remaining_time_to_live("b"), 59min);
  EXPECT_EQ(cache.size(), 2);
  EXPECT_EQ(sorted(cache.read_all()), (Strings{"a", "b"}));
}

TEST_F(SetCacheTest, DeleteObjectClearsIt) {
  StringCache cache(client, "c", codecs::string());
  cache.add("a");
  EXPECT_TRUE(cache.delete_object());
  EXPECT_EQ(cache.size(), 0);
  EXPECT_FALSE(cache.contains("a"));
}

// Java's add("a", 1, HOURS); add("b"), with Kryo and with StringCodec.
TEST_F(SetCacheTest, ReadsWhatJavaWrote) {
  load_java_fixtures(server);
  for (const char* name : {"setcache_kryo", "setcache_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    StringCache cache(client, java.at("key").get<std::string>(), codec_of_case(java));
    EXPECT_EQ(sorted(cache.read_all()), (Strings{"a", "b"}));
    EXPECT_TRUE(cache.contains("a"));
    EXPECT_TRUE(cache.contains("b"));
    EXPECT_EQ(cache.size(), 2);
    EXPECT_GT(cache.remaining_time_to_live("a"), 0ms);
    EXPECT_EQ(cache.remaining_time_to_live("b"), -1ms);
    EXPECT_FALSE(cache.add("a", 1h));
  }
}

TEST_F(SetCacheTest, WritesJavasLayout) {
  for (const char* name : {"setcache_kryo", "setcache_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    const std::string java_name = java.at("key").get<std::string>();
    const std::string cpp_name = "cpp:" + java_name;
    StringCache cache(client, cpp_name, codec_of_case(java));
    const auto before = now_ms();
    EXPECT_TRUE(cache.add("a", 1h));
    const auto after = now_ms();
    EXPECT_TRUE(cache.add("b"));

    // Java's zset, in rank order: a (call time + 1 h), then b (no TTL).
    const auto& members = java_dump_entry(java_name).at("content");
    ASSERT_EQ(members.size(), 2u);
    const std::string a_hex = members[0][0].at("hex").get<std::string>();
    const std::string b_hex = members[1][0].at("hex").get<std::string>();
    const auto ours = server.command({"ZRANGE", cpp_name, "0", "-1"});
    EXPECT_EQ(to_hex(ours), a_hex + to_hex("\n") + b_hex);

    const std::string b = redisson::test::from_hex(b_hex);
    EXPECT_EQ(server.command({"ZSCORE", cpp_name, b}), members[1][1].get<std::string>());
    const auto java_a_score = std::stoll(members[0][1].get<std::string>());
    EXPECT_NEAR(static_cast<double>(java_a_score - java.at("call_at_ms").get<std::int64_t>()),
                3600000.0, 50.0);
    const auto a_score =
        std::stoll(server.command({"ZSCORE", cpp_name, redisson::test::from_hex(a_hex)}));
    EXPECT_GE(a_score, before + 3600000);
    EXPECT_LE(a_score, after + 3600000);
  }
}

TEST_F(SetCacheTest, TheSweeperRemovesExpiredElementsWhileAHandleExistsAndFollowsARename) {
  auto config = redisson::test::config_for(server);
  config.eviction.min_delay = 200ms;
  redisson::Client swept(config);
  StringCache set(swept, "sc", codecs::string());
  set.add("gone", 50ms);
  set.add("kept");
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", "sc"}) == "1"; }));
  EXPECT_TRUE(set.contains("kept"));
  // Renamed, the handle's sweeper follows the set to its new name.
  set.rename("sc2");
  set.add("gone too", 50ms);
  EXPECT_TRUE(eventually([&] { return server.command({"ZCARD", "sc2"}) == "1"; }));
  EXPECT_TRUE(set.contains("kept"));
}

}  // namespace

}  // namespace collections_set_cache_test
