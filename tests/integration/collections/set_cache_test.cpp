// SetCache<T> against a real redis-server: elements expiring by time to live, paged reads that
// skip expired elements, the eviction step, the bytes and scores Java Redisson 3.52 writes (its
// fixtures), and errors that change nothing.
#include "redisson/objects/set_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
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

// An element "expired" is written with a score in the past, so nothing needs to wait for it.
TEST_F(SetCacheTest, ConditionalAddsSeeExpiredElementsAsAbsent) {
  StringCache cache(client, "c", codecs::string());
  cache.add("live", 1h);
  server.command({"ZADD", "c", "1", "expired"});

  EXPECT_FALSE(cache.add_if_absent("live", 2h));
  EXPECT_LE(cache.remaining_time_to_live("live"), 1h) << "a refused add changes nothing";
  EXPECT_TRUE(cache.add_if_absent("expired", 1h));
  EXPECT_TRUE(cache.contains("expired"));
  EXPECT_TRUE(cache.add_if_absent("new", 0ms));
  EXPECT_EQ(cache.remaining_time_to_live("new"), -1ms) << "a ttl of 0: never expires";

  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_FALSE(cache.add_if_exists("expired", 1h));
  EXPECT_FALSE(cache.contains("expired"));
  EXPECT_FALSE(cache.add_if_exists("absent", 1h));
  EXPECT_FALSE(cache.contains("absent"));
  EXPECT_TRUE(cache.add_if_exists("live", 3h));
  EXPECT_GT(cache.remaining_time_to_live("live"), 2h);

  EXPECT_FALSE(cache.add_if_greater("live", 1h)) << "sooner than its 3 h";
  EXPECT_GT(cache.remaining_time_to_live("live"), 2h);
  EXPECT_TRUE(cache.add_if_greater("live", 5h));
  EXPECT_GT(cache.remaining_time_to_live("live"), 4h);
  EXPECT_FALSE(cache.add_if_greater("absent", 5h));
  EXPECT_FALSE(cache.add_if_less("live", 6h)) << "later than its 5 h";
  EXPECT_TRUE(cache.add_if_less("live", 1h));
  EXPECT_LE(cache.remaining_time_to_live("live"), 1h);
  EXPECT_FALSE(cache.add_if_less("expired", 1ms));
  EXPECT_FALSE(cache.contains("absent"));
}

TEST_F(SetCacheTest, AddAllFormsTakeATtlPerValue) {
  StringCache cache(client, "c", codecs::string());
  cache.add("live", 1h);
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_EQ(cache.add_all_timed({{"live", 2h}, {"expired", 0ms}, {"x", 1h}}), 2);
  EXPECT_GT(cache.remaining_time_to_live("live"), 1h) << "a live one gets its new ttl too";
  EXPECT_EQ(cache.remaining_time_to_live("expired"), -1ms);

  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_EQ(cache.add_all_if_absent({{"live", 9h}, {"expired", 1h}, {"y", 1h}}), 2);
  EXPECT_LE(cache.remaining_time_to_live("live"), 2h);
  EXPECT_TRUE(cache.contains("expired"));
  EXPECT_TRUE(cache.contains("y"));

  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_EQ(cache.add_all_if_exist({{"live", 3h}, {"expired", 1h}, {"absent", 1h}}), 1);
  EXPECT_GT(cache.remaining_time_to_live("live"), 2h);
  EXPECT_FALSE(cache.contains("expired"));
  EXPECT_FALSE(cache.contains("absent"));

  EXPECT_EQ(cache.add_all_if_greater({{"live", 4h}, {"x", 1min}, {"absent", 9h}}), 1);
  EXPECT_GT(cache.remaining_time_to_live("live"), 3h);
  EXPECT_GT(cache.remaining_time_to_live("x"), 50min);
  EXPECT_EQ(cache.add_all_if_less({{"live", 1h}, {"x", 2h}, {"expired", 1ms}}), 1);
  EXPECT_LE(cache.remaining_time_to_live("live"), 1h);
  EXPECT_LE(cache.remaining_time_to_live("x"), 1h);
  EXPECT_FALSE(cache.contains("absent"));
}

