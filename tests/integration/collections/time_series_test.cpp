// TimeSeries<V, L> against a real redis-server: the members and ttl-zset scores Java Redisson 3.52
// writes (its fixtures, both ways), entries expiring invisibly, ranges, limits, polls, paged
// reading, the eviction step, and errors that change nothing.
#include "redisson/objects/time_series.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/command.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/unswept_server_test.hpp"

namespace collections_time_series_test {

using redisson::Command;
using redisson::errc;
using redisson::Reply;
using redisson::TimeSeries;
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

constexpr std::int64_t kT0 = 1700000000000;
constexpr std::int64_t kNoTtlMs = std::int64_t{36500} * 24 * 60 * 60 * 1000;

using Series = TimeSeries<std::string>;
using Entry = Series::Entry;

class TimeSeriesTest : public redisson::test::UnsweptServerTest {
 protected:
  /// The members of a zset with their scores, in rank order, as the server holds them.
  std::vector<std::pair<std::string, std::int64_t>> zset(const std::string& key) {
    const Reply reply = client.execute(Command{"ZRANGE", key, "0", "-1", "WITHSCORES"});
    std::vector<std::pair<std::string, std::int64_t>> members;
    for (std::size_t i = 0; i < reply.elements.size(); ++i) {
      const auto& element = reply.elements[i];
      if (element.is_aggregate()) {  // RESP3: [member, score]
        members.emplace_back(element.elements[0].str,
                             static_cast<std::int64_t>(element.elements[1].number));
      } else {
        members.emplace_back(element.str, std::stoll(reply.elements[i + 1].str));
        ++i;
      }
    }
    return members;
  }
  /// A member's hex with its 16 random bytes (after format and length) masked.
  static std::string masked_hex(const std::string& member) {
    auto hex = to_hex(member);
    return hex.substr(0, 4) + std::string(32, '?') + hex.substr(36);
  }
};

TEST_F(TimeSeriesTest, ReadsWhatJavaWrote) {
  load_java_fixtures(server);
  for (const char* name : {"timeseries_kryo", "timeseries_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    Series series(client, java.at("key").get<std::string>(), codec_of_case(java));
    EXPECT_EQ(series.size(), 2);
    EXPECT_EQ(series.get(kT0), "a");
    EXPECT_EQ(series.get(kT0 + 1000), "b");
    EXPECT_EQ(series.get(kT0 + 1), std::nullopt);
    EXPECT_EQ(series.range(kT0, kT0 + 1000), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(series.entry_range(kT0, kT0 + 1000),
              (std::vector<Entry>{{kT0, "a", std::nullopt}, {kT0 + 1000, "b", std::nullopt}}));
    EXPECT_EQ(series.last(), "b");
  }
  for (const char* name : {"timeseries_label_kryo", "timeseries_label_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    Series series(client, java.at("key").get<std::string>(), codec_of_case(java));
    EXPECT_EQ(series.get(kT0), "a");
    EXPECT_EQ(series.get_entry(kT0), (Entry{kT0, "a", "lbl"}));
    EXPECT_EQ(series.first_entry(), (Entry{kT0, "a", "lbl"}));
    EXPECT_EQ(series.size(), 1);
  }
}

// Java's add(1700000000000L, "a"); add(1700000001000L, "b") and add(1700000000000L, "a", "lbl"):
// C++ writes the same members (up to the 16 random bytes) with the same ttl-zset scores.
TEST_F(TimeSeriesTest, WritesJavasLayout) {
  for (const char* name : {"timeseries_kryo", "timeseries_string", "timeseries_label_kryo",
                           "timeseries_label_string"}) {
    SCOPED_TRACE(name);
    const auto& java = java_case(name);
    const std::string java_key = java.at("key").get<std::string>();
    const std::string key = "cpp:" + std::string(name);
    const bool labelled = std::string(name).find("label") != std::string::npos;
    TimeSeries<std::string> series(client, key, codec_of_case(java));
    const auto before = now_ms();
    if (labelled) {
      series.add(kT0, "a", "lbl");
    } else {
      series.add(kT0, "a");
      series.add(kT0 + 1000, "b");
    }
    const auto after = now_ms();

    const auto& dump = java_dump_entry(java_key).at("content");
    const auto ours = zset(key);
    const auto ttl = zset("redisson__ts_ttl:{" + key + "}");
    ASSERT_EQ(ours.size(), dump.size());
    ASSERT_EQ(ttl.size(), dump.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      const auto java_hex = dump[i][0].at("hex").get<std::string>();
      EXPECT_EQ(masked_hex(ours[i].first),
                java_hex.substr(0, 4) + std::string(32, '?') + java_hex.substr(36));
      EXPECT_EQ(std::to_string(ours[i].second), dump[i][1].get<std::string>());
      EXPECT_EQ(ttl[i].first, ours[i].first) << "the ttl zset holds the same member";
    }
    // No ttl: max(now + 36500 days, the highest score so far) + 1, one add after the other.
    EXPECT_GE(ttl[0].second, before + kNoTtlMs + 1);
    EXPECT_LE(ttl[0].second, after + kNoTtlMs + 1);
    if (ttl.size() == 2) {
      EXPECT_GT(ttl[1].second, ttl[0].second);
      EXPECT_LE(ttl[1].second, std::max(after + kNoTtlMs, ttl[0].second) + 1);
    }
  }
}

TEST_F(TimeSeriesTest, ANewEntryWithoutTtlScoresAboveTheHighestExpiry) {
  // A Java entry stored far ahead pushes every later no-ttl score above it, as Redisson does.
  const std::int64_t far = now_ms() + 2 * kNoTtlMs;
  Series series(client, "ts", codecs::string());
  series.add(1, "a");
  client.execute(Command{"ZADD", "redisson__ts_ttl:{ts}", std::to_string(far), "x"});
  series.add(2, "b");
  const auto ttl = zset("redisson__ts_ttl:{ts}");
  ASSERT_EQ(ttl.size(), 3U);
  EXPECT_EQ(ttl[2].second, far + 1);
}

TEST_F(TimeSeriesTest, EntriesWithTtlExpireInvisibly) {
  Series series(client, "ts", codecs::string());
  const auto before = now_ms();
  series.add(1, "short", 2s);  // generous: read below before it expires
  series.add(2, "kept");
  series.add(3, "short too", "lbl", 2s);
  series.add_all({{4, "a", std::nullopt}, {5, "b", "x"}}, 1h);
  const auto after = now_ms();
  const auto ttl = zset("redisson__ts_ttl:{ts}");
  ASSERT_EQ(ttl.size(), 5U);
  EXPECT_GE(ttl[0].second, before + 2000);
  EXPECT_LE(ttl[0].second, after + 2000);
  EXPECT_EQ(series.get(1), "short");
  EXPECT_EQ(series.size(), 5);

  ASSERT_TRUE(eventually([&] { return series.get(3) == std::nullopt; }));
  ASSERT_TRUE(eventually([&] { return series.get(1) == std::nullopt; }));
  EXPECT_EQ(series.get_entry(3), std::nullopt);
  EXPECT_EQ(series.size(), 3);
  EXPECT_EQ(series.range(0, 10), (std::vector<std::string>{"kept", "a", "b"}));
  EXPECT_EQ(series.range(0, 10, 1), (std::vector<std::string>{"kept"}));
  EXPECT_EQ(series.rev_range(0, 3), (std::vector<std::string>{"kept"}));
  EXPECT_EQ(series.first(), "kept");
  EXPECT_EQ(series.first(2), (std::vector<std::string>{"kept", "a"}));
  EXPECT_EQ(series.entry_range(0, 10).back(), (Entry{5, "b", "x"}));
  EXPECT_FALSE(series.remove(1));
  std::vector<std::string> read;
  for (const auto& value : series.values(1)) read.push_back(value);
  EXPECT_EQ(read, (std::vector<std::string>{"kept", "a", "b"}));
  EXPECT_EQ(server.command({"ZCARD", "ts"}), "5") << "expired entries stay until evicted";

  EXPECT_EQ(series.evict_expired(1), 1);
  EXPECT_EQ(series.evict_expired(), 1);
  EXPECT_EQ(series.evict_expired(), 0);
  EXPECT_EQ(server.command({"ZCARD", "ts"}), "3");
  EXPECT_EQ(server.command({"ZCARD", "redisson__ts_ttl:{ts}"}), "3");
  EXPECT_EQ(series.poll_first(), "kept") << "polls skip expired entries";
}

TEST_F(TimeSeriesTest, RangesLimitsAndPolls) {
  Series series(client, "ts", codecs::string());
  std::vector<Entry> entries;
  for (int i = 1; i <= 10; ++i) entries.push_back({i, "v" + std::to_string(i), std::nullopt});
  series.add_all(entries);
  EXPECT_EQ(series.size(), 10);
  EXPECT_EQ(series.range(3, 5), (std::vector<std::string>{"v3", "v4", "v5"}));
  EXPECT_EQ(series.range(3, 7, 2), (std::vector<std::string>{"v3", "v4"}));
  EXPECT_EQ(series.rev_range(3, 7, 2), (std::vector<std::string>{"v7", "v6"}));
  EXPECT_EQ(series.entry_rev_range(9, 100),
            (std::vector<Entry>{{10, "v10", std::nullopt}, {9, "v9", std::nullopt}}));
  EXPECT_EQ(series.range(7, 3), std::vector<std::string>{}) << "from > to: empty, as in Redisson";
  EXPECT_EQ(series.remove_range(7, 3), 0);
  EXPECT_EQ(series.first(), "v1");
  EXPECT_EQ(series.last(), "v10");
  EXPECT_EQ(series.last_entry(), (Entry{10, "v10", std::nullopt}));
  EXPECT_EQ(series.first(3), (std::vector<std::string>{"v1", "v2", "v3"}));
  EXPECT_EQ(series.last(2), (std::vector<std::string>{"v10", "v9"}));
  EXPECT_EQ(series.first(0), std::vector<std::string>{});
  EXPECT_EQ(series.first_entries(2),
            (std::vector<Entry>{{1, "v1", std::nullopt}, {2, "v2", std::nullopt}}));
  EXPECT_EQ(series.last_entries(1), (std::vector<Entry>{{10, "v10", std::nullopt}}));
  EXPECT_EQ(series.size(), 10) << "the entry reads remove nothing";

  EXPECT_EQ(series.poll_first(2), (std::vector<std::string>{"v1", "v2"}));
  EXPECT_EQ(series.poll_last(2), (std::vector<std::string>{"v10", "v9"}));
  EXPECT_EQ(series.poll_first_entries(1), (std::vector<Entry>{{3, "v3", std::nullopt}}));
  EXPECT_EQ(series.poll_last_entries(1), (std::vector<Entry>{{8, "v8", std::nullopt}}));
  EXPECT_EQ(series.poll_last(), "v7");
  EXPECT_EQ(series.poll_first(0), std::vector<std::string>{});
  EXPECT_EQ(series.size(), 3);
  EXPECT_EQ(server.command({"ZCARD", "redisson__ts_ttl:{ts}"}), "3") << "polls leave both zsets";

  EXPECT_EQ(series.remove_range(4, 5), 2);
  EXPECT_EQ(series.get_and_remove(6), "v6");
  EXPECT_EQ(series.get_and_remove(6), std::nullopt);
  EXPECT_FALSE(series.remove(6));
  EXPECT_EQ(series.poll_first(), std::nullopt);
  EXPECT_EQ(series.first(), std::nullopt);
  EXPECT_EQ(server.command({"EXISTS", "ts", "redisson__ts_ttl:{ts}"}), "0");

  // The async forms are the same operations.
  series.async_add(42, "x", "l", asio::use_future).get();
  EXPECT_EQ(series.async_get_entry(42, asio::use_future).get(), (Entry{42, "x", "l"}));
  series.add(43, "y", "m");
  EXPECT_EQ(series.get_and_remove_entry(43), (Entry{43, "y", "m"}));
  EXPECT_EQ(series.get_and_remove_entry(43), std::nullopt);
  EXPECT_EQ(series.async_size(asio::use_future).get(), 1);
}

TEST_F(TimeSeriesTest, EntriesMayShareATimestamp) {
  Series series(client, "ts", codecs::string());
  series.add(5, "x");
  series.add(5, "y");
  EXPECT_EQ(series.size(), 2);
  EXPECT_EQ(series.range(5, 5).size(), 2U);
  EXPECT_TRUE(series.remove(5));
  EXPECT_TRUE(series.get(5).has_value());
  EXPECT_TRUE(series.remove(5));
  EXPECT_FALSE(series.remove(5));
}

TEST_F(TimeSeriesTest, ReadsInPagesSkippingExpiredEntries) {
  Series series(client, "ts", codecs::string());
  std::vector<Entry> kept;
  std::vector<Entry> short_lived;
  for (int i = 0; i < 250; ++i) {
    Entry entry{i, std::to_string(i), i % 3 == 0 ? std::optional<std::string>("l") : std::nullopt};
    (i % 10 < 4 ? short_lived : kept).push_back(entry);
  }
  series.add_all(kept);
  series.add_all(short_lived, 100ms);
  ASSERT_TRUE(eventually([&] { return series.size() == static_cast<std::int64_t>(kept.size()); }));
  std::vector<Entry> read;
  for (const auto& entry : series.entries(7)) read.push_back(entry);
  EXPECT_EQ(read, kept);
  auto scan = series.entries(3);
  EXPECT_FALSE(scan.next_batch().empty()) << "a page of only expired entries is read past";
  EXPECT_EQ(series.range(0, 1000, 5), (std::vector<std::string>{"4", "5", "6", "7", "8"}));
  EXPECT_EQ(series.rev_range(0, 1000, 3), (std::vector<std::string>{"249", "248", "247"}));
  EXPECT_EQ(series.remove_range(0, 9), 6) << "counts the live ones, removes the expired too";
  EXPECT_EQ(series.evict_expired(1000), 96);
}

TEST_F(TimeSeriesTest, WrongTypeKeyIsRefusedAndLeftAlone) {
  server.command({"SET", "s", "x"});
  Series series(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { series.add(1, "a"); }, "add");
  expect_error(
      errc::wrong_type, [&] { series.add(1, "a", "l", 1h); }, "add with ttl");
  expect_error(
      errc::wrong_type, [&] { (void)series.get(1); }, "get");
  expect_error(
      errc::wrong_type, [&] { (void)series.range(0, 5); }, "range");
  expect_error(
      errc::wrong_type, [&] { (void)series.poll_first(); }, "poll_first");
  expect_error(
      errc::wrong_type, [&] { (void)series.size(); }, "size");
  expect_error(
      errc::wrong_type, [&] { (void)series.remove_range(0, 5); }, "remove_range");
  expect_error(
      errc::wrong_type, [&] { (void)series.values().next_batch(); }, "values");
  EXPECT_EQ(server.command({"GET", "s"}), "x");
  EXPECT_EQ(server.command({"EXISTS", "redisson__ts_ttl:{s}"}), "0");
}

TEST_F(TimeSeriesTest, BadArgumentsChangeNothing) {
  Series series(client, "ts", codecs::string());
  series.add(1, "a");
  expect_error(
      errc::invalid_argument, [&] { series.add(2, "b", -1ms); }, "negative ttl");
  expect_error(
      errc::invalid_argument,
      [&] {
        series.add_all({{2, "b", "l"}}, -5s);
      },
      "add_all ttl");
  expect_error(
      errc::invalid_argument, [&] { (void)series.range(0, 5, -1); }, "negative limit");
  expect_error(
      errc::invalid_argument, [&] { (void)series.entry_rev_range(0, 5, -1); }, "limit");
  expect_error(
      errc::invalid_argument, [&] { (void)series.first(-1); }, "negative count");
  expect_error(
      errc::invalid_argument, [&] { (void)series.poll_last(-2); }, "poll count");
  expect_error(
      errc::invalid_argument, [&] { (void)series.evict_expired(0); }, "evict 0");
  expect_error(
      errc::invalid_argument, [&] { (void)series.entries(0); }, "page size 0");
  auto future = series.async_add(3, "c", -1ms, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { future.get(); }, "async negative ttl");
  EXPECT_EQ(series.size(), 1);
  EXPECT_EQ(series.range(0, 10), (std::vector<std::string>{"a"}));
  EXPECT_EQ(server.command({"ZCARD", "redisson__ts_ttl:{ts}"}), "1");

  // Bytes that are not Redisson's framing are a codec error, not a crash.
  client.execute(Command{"ZADD", "ts", "7", "junk"});
  expect_error(
      errc::codec_error, [&] { (void)series.get(7); }, "damaged member");
}

TEST_F(TimeSeriesTest, DeleteExpireAndRenameCoverBothKeys) {
  Series series(client, "ts", codecs::string());
  series.add(1, "a", "l");
  EXPECT_TRUE(series.expire(1h));
  EXPECT_NE(server.command({"PTTL", "redisson__ts_ttl:{ts}"}), "-1");
  EXPECT_TRUE(series.clear_expire());
  EXPECT_EQ(server.command({"PTTL", "redisson__ts_ttl:{ts}"}), "-1");
  series.rename("ts2");
  EXPECT_EQ(server.command({"EXISTS", "ts", "redisson__ts_ttl:{ts}"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "ts2", "redisson__ts_ttl:{ts2}"}), "2");
  EXPECT_EQ(series.get_entry(1), (Entry{1, "a", "l"}));
  EXPECT_TRUE(series.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "ts2", "redisson__ts_ttl:{ts2}"}), "0");
}

TEST(TimeSeriesMember, FramesAsRedissonDoes) {
  const std::string random(16, '\x11');
  const auto plain = redisson::detail::time_series_member(random, "v", std::nullopt);
  EXPECT_EQ(to_hex(plain),
            "0210" + std::string(32, '1') + "0100000000000000" + "76" + "0000000000000000");
  const auto parts = redisson::detail::parse_time_series_member(plain);
  EXPECT_EQ(parts.value, "v");
  EXPECT_FALSE(parts.label.has_value());
  const auto labelled = redisson::detail::time_series_member(random, "v", std::string("ab"));
  EXPECT_EQ(to_hex(labelled).substr(0, 4), "0310");
  EXPECT_EQ(redisson::detail::parse_time_series_member(labelled).label, "ab");
  expect_error(errc::codec_error,
               [&] { redisson::detail::parse_time_series_member(plain.substr(0, 30)); });
}

TEST_F(TimeSeriesTest, TheSweeperRemovesExpiredEntriesWhileAHandleExistsAndFollowsARename) {
  auto config = redisson::test::config_for(server);
  config.eviction.min_delay = 200ms;
  redisson::Client swept(config);
  Series series(swept, "ts", codecs::string());
  series.add(1, "gone", 50ms);
  series.add(2, "kept");
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", "ts"}) == "1"; }));
  EXPECT_EQ(server.command({"ZCARD", "redisson__ts_ttl:{ts}"}), "1");
  EXPECT_EQ(series.first(), "kept");
  // Renamed, the handle's sweeper follows the series to its new name.
  series.rename("ts2");
  series.add(3, "gone too", 50ms);
  EXPECT_TRUE(eventually([&] { return server.command({"ZCARD", "ts2"}) == "1"; }));
  EXPECT_EQ(series.first(), "kept");
}

}  // namespace

}  // namespace collections_time_series_test
