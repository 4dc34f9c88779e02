// A MapCache is a Map (as Java's RMapCache is an RMap): every Map operation, called through a
// Map& on a MapCache against a real redis-server, works over the MapCache's layout (values
// packed 'dLc0', the timeout and idle zsets), and an expired entry is absent to each of them.
#include "redisson/objects/map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/map_cache.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/unswept_server_test.hpp"

namespace collections_map_cache_as_map_test {

using redisson::errc;
using redisson::Map;
using redisson::MapCache;
using redisson::test::expect_error;
using redisson::test::to_hex;
using namespace std::chrono_literals;
namespace codecs = redisson::codecs;

namespace {

using Strings = std::map<std::string, std::string>;

class MapCacheAsMapTest : public redisson::test::UnsweptServerTest {
 protected:
  MapCache<std::string, std::string> cache{client, "c", codecs::string()};
  Map<std::string, std::string>& map = cache;

  /// Every live entry, read through entries().
  Strings entries() {
    Strings all;
    auto scan = map.entries(2);
    for (auto page = scan.next_batch(); !page.empty(); page = scan.next_batch()) {
      for (auto& [key, value] : page) all.insert_or_assign(key, value);
    }
    return all;
  }
  /// An entry that expired: put with an hour to live, then its timeout score moved to the past
  /// (as if the hour had gone by), so no test waits for the clock.
  void put_expired(const std::string& key, const std::string& value) {
    cache.put(key, value, 1h);
    server.command({"ZADD", "redisson__timeout__set:{c}", "XX", "1", key});
  }
  /// The hash value of `key` as hex: the MapCache's 'dLc0' packing.
  std::string packed_hex(const std::string& key) {
    return to_hex(server.command({"HGET", "c", key}));
  }
};

TEST_F(MapCacheAsMapTest, EveryMapOperationWorksOnAMapCache) {
  EXPECT_EQ(map.put("a", "1"), std::nullopt);
  EXPECT_EQ(map.put("a", "2"), "1");
  EXPECT_EQ(map.get("a"), "2");
  EXPECT_EQ(map.get("none"), std::nullopt);
  // The MapCache's layout: max idle 0.0 (8 bytes), length 1 (8 bytes LE), the value's bytes.
  EXPECT_EQ(packed_hex("a"), "0000000000000000010000000000000032");
  EXPECT_EQ(map.put_if_absent("a", "3"), "2");
  EXPECT_EQ(map.put_if_absent("b", "3"), std::nullopt);
  EXPECT_EQ(map.put_if_exists("z", "1"), std::nullopt);
  EXPECT_FALSE(map.contains_key("z"));
  EXPECT_EQ(map.put_if_exists("b", "4"), "3");
  EXPECT_EQ(map.replace("b", "5"), "4");
  EXPECT_TRUE(map.fast_put("c", "6"));
  EXPECT_FALSE(map.fast_put("c", "7"));
  EXPECT_FALSE(map.fast_put_if_absent("c", "8"));
  EXPECT_TRUE(map.fast_put_if_absent("d", "9"));
  EXPECT_TRUE(map.fast_put_if_exists("d", "10"));
  EXPECT_FALSE(map.fast_put_if_exists("y", "1"));
  EXPECT_FALSE(map.contains_key("y"));
  EXPECT_FALSE(map.replace("d", "9", "11"));
  EXPECT_TRUE(map.replace("d", "10", "11"));
  EXPECT_EQ(map.get("d"), "11");
  EXPECT_FALSE(map.remove("d", "10"));
  EXPECT_TRUE(map.remove("d", "11"));
  EXPECT_FALSE(map.contains_key("d"));
  EXPECT_TRUE(map.contains_key("a"));
  EXPECT_TRUE(map.contains_value("5"));
  EXPECT_FALSE(map.contains_value("4"));
  EXPECT_EQ(map.size(), 3);
  EXPECT_EQ(map.get_all({"a", "b", "none"}), (Strings{{"a", "2"}, {"b", "5"}}));
  EXPECT_EQ(map.get_all({}), Strings{});
  map.put_all({{"e", "12"}, {"f", "13"}});
  EXPECT_EQ(map.size(), 5);
  EXPECT_EQ(packed_hex("f"), "000000000000000002000000000000003133");
  EXPECT_EQ(map.remove("e"), "12");
  EXPECT_EQ(map.remove("e"), std::nullopt);
  EXPECT_EQ(map.fast_remove({"f", "c", "none"}), 2);
  EXPECT_EQ(map.fast_remove({}), 0);
  EXPECT_EQ(entries(), (Strings{{"a", "2"}, {"b", "5"}}));
  EXPECT_EQ(map.add_and_get<std::int64_t>("n", 5), 5);
  EXPECT_EQ(map.add_and_get<std::int64_t>("n", 3), 8);
  EXPECT_EQ(map.get("n"), "8");
  EXPECT_EQ(map.add_and_get("x", 1.5), 1.5);
  EXPECT_EQ(map.add_and_get("x", 0.25), 1.75);
  EXPECT_EQ(map.get("x"), "1.75");
  const Map<std::string, std::string> plain(client, "c", codecs::string());
  EXPECT_EQ(map.lock_name("a"), plain.lock_name("a"));
  // Nothing was written as a plain Map would have: every value is packed.
  for (const auto& [key, value] : entries()) {
    EXPECT_EQ(packed_hex(key).substr(0, 16), "0000000000000000") << key;
  }
}

TEST_F(MapCacheAsMapTest, AMapPutOverAnEntryWithATtlLeavesOneThatNeverExpires) {
  cache.put("k", "v", 1h);
  EXPECT_EQ(map.put("k", "w"), "v");
  EXPECT_EQ(cache.remaining_time_to_live("k"), -1ms);
  // ...whereas a replace keeps the entry's time to live (its value changes, not its life).
  cache.put("t", "v", 1h);
  EXPECT_EQ(map.replace("t", "w"), "v");
  EXPECT_GT(cache.remaining_time_to_live("t"), 0ms);
  EXPECT_TRUE(map.replace("t", "w", "x"));
  EXPECT_GT(cache.remaining_time_to_live("t"), 0ms);
  expect_error(errc::server_error, [&] { map.add_and_get<std::int64_t>("t", 1); });
  EXPECT_EQ(map.get("t"), "x") << "not a number: the entry is left alone";
}

TEST_F(MapCacheAsMapTest, AnExpiredEntryIsAbsentToEveryMapOperation) {
  map.put("live", "1");
  put_expired("dead", "x");
  ASSERT_EQ(server.command({"HEXISTS", "c", "dead"}), "1") << "still in the hash";

  EXPECT_EQ(map.get("dead"), std::nullopt);
  EXPECT_FALSE(map.contains_key("dead"));
  EXPECT_FALSE(map.contains_value("x"));
  EXPECT_EQ(map.get_all({"live", "dead"}), (Strings{{"live", "1"}}));
  EXPECT_EQ(entries(), (Strings{{"live", "1"}}));
  EXPECT_EQ(map.size(), 2) << "size() counts entries not yet swept, as Redisson's";

  EXPECT_EQ(map.put_if_exists("dead", "y"), std::nullopt);
  EXPECT_FALSE(map.fast_put_if_exists("dead", "y"));
  EXPECT_FALSE(map.replace("dead", "x", "y"));
  EXPECT_FALSE(map.remove("dead", "x"));
  EXPECT_EQ(map.get("dead"), std::nullopt) << "none of them wrote";

  EXPECT_EQ(map.put_if_absent("dead", "y"), std::nullopt) << "stored: the old one had expired";
  EXPECT_EQ(map.get("dead"), "y");
  EXPECT_EQ(cache.remaining_time_to_live("dead"), -1ms);

  put_expired("gone", "x");
  EXPECT_TRUE(map.fast_put_if_absent("gone", "y"));
  put_expired("gone", "x");
  EXPECT_EQ(map.put("gone", "y"), std::nullopt) << "nothing live was replaced";
  put_expired("gone", "x");
  EXPECT_TRUE(map.fast_put("gone", "y")) << "the key counts as new";
  put_expired("gone", "x");
  EXPECT_EQ(map.remove("gone"), std::nullopt);
  EXPECT_EQ(server.command({"HEXISTS", "c", "gone"}), "0") << "removed all the same";
  put_expired("gone", "x");
  EXPECT_EQ(map.fast_remove({"gone"}), 0);
  EXPECT_EQ(server.command({"HEXISTS", "c", "gone"}), "0");

  put_expired("n", "41");
  EXPECT_EQ(map.add_and_get<std::int64_t>("n", 1), 1) << "an expired number counts as 0";
  EXPECT_EQ(cache.remaining_time_to_live("n"), -1ms);
}

TEST_F(MapCacheAsMapTest, ReadAllAndRandomLeaveOutExpiredEntries) {
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.read_all_map(), Strings{});
  EXPECT_TRUE(map.read_all_key_set().empty());
  EXPECT_TRUE(map.read_all_values().empty());
  EXPECT_TRUE(map.random_keys(5).empty());
  EXPECT_TRUE(map.random_entries(5).empty());
  EXPECT_EQ(map.value_size("none"), 0);