TEST_F(SetCacheTest, TryAddAddsAllOrNothing) {
  StringCache cache(client, "c", codecs::string());
  cache.add("live");
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_FALSE(cache.try_add({"a", "live"}, 1h));
  EXPECT_FALSE(cache.contains("a")) << "nothing added when one is live";
  EXPECT_TRUE(cache.try_add({"a", "expired"}, 1h));
  EXPECT_TRUE(cache.contains("a"));
  EXPECT_TRUE(cache.contains("expired"));
  EXPECT_GT(cache.remaining_time_to_live("a"), 59min);
  EXPECT_TRUE(cache.try_add({"b"}));
  EXPECT_EQ(cache.remaining_time_to_live("b"), -1ms);
  EXPECT_FALSE(cache.try_add_timed({{"c", 1h}, {"b", 1h}}));
  EXPECT_FALSE(cache.contains("c"));
  EXPECT_TRUE(cache.try_add_timed({{"c", 1h}, {"d", 0ms}}));
  EXPECT_EQ(cache.remaining_time_to_live("d"), -1ms);
  const auto before = scripts_run();
  EXPECT_FALSE(cache.try_add(std::vector<std::string>{}));
  EXPECT_EQ(scripts_run(), before) << "no values: nothing sent";
}

TEST_F(SetCacheTest, ContainsAllAndEachAndEmptyLeaveExpiredElementsOut) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_TRUE(cache.empty());
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_TRUE(cache.empty()) << "only an expired element";
  cache.add_all({"a", "b"}, 1h);
  EXPECT_FALSE(cache.empty());
  EXPECT_TRUE(cache.contains_all({"a", "b"}));
  EXPECT_FALSE(cache.contains_all({"a", "expired"}));
  EXPECT_FALSE(cache.contains_all({"a", "absent"}));
  EXPECT_TRUE(cache.contains_all({}));
  EXPECT_EQ(cache.contains_each({"a", "expired", "absent", "b"}),
            (std::vector<bool>{true, false, false, true}));
  EXPECT_TRUE(cache.contains_each({}).empty());
}

TEST_F(SetCacheTest, RetainAllKeepsOnlyTheNamedAndAnswersWhetherALiveOneWent) {
  StringCache cache(client, "c", codecs::string());
  cache.add_all({"a", "b", "c"}, 1h);
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_TRUE(cache.retain_all({"a", "c", "absent"}));
  EXPECT_EQ(sorted(cache.read_all()), (Strings{"a", "c"}));
  EXPECT_EQ(zcard("c"), "2") << "the expired element went too";
  EXPECT_GT(cache.remaining_time_to_live("a"), 59min) << "kept elements keep their ttl";
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_FALSE(cache.retain_all({"a", "c"})) << "only an expired one removed";
  EXPECT_EQ(zcard("c"), "2");
  EXPECT_TRUE(cache.retain_all({}));
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");
}

TEST_F(SetCacheTest, RandomPicksOnlyLiveElementsAndLeavesThem) {
  StringCache cache(client, "c", codecs::string());
  EXPECT_EQ(cache.random(), std::nullopt);
  EXPECT_TRUE(cache.random(3).empty());
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_EQ(cache.random(), std::nullopt);
  cache.add_all({"a", "b"}, 1h);
  for (int i = 0; i < 20; ++i) {
    const auto one = cache.random();
    ASSERT_TRUE(one.has_value());
    EXPECT_TRUE(*one == "a" || *one == "b") << *one;
  }
  EXPECT_EQ(sorted(cache.random(5)), (Strings{"a", "b"}));
  EXPECT_EQ(cache.random(1).size(), 1u);
  EXPECT_TRUE(cache.random(0).empty());
  EXPECT_EQ(zcard("c"), "3") << "nothing removed";
  EXPECT_EQ(server.command({"EXISTS", "__redisson_cache_temp:{c}"}), "0")
      << "the scratch zset is dropped";
  const auto before = scripts_run();
  expect_error(
      errc::invalid_argument, [&] { (void)cache.random(-1); }, "negative count");
  EXPECT_EQ(scripts_run(), before);
}

TEST_F(SetCacheTest, RemoveRandomTakesOnlyLiveElements) {
  StringCache cache(client, "c", codecs::string());
  server.command({"ZADD", "c", "1", "expired"});
  EXPECT_EQ(cache.remove_random(), std::nullopt);
  EXPECT_TRUE(cache.remove_random(2).empty());
  cache.add_all({"a", "b", "c"}, 1h);
  const auto one = cache.remove_random();
  ASSERT_TRUE(one.has_value());
  EXPECT_NE(*one, "expired");
  EXPECT_FALSE(cache.contains(*one));
  const auto rest = cache.remove_random(5);
  EXPECT_EQ(rest.size(), 2u);
  EXPECT_TRUE(cache.empty());
  EXPECT_EQ(zcard("c"), "1") << "the expired element was never picked";
  expect_error(
      errc::invalid_argument, [&] { (void)cache.remove_random(-1); }, "negative count");
}

TEST_F(SetCacheTest, MoveTakesALiveElementWithItsExpiry) {
  StringCache from(client, "{t}:from", codecs::string());
  StringCache to(client, "{t}:to", codecs::string());
  from.add("a", 1h);
  server.command({"ZADD", "{t}:from", "1", "expired"});
  EXPECT_TRUE(from.move("{t}:to", "a"));
  EXPECT_FALSE(from.contains("a"));
  EXPECT_TRUE(to.contains("a"));
  EXPECT_GT(to.remaining_time_to_live("a"), 59min);
  EXPECT_LE(to.remaining_time_to_live("a"), 1h);
  EXPECT_FALSE(from.move("{t}:to", "expired"));
  EXPECT_FALSE(to.contains("expired"));
  EXPECT_EQ(zcard("{t}:from"), "1") << "the expired element stays";
  EXPECT_FALSE(from.move("{t}:to", "absent"));

  from.add("b");
  server.command({"SET", "{t}:str", "x"});
  expect_error(
      errc::wrong_type, [&] { (void)from.move("{t}:str", "b"); }, "to a string key");
  EXPECT_TRUE(from.contains("b")) << "nothing moved";
  EXPECT_EQ(server.command({"GET", "{t}:str"}), "x");
}

TEST_F(SetCacheTest, SetAlgebraUsesOnlyLiveElements) {
  StringCache a(client, "{t}:a", codecs::string());
  StringCache b(client, "{t}:b", codecs::string());
  StringCache dest(client, "{t}:d", codecs::string());
  a.add("1", 1h);
  a.add("2");
  a.add("3", 1h);
  server.command({"ZADD", "{t}:a", "1", "x"});
  b.add("2", 2h);
  b.add("3", 1h);
  b.add("4", 1h);
  server.command({"ZADD", "{t}:b", "1", "1"});  // expired in b: not in an intersection
  server.command({"ZADD", "{t}:b", "1", "x"});

  EXPECT_EQ(sorted(a.read_union({"{t}:b"})), (Strings{"1", "2", "3", "4"}));
  EXPECT_EQ(sorted(a.read_intersection({"{t}:b"})), (Strings{"2", "3"}));
  EXPECT_EQ(sorted(a.read_diff({"{t}:b"})), (Strings{"1"}));
  EXPECT_EQ(a.count_intersection({"{t}:b"}), 2);
  EXPECT_EQ(a.count_intersection({"{t}:b"}, 1), 1);
  EXPECT_EQ(sorted(a.read_union({})), (Strings{"1", "2", "3"}));

  dest.add("old");
  EXPECT_EQ(dest.store_union({"{t}:a", "{t}:b"}), 4);
  EXPECT_EQ(sorted(dest.read_all()), (Strings{"1", "2", "3", "4"})) << "dest not read itself";
  EXPECT_EQ(zcard("{t}:d"), "4") << "no expired element copied";
  EXPECT_EQ(dest.remaining_time_to_live("2"), -1ms) << "the latest expiry of the two";
  EXPECT_EQ(dest.store_intersection({"{t}:a", "{t}:b"}), 2);
  EXPECT_EQ(sorted(dest.read_all()), (Strings{"2", "3"}));
  EXPECT_LE(dest.remaining_time_to_live("2"), 2h) << "the earliest expiry of the two";
  EXPECT_GT(dest.remaining_time_to_live("2"), 1h);
  EXPECT_EQ(dest.store_diff({"{t}:b", "{t}:a"}), 1);
  EXPECT_EQ(dest.read_all(), (Strings{"4"}));
  EXPECT_EQ(dest.store_diff({"{t}:empty"}), 0);
  EXPECT_EQ(server.command({"EXISTS", "{t}:d"}), "0");
  EXPECT_EQ(sorted(a.read_all()), (Strings{"1", "2", "3"})) << "the sources are unchanged";
  EXPECT_EQ(zcard("{t}:b"), "5");
}