  map.put("a", "1");
  cache.put("b", "22", 1h);
  cache.put("c", "333", 1h, 1h);
  put_expired("dead", "x");
  const Strings live{{"a", "1"}, {"b", "22"}, {"c", "333"}};
  EXPECT_EQ(map.read_all_map(), live);
  EXPECT_EQ(map.read_all_key_set(), (std::set<std::string>{"a", "b", "c"}));
  auto values = map.read_all_values();
  std::sort(values.begin(), values.end());
  EXPECT_EQ(values, (std::vector<std::string>{"1", "22", "333"})) << "unpacked, expired left out";
  EXPECT_EQ(map.random_entries(10), live) << "a pick of every field: the expired one left out";
  EXPECT_EQ(map.random_keys(10), (std::set<std::string>{"a", "b", "c"}));
  for (const auto& [key, value] : map.random_entries(2)) EXPECT_EQ(live.at(key), value);
  EXPECT_LE(map.random_keys(2).size(), 2u);

  EXPECT_EQ(map.value_size("c"), 3) << "the value's bytes, not the 16 bytes packed before them";
  EXPECT_EQ(map.value_size("dead"), 0);
  EXPECT_FALSE(map.empty()) << "empty() is size() == 0: unswept entries count, as in Redisson";

  EXPECT_FALSE(map.fast_replace("dead", "y"));
  EXPECT_EQ(map.get("dead"), std::nullopt) << "an expired entry is not replaced";
  EXPECT_TRUE(map.fast_replace("b", "23"));
  EXPECT_EQ(map.get("b"), "23");
  EXPECT_GT(cache.remaining_time_to_live("b"), 0ms) << "fast_replace keeps the time to live";
}

TEST_F(MapCacheAsMapTest, ReadAllMovesTheIdleDeadlineOfEntriesWithAMaxIdle) {
  cache.put("idle", "v", 0ms, 1h);
  cache.put("ttl", "v", 1h);
  // Both deadlines set close, as if the entries were last read long ago.
  const auto soon = std::to_string(now_ms() + 60'000);
  server.command({"ZADD", "redisson__idle__set:{c}", "XX", soon, "idle"});
  server.command({"ZADD", "redisson__timeout__set:{c}", "XX", soon, "ttl"});
  EXPECT_EQ(map.value_size("idle"), 1);
  EXPECT_EQ(server.command({"ZSCORE", "redisson__idle__set:{c}", "idle"}), soon)
      << "value_size is no read (Redisson's HSTRLEN)";
  EXPECT_EQ(map.read_all_map().size(), 2u);
  EXPECT_GT(std::stoll(server.command({"ZSCORE", "redisson__idle__set:{c}", "idle"})),
            now_ms() + 30 * 60'000)
      << "read: the idle deadline moved to now + max idle";
  EXPECT_EQ(server.command({"ZSCORE", "redisson__timeout__set:{c}", "ttl"}), soon)
      << "a time to live is not moved by reads";
}

TEST_F(MapCacheAsMapTest, NewReadsOnAWrongTypeKeyAreRefusedAndChangeNothing) {
  server.command({"SET", "c", "a string"});
  expect_error(
      errc::wrong_type, [&] { (void)map.empty(); }, "empty");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_map(); }, "read_all_map");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_key_set(); }, "read_all_key_set");
  expect_error(
      errc::wrong_type, [&] { (void)map.read_all_values(); }, "read_all_values");
  expect_error(
      errc::wrong_type, [&] { (void)map.random_keys(1); }, "random_keys");
  expect_error(
      errc::wrong_type, [&] { (void)map.random_entries(1); }, "random_entries");
  expect_error(
      errc::wrong_type, [&] { (void)map.value_size("k"); }, "value_size");
  expect_error(
      errc::wrong_type, [&] { (void)map.fast_replace("k", "v"); }, "fast_replace");
  EXPECT_EQ(server.command({"GET", "c"}), "a string");
  EXPECT_EQ(server.command({"EXISTS", "redisson__idle__set:{c}"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "redisson__map_cache__last_access__set:{c}"}), "0");
}

TEST_F(MapCacheAsMapTest, KeyLockNamesAreTheMaps) {
  const Map<std::string, std::string> plain(client, "c", codecs::string());
  EXPECT_EQ(cache.fair_lock_name("a"), plain.fair_lock_name("a"));
  EXPECT_EQ(cache.read_write_lock_name("a"), plain.read_write_lock_name("a"));
  EXPECT_EQ(cache.semaphore_name("a"), plain.semaphore_name("a"));
  EXPECT_EQ(cache.count_down_latch_name("a"), plain.count_down_latch_name("a"));
  EXPECT_EQ(cache.permit_expirable_semaphore_name("a"), plain.permit_expirable_semaphore_name("a"));
}

}  // namespace

}  // namespace collections_map_cache_as_map_test