TEST_F(SetCacheTest, SetAlgebraRefusesBadArgumentsAndWrongTypesChangingNothing) {
  StringCache a(client, "{t}:a", codecs::string());
  a.add("1");
  server.command({"SET", "{t}:str", "x"});
  const auto before = scripts_run();
  expect_error(
      errc::invalid_argument, [&] { (void)a.store_union({}); }, "store with no names");
  expect_error(
      errc::invalid_argument, [&] { (void)a.count_intersection({"{t}:b"}, -1); }, "negative limit");
  EXPECT_EQ(scripts_run(), before);
  expect_error(
      errc::wrong_type,
      [&] {
        (void)a.store_union({"{t}:a", "{t}:str"});
      },
      "store");
  expect_error(
      errc::wrong_type, [&] { (void)a.read_intersection({"{t}:str"}); }, "read");
  EXPECT_EQ(a.read_all(), (Strings{"1"}));
  EXPECT_EQ(server.command({"GET", "{t}:str"}), "x");
}

TEST_F(SetCacheTest, NewOperationsRefuseAWrongTypeKeyAndLeaveItAlone) {
  server.command({"SET", "s", "x"});
  StringCache cache(client, "s", codecs::string());
  for (const auto& [what, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"add_if_absent", [&] { (void)cache.add_if_absent("v", 1h); }},
           {"add_if_exists", [&] { (void)cache.add_if_exists("v", 1h); }},
           {"add_if_greater", [&] { (void)cache.add_if_greater("v", 1h); }},
           {"add_if_less", [&] { (void)cache.add_if_less("v", 1h); }},
           {"add_all_timed",
            [&] {
              (void)cache.add_all_timed({{"v", 1h}});
            }},
           {"add_all_if_absent",
            [&] {
              (void)cache.add_all_if_absent({{"v", 1h}});
            }},
           {"try_add", [&] { (void)cache.try_add({"v"}); }},
           {"retain_all", [&] { (void)cache.retain_all({"v"}); }},
           {"contains_all", [&] { (void)cache.contains_all({"v"}); }},
           {"contains_each", [&] { (void)cache.contains_each({"v"}); }},
           {"empty", [&] { (void)cache.empty(); }},
           {"random", [&] { (void)cache.random(); }},
           {"random count", [&] { (void)cache.random(2); }},
           {"remove_random", [&] { (void)cache.remove_random(); }},
           {"move", [&] { (void)cache.move("elsewhere", "v"); }},
           {"read_union", [&] { (void)cache.read_union({}); }},
           {"count_intersection", [&] { (void)cache.count_intersection({}); }}}) {
    expect_error(errc::wrong_type, call, what.c_str());
  }
  EXPECT_EQ(server.command({"GET", "s"}), "x");
}

TEST_F(SetCacheTest, NegativeTtlsOfTheTimedAddsAreRefusedAndSendNothing) {
  StringCache cache(client, "c", codecs::string());
  const auto before = scripts_run();
  for (const auto& [what, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"add_if_absent", [&] { (void)cache.add_if_absent("v", -1ms); }},
           {"add_if_exists", [&] { (void)cache.add_if_exists("v", -1ms); }},
           {"add_if_greater", [&] { (void)cache.add_if_greater("v", -1ms); }},
           {"add_if_less", [&] { (void)cache.add_if_less("v", -1ms); }},
           {"add_all_timed",
            [&] {
              (void)cache.add_all_timed({{"v", 1h}, {"w", -1ms}});
            }},
           {"add_all_if_exist",
            [&] {
              (void)cache.add_all_if_exist({{"v", -1ms}});
            }},
           {"try_add", [&] { (void)cache.try_add({"v"}, -1ms); }}}) {
    expect_error(errc::invalid_argument, call, what.c_str());
  }
  EXPECT_EQ(scripts_run(), before);
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");
}

TEST_F(SetCacheTest, SynchronizerNamesAreRedissons) {
  // Redisson's setCache.getLock(value) is getLockByValue, as RSet's (the same bytes, the same
  // names: fixtures transaction_commit_string, StringCodec "k1").
  StringCache cache(client, "m", codecs::string());
  EXPECT_EQ(cache.lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:lock");
  EXPECT_EQ(cache.fair_lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:fairlock");
  EXPECT_EQ(cache.semaphore_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:semaphore");
  EXPECT_EQ(cache.read_write_lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:rw_lock");
  EXPECT_EQ(cache.count_down_latch_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:countdownlatch");
  EXPECT_EQ(cache.permit_expirable_semaphore_name("k1"),
            "{m}:9sC8KpMg8F8KBbxgHnpp1w:permitexpirablesemaphore");
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
