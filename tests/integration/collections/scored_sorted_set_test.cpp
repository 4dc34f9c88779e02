// ScoredSortedSet<T> against a real redis-server: every operation, score bounds (exclusive,
// infinite, NaN), empty sets, the RESP2 and RESP3 shapes of scored replies, ZSCAN pages, Java
// Redisson's sorted sets read and written, and errors that change nothing.
#include "redisson/objects/scored_sorted_set.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace collections_scored_sorted_set_test {

using redisson::errc;
using redisson::ScoredEntry;
using redisson::ScoredSortedSet;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Strings = std::vector<std::string>;
using Entries = std::vector<ScoredEntry<std::string>>;

class ScoredSortedSetTest : public redisson::test::ServerTest {
 protected:
  // a:1, b:2, c:3, d:4, e:5 as text.
  ScoredSortedSet<std::string> five(const std::string& name) {
    ScoredSortedSet<std::string> set(client, name, codecs::string());
    set.add_all({{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {5, "e"}});
    return set;
  }
};

TEST_F(ScoredSortedSetTest, AddRemoveContainsScoreAndRank) {
  ScoredSortedSet<std::string> set(client, "z", codecs::string());
  EXPECT_TRUE(set.add(2.5, "a"));
  EXPECT_FALSE(set.add(1.5, "a")) << "present: the score changes, nothing is added";
  EXPECT_EQ(set.score("a"), 1.5);
  EXPECT_EQ(set.add_all({{3, "b"}, {4, "c"}, {0.5, "a"}}), 2);
  const auto adds = redisson::test::command_calls(server, "zadd");
  EXPECT_EQ(set.add_all({}), 0);
  EXPECT_EQ(redisson::test::command_calls(server, "zadd"), adds) << "nothing sent for none";
  EXPECT_EQ(set.size(), 3);
  EXPECT_EQ(set.score("a"), 0.5);
  EXPECT_EQ(set.score("z"), std::nullopt);
  EXPECT_TRUE(set.contains("b"));
  EXPECT_FALSE(set.contains("z"));
  EXPECT_EQ(set.rank("a"), 0);
  EXPECT_EQ(set.rank("c"), 2);
  EXPECT_EQ(set.rev_rank("c"), 0);
  EXPECT_EQ(set.rank("z"), std::nullopt);
  EXPECT_EQ(set.rev_rank("z"), std::nullopt);
  EXPECT_TRUE(set.remove("b"));
  EXPECT_FALSE(set.remove("b"));
  EXPECT_EQ(set.remove_all({"a", "z"}), 1);
  EXPECT_EQ(set.remove_all({}), 0);
  EXPECT_EQ(server.command({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), "c\n4");
}

TEST_F(ScoredSortedSetTest, ConditionalAddsAndScoreIncrements) {
  ScoredSortedSet<std::string> set(client, "z", codecs::string());
  EXPECT_TRUE(set.try_add(1, "a"));
  EXPECT_FALSE(set.try_add(9, "a"));
  EXPECT_EQ(set.score("a"), 1);
  EXPECT_FALSE(set.add_if_exists(1, "b"));
  EXPECT_FALSE(set.contains("b"));
  EXPECT_TRUE(set.add_if_exists(2, "a"));
  EXPECT_FALSE(set.add_if_exists(2, "a")) << "same score: nothing changed";
  EXPECT_FALSE(set.add_if_greater(1, "a"));
  EXPECT_TRUE(set.add_if_greater(3, "a"));
  EXPECT_FALSE(set.add_if_less(4, "a"));
  EXPECT_TRUE(set.add_if_less(0.25, "a"));
  EXPECT_EQ(set.score("a"), 0.25);
  EXPECT_TRUE(set.add_if_greater(7, "g")) << "absent: added";
  EXPECT_TRUE(set.add_if_less(8, "l")) << "absent: added";
  EXPECT_EQ(set.add_score("a", 1.5), 1.75);
  EXPECT_EQ(set.add_score("a", -0.75), 1);
  EXPECT_EQ(set.add_score("new", 2.5), 2.5) << "absent: added with the delta";
  EXPECT_EQ(set.add_and_get_rank(5, "b"), 2);  // a:1 new:2.5 b:5 g:7 l:8
  EXPECT_EQ(set.add_and_get_rev_rank(0, "b"), 4);
  EXPECT_EQ(set.add_and_get_rank(10, "b"), 4);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"a", "new", "g", "l", "b"}));
}

TEST_F(ScoredSortedSetTest, ScoresAreStoredAsJavaSendsThemAndNaNOrInfinityIsRefused) {
  ScoredSortedSet<std::string> set(client, "z", codecs::string());
  set.add_all({{1.5, "a"}, {2, "b"}, {1e10, "c"}, {-0.0, "d"}, {0.1, "e"}, {1e-7, "f"}});
  EXPECT_EQ(server.command({"ZSCORE", "z", "a"}), "1.5");
  EXPECT_EQ(server.command({"ZSCORE", "z", "b"}), "2");
  EXPECT_EQ(server.command({"ZSCORE", "z", "c"}), "10000000000");
  EXPECT_EQ(server.command({"ZSCORE", "z", "d"}), "0");
  EXPECT_EQ(set.score("e"), 0.1) << "the plain decimal text is the same double";
  EXPECT_EQ(set.score("f"), 1e-7);

  for (const double bad : {kNaN, kInf, -kInf}) {
    expect_error(
        errc::invalid_argument, [&] { set.add(bad, "x"); }, "add of a score that is not finite");
    expect_error(
        errc::invalid_argument,
        [&] {
          set.add_all({{1, "y"}, {bad, "x"}});
        },
        "add_all with a score that is not finite");
    expect_error(
        errc::invalid_argument, [&] { set.add_score("a", bad); }, "add_score of a bad delta");
    expect_error(
        errc::invalid_argument, [&] { set.add_and_get_rank(bad, "x"); },
        "add_and_get_rank of a bad score");
  }
  EXPECT_FALSE(set.contains("x"));
  EXPECT_FALSE(set.contains("y")) << "nothing of add_all was sent";
  EXPECT_EQ(set.score("a"), 1.5);
  // The async form completes with the error rather than throwing at the call.
  auto future = set.async_add(kNaN, "x", asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { future.get(); }, "async_add of NaN");
}

TEST_F(ScoredSortedSetTest, EmptySetAnswersNothing) {
  ScoredSortedSet<std::string> set(client, "z", codecs::string());
  EXPECT_EQ(set.size(), 0);
  EXPECT_EQ(set.first(), std::nullopt);
  EXPECT_EQ(set.last(), std::nullopt);
  EXPECT_EQ(set.first_score(), std::nullopt);
  EXPECT_EQ(set.last_score(), std::nullopt);
  EXPECT_EQ(set.poll_first(), std::nullopt);
  EXPECT_EQ(set.poll_last(), std::nullopt);
  EXPECT_TRUE(set.poll_first(3).empty());
  EXPECT_TRUE(set.poll_last(3).empty());
  EXPECT_TRUE(set.value_range(0, -1).empty());
  EXPECT_TRUE(set.entry_range(0, -1).empty());
  EXPECT_TRUE(set.value_range_by_score(-kInf, true, kInf, true).empty());
  EXPECT_EQ(set.count(-kInf, true, kInf, true), 0);
  EXPECT_EQ(set.remove_range_by_rank(0, -1), 0);
  EXPECT_EQ(set.remove_range_by_score(-kInf, true, kInf, true), 0);
  EXPECT_TRUE(set.values().next_batch().empty());
  EXPECT_FALSE(set.exists());
}

TEST_F(ScoredSortedSetTest, FirstLastAndPolls) {
  auto set = five("z");
  EXPECT_EQ(set.first(), "a");
  EXPECT_EQ(set.last(), "e");
  EXPECT_EQ(set.first_score(), 1);
  EXPECT_EQ(set.last_score(), 5);
  EXPECT_EQ(set.poll_first(), "a");
  EXPECT_EQ(set.poll_last(), "e");
  const auto pops = [&] {
    return redisson::test::command_calls(server, "zpopmin") +
           redisson::test::command_calls(server, "zpopmax");
  };
  const auto before = pops();
  EXPECT_EQ(set.poll_first(0), Strings{});
  EXPECT_EQ(set.poll_last(-1), Strings{});
  EXPECT_EQ(pops(), before) << "nothing sent for a count below 1";
  EXPECT_EQ(set.poll_first(2), (Strings{"b", "c"}));
  EXPECT_EQ(set.poll_last(5), Strings{"d"});
  EXPECT_EQ(server.command({"EXISTS", "z"}), "0");
}

TEST_F(ScoredSortedSetTest, RangesByRank) {
  auto set = five("z");
  EXPECT_EQ(set.value_range(0, -1), (Strings{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(set.value_range(1, 2), (Strings{"b", "c"}));
  EXPECT_EQ(set.value_range(-2, -1), (Strings{"d", "e"}));
  EXPECT_EQ(set.value_range(7, 9), Strings{});
  EXPECT_EQ(set.value_range_reversed(0, 1), (Strings{"e", "d"}));
  EXPECT_EQ(set.entry_range(0, 1), (Entries{{"a", 1}, {"b", 2}}));
  EXPECT_EQ(set.entry_range_reversed(0, 1), (Entries{{"e", 5}, {"d", 4}}));
  EXPECT_EQ(set.remove_range_by_rank(1, 2), 2);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"a", "d", "e"}));
  EXPECT_EQ(set.remove_range_by_rank(-1, -1), 1);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"a", "d"}));
}

TEST_F(ScoredSortedSetTest, RangesByScoreWithExclusiveAndInfiniteBounds) {
  auto set = five("z");
  EXPECT_EQ(set.value_range_by_score(2, true, 4, true), (Strings{"b", "c", "d"}));
  EXPECT_EQ(set.value_range_by_score(2, false, 4, true), (Strings{"c", "d"}));
  EXPECT_EQ(set.value_range_by_score(2, true, 4, false), (Strings{"b", "c"}));
  EXPECT_EQ(set.value_range_by_score(2, false, 4, false), Strings{"c"});
  EXPECT_EQ(set.value_range_by_score(2, false, 3, false), Strings{});
  EXPECT_EQ(set.value_range_by_score(-kInf, true, 2, true), (Strings{"a", "b"}));
  EXPECT_EQ(set.value_range_by_score(4.5, true, kInf, false), Strings{"e"});
  EXPECT_EQ(set.value_range_by_score(-kInf, false, kInf, false).size(), 5u);
  EXPECT_EQ(set.value_range_by_score(1.5, true, 4.5, true), (Strings{"b", "c", "d"}));
  EXPECT_EQ(set.value_range_by_score(-kInf, true, kInf, true, 1, 2), (Strings{"b", "c"}));
  EXPECT_EQ(set.value_range_by_score(2, true, kInf, true, 1, -1), (Strings{"c", "d", "e"}));
  EXPECT_EQ(set.entry_range_by_score(3, false, kInf, true), (Entries{{"d", 4}, {"e", 5}}));
  EXPECT_EQ(set.entry_range_by_score(-kInf, true, kInf, true, 4, 10), (Entries{{"e", 5}}));
  EXPECT_EQ(set.count(2, true, 4, true), 3);
  EXPECT_EQ(set.count(2, false, 4, false), 1);
  EXPECT_EQ(set.count(-kInf, true, kInf, true), 5);
  EXPECT_EQ(set.remove_range_by_score(4, false, kInf, true), 1);
  EXPECT_EQ(set.remove_range_by_score(-kInf, true, 2, false), 1);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"b", "c", "d"}));
  expect_error(
      errc::invalid_argument, [&] { (void)set.count(kNaN, true, 1, true); }, "a NaN bound");
  expect_error(
      errc::invalid_argument, [&] { set.remove_range_by_score(0, true, kNaN, true); },
      "a NaN bound");
  EXPECT_EQ(set.size(), 3);
}

TEST_F(ScoredSortedSetTest, ValuesAndEntriesAreReadInPages) {
  ScoredSortedSet<std::int64_t> set(client, "z", codecs::long_text());
  std::vector<std::pair<double, std::int64_t>> written;
  std::map<std::int64_t, double> expected;
  for (std::int64_t i = 0; i < 1000; ++i) {
    written.emplace_back(static_cast<double>(i) / 4, i * 3);
    expected[i * 3] = static_cast<double>(i) / 4;
  }
  EXPECT_EQ(set.add_all(written), 1000);
  std::set<std::int64_t> values;
  for (const auto value : set.values(64)) values.insert(value);
  std::map<std::int64_t, double> entries;
  for (const auto& entry : set.entries(64)) entries[entry.value] = entry.score;
  EXPECT_EQ(entries, expected);
  std::set<std::int64_t> keys;
  for (const auto& [value, score] : expected) keys.insert(value);
  EXPECT_EQ(values, keys);
  EXPECT_LT(set.values(64).next_batch().size(), 1000u) << "one page, not the whole set";
  EXPECT_EQ(set.async_rank(3, asio::use_future).get(), 1);
  EXPECT_EQ(set.async_entry_range(0, 0, asio::use_future).get(),
            (std::vector<ScoredEntry<std::int64_t>>{{0, 0}}));
}

TEST_F(ScoredSortedSetTest, Resp2RepliesReadAsResp3Ones) {
  auto config = config_for(server);
  config.resp3 = false;
  redisson::Client resp2(config);
  ScoredSortedSet<std::string> set(resp2, "z", codecs::string());
  set.add_all({{1, "a"}, {2.5, "b"}, {3, "c"}, {4, "d"}});
  // The two shapes this test is about: RESP3 nests each (member, score), RESP2 is flat.
  const auto nested = client.execute({"ZRANGE", "z", "0", "0", "WITHSCORES"});
  ASSERT_EQ(nested.elements.size(), 1u);
  EXPECT_TRUE(nested.elements[0].is_aggregate());
  EXPECT_EQ(resp2.execute({"ZRANGE", "z", "0", "0", "WITHSCORES"}).elements.size(), 2u);
  EXPECT_EQ(set.score("b"), 2.5);
  EXPECT_EQ(set.add_score("b", 0.25), 2.75);
  EXPECT_EQ(set.first_score(), 1);
  EXPECT_EQ(set.last_score(), 4);
  EXPECT_EQ(set.entry_range(0, 1), (Entries{{"a", 1}, {"b", 2.75}}));
  EXPECT_EQ(set.entry_range_by_score(2, true, kInf, true),
            (Entries{{"b", 2.75}, {"c", 3}, {"d", 4}}));
  std::map<std::string, double> scanned;
  for (const auto& entry : set.entries()) scanned[entry.value] = entry.score;
  EXPECT_EQ(scanned, (std::map<std::string, double>{{"a", 1}, {"b", 2.75}, {"c", 3}, {"d", 4}}));
  EXPECT_EQ(set.poll_first(), "a");
  EXPECT_EQ(set.poll_last(2), (Strings{"d", "c"}));
  EXPECT_EQ(set.rank("b"), 0);
  EXPECT_EQ(set.rank("a"), std::nullopt);
}

TEST_F(ScoredSortedSetTest, WrongTypeAndUnreadableBytesChangeNothing) {
  server.command({"SET", "z", "a string"});
  ScoredSortedSet<std::string> set(client, "z", codecs::string());
  expect_error(
      errc::wrong_type, [&] { set.add(1, "x"); }, "add on a string key");
  expect_error(
      errc::wrong_type,
      [&] {
        set.add_all({{1, "x"}, {2, "y"}});
      },
      "add_all on a string key");
  expect_error(
      errc::wrong_type, [&] { set.add_and_get_rank(1, "x"); }, "the script on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)set.size(); }, "size on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)set.value_range(0, -1); }, "value_range on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)set.poll_first(); }, "poll_first on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)set.values().next_batch(); }, "ZSCAN on a string key");
  EXPECT_EQ(server.command({"GET", "z"}), "a string");

  server.command({"ZADD", "n", "1", "not a number"});
  ScoredSortedSet<std::int64_t> numbers(client, "n", codecs::long_text());
  expect_error(
      errc::codec_error, [&] { (void)numbers.first(); }, "unreadable member");
  expect_error(
      errc::codec_error, [&] { (void)numbers.entry_range(0, -1); }, "unreadable member");
  expect_error(
      errc::codec_error, [&] { (void)numbers.values().next_batch(); }, "unreadable member");
  EXPECT_EQ(numbers.size(), 1);
  EXPECT_EQ(numbers.first_score(), 1) << "scores read without the codec";
}

TEST_F(ScoredSortedSetTest, SharesJavaRedissonsSortedSets) {
  redisson::test::load_java_fixtures(server);
  for (const char* name : {"zset_kryo", "zset_string"}) {
    SCOPED_TRACE(name);
    const auto& java = redisson::test::java_case(name);
    const auto key = java.at("key").get<std::string>();
    const auto codec = redisson::test::codec_of_case(java);
    Entries expected;  // {"a":1.5,"b":2.0}: rank order is score order here
    for (const auto& [value, score] : java.at("value").items()) {
      expected.push_back({value, score.get<double>()});
    }

    const ScoredSortedSet<std::string> theirs(client, key, codec);
    EXPECT_EQ(theirs.entry_range(0, -1), expected) << "C++ reads what Java wrote";
    EXPECT_EQ(theirs.first(), expected.front().value);
    EXPECT_EQ(theirs.score(expected.back().value), expected.back().score);
    std::map<std::string, double> scanned;
    for (const auto& entry : theirs.entries()) scanned[entry.value] = entry.score;
    EXPECT_EQ(scanned.size(), expected.size());

    // Java's add(1.5, "a"); add(2, "b"), done by C++: the same member bytes, in the same ranks,
    // with the same score text.
    ScoredSortedSet<std::string> ours(client, "cpp:" + key, codec);
    for (const auto& [value, score] : expected) ours.add(score, value);
    const auto& dump = redisson::test::java_dump_entry(key).at("content");
    ASSERT_EQ(dump.size(), expected.size());
    for (std::size_t rank = 0; rank < dump.size(); ++rank) {
      const auto bytes = from_hex(dump[rank].at(0).at("hex").get<std::string>());
      EXPECT_EQ(server.command({"ZSCORE", "cpp:" + key, bytes}),
                dump[rank].at(1).get<std::string>())
          << "member " << to_hex(bytes);
      EXPECT_EQ(server.command({"ZRANK", "cpp:" + key, bytes}), std::to_string(rank));
    }
    EXPECT_EQ(ours.size(), static_cast<std::int64_t>(dump.size()));
  }
}

}  // namespace

namespace {

class ScoredSortedSetWaitTest : public redisson::test::ServerTest {};

TEST_F(ScoredSortedSetWaitTest, PollsWaitForAMemberOnADedicatedConnection) {
  using namespace std::chrono_literals;
  ScoredSortedSet<std::string> set(client, "z", redisson::codecs::string());
  EXPECT_EQ(set.poll_first(100ms), std::nullopt);
  auto taken = set.async_take_first(asio::use_future);
  // The shared connection stays free while the take waits.
  EXPECT_EQ(set.size(), 0);
  redisson::Client other(redisson::test::config_for(server));
  ScoredSortedSet<std::string>(other, "z", redisson::codecs::string()).add(2, "b");
  EXPECT_EQ(taken.get(), "b");
  set.add_all({{1, "low"}, {9, "high"}, {5, "mid"}});
  EXPECT_EQ(set.poll_last(1s), "high");
  EXPECT_EQ(set.poll_first(1s), "low");
  EXPECT_EQ(set.take_last(), "mid");
  expect_error(errc::invalid_argument, [&] { set.poll_first(-1ms); });
  server.command({"SET", "text", "x"});
  expect_error(errc::wrong_type, [&] {
    ScoredSortedSet<std::string>(client, "text", redisson::codecs::string()).poll_first(1s);
  });
}

TEST_F(ScoredSortedSetWaitTest, PollFromAnyTakesFromTheFirstSetThatHasMembers) {
  using namespace std::chrono_literals;
  using Popped = std::pair<std::string, Entries>;
  ScoredSortedSet<std::string> a(client, "{z}a", redisson::codecs::string());
  ScoredSortedSet<std::string> b(client, "{z}b", redisson::codecs::string());
  b.add_all({{1, "b1"}, {2, "b2"}, {3, "b3"}, {4, "b4"}});
  EXPECT_EQ(a.poll_first_from_any(1s, {"{z}b"}),
            (std::pair<std::string, std::string>{"{z}b", "b1"}));
  EXPECT_EQ(a.poll_last_from_any(1s, {"{z}b"}),
            (std::pair<std::string, std::string>{"{z}b", "b4"}));
  a.add_all({{5, "a5"}, {6, "a6"}});
  EXPECT_EQ(a.poll_first_from_any(1s, 5, {"{z}b"}), (Popped{"{z}a", {{"a5", 5}, {"a6", 6}}}));
  EXPECT_EQ(a.poll_last_from_any(0ms, 1, {"{z}b"}), (Popped{"{z}b", {{"b3", 3}}}));
  EXPECT_EQ(a.poll_first_from_any(0ms, 2, {"{z}b"}), (Popped{"{z}b", {{"b2", 2}}}));
  // Nothing anywhere: the server's wait ends with nil (zero looks once).
  EXPECT_EQ(a.poll_first_from_any(0ms, 1, {"{z}b"}), std::nullopt);
  EXPECT_EQ(a.poll_last_from_any(50ms, {"{z}b"}), std::nullopt);
  b.add(7, "kept");
  expect_error(errc::invalid_argument, [&] { a.poll_first_from_any(1s, 0, {"{z}b"}); });
  expect_error(errc::invalid_argument, [&] { a.poll_last_from_any(-1ms, {"{z}b"}); });
  EXPECT_EQ(b.size(), 1);
}

TEST_F(ScoredSortedSetWaitTest, SubscriptionsTakeTheLowestOrHighestAsTheyCome) {
  using namespace std::chrono_literals;
  ScoredSortedSet<std::string> set(client, "z", redisson::codecs::string());
  std::mutex mutex;
  std::vector<std::string> lowest;
  const redisson::test::ShutdownAtEnd stop{client};  // before what the consumers use goes
  set.add_all({{3, "c"}, {1, "a"}, {2, "b"}});
  const auto id = set.subscribe_on_first_elements([&](std::string value) {
    std::lock_guard lock(mutex);
    lowest.push_back(std::move(value));
  });
  ASSERT_TRUE(redisson::test::eventually([&] {
    std::lock_guard lock(mutex);
    return lowest.size() == 3;
  }));
  EXPECT_EQ(lowest, (Strings{"a", "b", "c"}));
  EXPECT_TRUE(set.unsubscribe(id));
  EXPECT_FALSE(set.unsubscribe(id));
  ASSERT_TRUE(redisson::test::eventually([&] {
    const auto info = server.command({"INFO", "clients"});
    return info.find("blocked_clients:0") != std::string::npos;
  }));
  set.add(5, "stays");
  EXPECT_EQ(set.size(), 1);
  std::atomic<int> highest{0};
  const auto last = set.subscribe_on_last_elements([&](const std::string& value) {
    if (value == "stays") ++highest;
  });
  ASSERT_TRUE(redisson::test::eventually([&] { return highest == 1; }));
  EXPECT_TRUE(set.unsubscribe(last));
}

}  // namespace

namespace {

using redisson::RankedEntry;
using redisson::ScoreAggregate;
using redisson::ScoredSetCombine;
using redisson::test::command_calls;

class ScoredSortedSetOpsTest : public redisson::test::ServerTest {
 protected:
  // a:1, b:2, c:3, d:4, e:5 as text.
  ScoredSortedSet<std::string> five(const std::string& name) {
    ScoredSortedSet<std::string> set(client, name, codecs::string());
    set.add_all({{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}, {5, "e"}});
    return set;
  }
  ScoredSortedSet<std::string> set(const std::string& name) {
    return ScoredSortedSet<std::string>(client, name, codecs::string());
  }
};

TEST_F(ScoredSortedSetOpsTest, ConditionalAddAllsReturnJavasCounts) {
  auto z = five("z");
  EXPECT_EQ(z.add_all_if_absent({{9, "a"}, {6, "f"}, {7, "g"}}), 2) << "only f and g are new";
  EXPECT_EQ(z.score("a"), 1);
  EXPECT_EQ(z.add_all_if_exist({{10, "a"}, {2, "b"}, {8, "new"}}), 1) << "a changed, b same";
  EXPECT_FALSE(z.contains("new"));
  EXPECT_EQ(z.add_all_if_greater({{5, "a"}, {20, "b"}, {1, "h"}}), 2) << "b raised, h added";
  EXPECT_EQ(z.score("a"), 10);
  EXPECT_EQ(z.add_all_if_less({{0, "a"}, {30, "c"}, {2, "i"}}), 2) << "a lowered, i added";
  EXPECT_EQ(z.score("a"), 0);
  EXPECT_EQ(z.score("c"), 3);
  const auto adds = command_calls(server, "zadd");
  EXPECT_EQ(z.add_all_if_absent({}), 0);
  EXPECT_EQ(z.add_all_if_exist({}), 0);
  EXPECT_EQ(z.add_all_if_greater({}), 0);
  EXPECT_EQ(z.add_all_if_less({}), 0);
  expect_error(errc::invalid_argument, [&] { z.add_all_if_greater({{kNaN, "x"}}); });
  EXPECT_EQ(command_calls(server, "zadd"), adds) << "nothing sent for none or a NaN";
  EXPECT_EQ(set("missing").add_all_if_exist({{1, "a"}}), 0);
  EXPECT_EQ(server.command({"EXISTS", "missing"}), "0");
}

TEST_F(ScoredSortedSetOpsTest, AddScoreAndGetRank) {
  auto z = five("z");
  EXPECT_EQ(z.add_score_and_get_rank("a", 10), 4);
  EXPECT_EQ(z.score("a"), 11);
  EXPECT_EQ(z.add_score_and_get_rev_rank("b", 100), 0);
  EXPECT_EQ(z.add_score_and_get_rank("new", 0.5), 0) << "absent: added with the delta";
  EXPECT_EQ(z.score("new"), 0.5);
  EXPECT_EQ(set("missing").add_score_and_get_rev_rank("x", 2), 0);
  const auto evals = command_calls(server, "evalsha") + command_calls(server, "eval");
  expect_error(errc::invalid_argument, [&] { z.add_score_and_get_rank("a", kInf); });
  EXPECT_EQ(command_calls(server, "evalsha") + command_calls(server, "eval"), evals);
  EXPECT_EQ(z.score("a"), 11);
}

TEST_F(ScoredSortedSetOpsTest, AlgebraStoresTheNamedSetsAndReadsThisOneWithThem) {
  auto a = five("a");
  set("b").add_all({{2, "b"}, {30, "c"}, {6, "x"}});
  EXPECT_EQ(a.read_union({"b"}), (Strings{"a", "b", "d", "e", "x", "c"}));
  EXPECT_EQ(a.read_union_entries({"b"}),
            (Entries{{"a", 1}, {"b", 4}, {"d", 4}, {"e", 5}, {"x", 6}, {"c", 33}}));
  EXPECT_EQ(a.read_union_entries({"b"}, {.aggregate = ScoreAggregate::max, .weights = {1, 2}}),
            (Entries{{"a", 1}, {"b", 4}, {"d", 4}, {"e", 5}, {"x", 12}, {"c", 60}}));
  EXPECT_EQ(a.read_intersection({"b"}), (Strings{"b", "c"}));
  EXPECT_EQ(a.read_intersection_entries({"b"}, {.aggregate = ScoreAggregate::min}),
            (Entries{{"b", 2}, {"c", 3}}));
  EXPECT_EQ(a.read_diff({"b"}), (Strings{"a", "d", "e"}));
  EXPECT_EQ(a.read_diff_entries({"b"}), (Entries{{"a", 1}, {"d", 4}, {"e", 5}}));
  EXPECT_EQ(a.count_intersection({"b"}), 2);
  EXPECT_EQ(a.count_intersection({"b"}, 1), 1);
  EXPECT_EQ(a.count_intersection({"missing"}), 0);
  EXPECT_EQ(a.read_union({}), (Strings{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(a.read_intersection({"missing"}), Strings{});
  EXPECT_EQ(set("missing").read_union_entries({"b"}), (Entries{{"b", 2}, {"x", 6}, {"c", 30}}));

  // As Redisson: the store forms write the named sets into this one, its own members dropped.
  auto u = set("u");
  u.add(1, "old");
  EXPECT_EQ(u.store_union({"a", "b"}), 6);
  EXPECT_FALSE(u.contains("old"));
  EXPECT_EQ(u.score("c"), 33);
  EXPECT_EQ(u.store_union({"a", "b"}, {.weights = {0, 1}}), 6);
  EXPECT_EQ(u.score("a"), 0);
  EXPECT_EQ(u.store_intersection({"a", "b"}, {.aggregate = ScoreAggregate::min}), 2);
  EXPECT_EQ(u.entry_range(0, -1), (Entries{{"b", 2}, {"c", 3}}));
  EXPECT_EQ(u.store_intersection({"u", "a"}), 2) << "named, this set is read too";
  EXPECT_EQ(u.entry_range(0, -1), (Entries{{"b", 4}, {"c", 6}}));
  EXPECT_EQ(u.store_diff({"a", "b"}), 3);
  EXPECT_EQ(u.value_range(0, -1), (Strings{"a", "d", "e"}));
  EXPECT_EQ(u.store_intersection({"a", "missing"}), 0);
  EXPECT_EQ(server.command({"EXISTS", "u"}), "0");
}

TEST_F(ScoredSortedSetOpsTest, AlgebraRefusesBadArgumentsBeforeSending) {
  auto a = five("a");
  const auto sent = [&] {
    std::int64_t calls = 0;
    for (const auto* verb :
         {"zunion", "zunionstore", "zinter", "zinterstore", "zintercard", "zdiff", "zdiffstore"}) {
      calls += command_calls(server, verb);
    }
    return calls;
  };
  const auto before = sent();
  expect_error(errc::invalid_argument, [&] { (void)a.read_union({"b"}, {.weights = {1}}); });
  expect_error(errc::invalid_argument, [&] {
    (void)a.read_intersection_entries({"b"}, {.weights = {1, 2, 3}});
  });
  expect_error(errc::invalid_argument, [&] { a.store_union({"b"}, {.weights = {1, 2}}); });
  expect_error(errc::invalid_argument, [&] { a.store_intersection({"b"}, {.weights = {kNaN}}); });
  expect_error(errc::invalid_argument, [&] { a.store_union({}); });
  expect_error(errc::invalid_argument, [&] { a.store_diff({}); });
  expect_error(errc::invalid_argument, [&] { (void)a.count_intersection({"b"}, -1); });
  EXPECT_EQ(sent(), before);
  EXPECT_EQ(a.size(), 5);
}

TEST_F(ScoredSortedSetOpsTest, RandomMembersAndEntries) {
  auto z = five("z");
  const std::set<std::string> all{"a", "b", "c", "d", "e"};
  const std::map<std::string, double> scores{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}, {"e", 5}};
  const auto one = z.random();
  ASSERT_TRUE(one.has_value());
  EXPECT_TRUE(all.contains(*one));
  const auto three = z.random(3);
  EXPECT_EQ(three.size(), 3u);
  EXPECT_EQ(std::set<std::string>(three.begin(), three.end()).size(), 3u) << "distinct";
  EXPECT_EQ(z.random(10).size(), 5u);
  EXPECT_EQ(z.random(0), Strings{});
  const auto entries = z.random_entries(2);
  ASSERT_EQ(entries.size(), 2u);
  for (const auto& entry : entries) EXPECT_EQ(scores.at(entry.value), entry.score);
  EXPECT_EQ(z.size(), 5) << "left in place";
  const auto calls = command_calls(server, "zrandmember");
  expect_error(errc::invalid_argument, [&] { (void)z.random(-1); });
  expect_error(errc::invalid_argument, [&] { (void)z.random_entries(-2); });
  EXPECT_EQ(command_calls(server, "zrandmember"), calls);
  auto empty = set("missing");
  EXPECT_EQ(empty.random(), std::nullopt);
  EXPECT_EQ(empty.random(3), Strings{});
  EXPECT_EQ(empty.random_entries(3), Entries{});
}

TEST_F(ScoredSortedSetOpsTest, PollEntriesAndRankEntries) {
  auto z = five("z");
  EXPECT_EQ(z.rank_entry("c"), (RankedEntry{2, 3}));
  EXPECT_EQ(z.rev_rank_entry("c"), (RankedEntry{2, 3}));
  EXPECT_EQ(z.rev_rank_entry("e"), (RankedEntry{0, 5}));
  EXPECT_EQ(z.rank_entry("zz"), std::nullopt);
  EXPECT_EQ(set("missing").rev_rank_entry("a"), std::nullopt);
  EXPECT_EQ(z.poll_first_entry(), (ScoredEntry<std::string>{"a", 1}));
  EXPECT_EQ(z.poll_last_entry(), (ScoredEntry<std::string>{"e", 5}));
  EXPECT_EQ(z.poll_first_entries(2), (Entries{{"b", 2}, {"c", 3}}));
  const auto pops = command_calls(server, "zpopmax");
  EXPECT_EQ(z.poll_last_entries(0), Entries{});
  EXPECT_EQ(z.poll_last_entries(-1), Entries{});
  EXPECT_EQ(command_calls(server, "zpopmax"), pops) << "nothing sent below 1";
  EXPECT_EQ(z.poll_last_entries(5), (Entries{{"d", 4}}));
  EXPECT_EQ(z.poll_first_entry(), std::nullopt);
  EXPECT_EQ(z.poll_last_entry(), std::nullopt);
  EXPECT_EQ(z.poll_first_entries(3), Entries{});
  auto many = five("m");
  EXPECT_EQ(many.poll_last_entries(2), (Entries{{"e", 5}, {"d", 4}})) << "last first";
}

TEST_F(ScoredSortedSetOpsTest, ContainsAllRetainAllAndReplace) {
  auto z = five("z");
  EXPECT_TRUE(z.contains_all({"a", "e"}));
  EXPECT_FALSE(z.contains_all({"a", "zz"}));
  const auto reads = command_calls(server, "zmscore");
  EXPECT_TRUE(z.contains_all({}));
  EXPECT_EQ(command_calls(server, "zmscore"), reads);
  EXPECT_FALSE(set("missing").contains_all({"a"}));

  EXPECT_TRUE(z.replace("b", "bb"));
  EXPECT_EQ(z.score("bb"), 2);
  EXPECT_FALSE(z.contains("b"));
  EXPECT_FALSE(z.replace("zz", "y"));
  EXPECT_FALSE(z.contains("y"));
  EXPECT_FALSE(set("missing").replace("a", "b"));

  EXPECT_TRUE(z.retain_all({"a", "c", "zz"}));
  EXPECT_EQ(z.entry_range(0, -1), (Entries{{"a", 1}, {"c", 3}}));
  EXPECT_FALSE(z.retain_all({"a", "c"}));
  EXPECT_EQ(server.command({"EXISTS", "{z}:redisson_temp"}), "0") << "the temporary set is gone";
  EXPECT_FALSE(set("missing").retain_all({"a"}));
  EXPECT_TRUE(z.retain_all({})) << "none: the set is deleted, as Redisson";
  EXPECT_EQ(server.command({"EXISTS", "z"}), "0");
  EXPECT_FALSE(z.retain_all({}));
}

TEST_F(ScoredSortedSetOpsTest, RangeToCopiesRanksAndScores) {
  auto z = five("z");
  auto dst = set("dst");
  EXPECT_EQ(z.range_to("dst", 1, 2), 2);
  EXPECT_EQ(dst.entry_range(0, -1), (Entries{{"b", 2}, {"c", 3}}));
  EXPECT_EQ(z.range_to_by_score("dst", 2, false, 4, true), 2);
  EXPECT_EQ(dst.value_range(0, -1), (Strings{"c", "d"}));
  EXPECT_EQ(z.range_to_by_score("dst", -kInf, true, kInf, true, 1, 2), 2);
  EXPECT_EQ(dst.value_range(0, -1), (Strings{"b", "c"}));
  EXPECT_EQ(z.rev_range_to("dst", 0, 1), 2);
  EXPECT_EQ(dst.entry_range(0, -1), (Entries{{"d", 4}, {"e", 5}}));
  EXPECT_EQ(z.rev_range_to_by_score("dst", 2, true, 4, false), 2);
  EXPECT_EQ(dst.value_range(0, -1), (Strings{"b", "c"}));
  EXPECT_EQ(z.rev_range_to_by_score("dst", -kInf, true, kInf, true, 0, 1), 1);
  EXPECT_EQ(dst.value_range(0, -1), (Strings{"e"}));
  EXPECT_EQ(set("missing").range_to("dst", 0, -1), 0);
  EXPECT_EQ(server.command({"EXISTS", "dst"}), "0");
  const auto calls = command_calls(server, "zrangestore");
  expect_error(errc::invalid_argument, [&] { z.range_to_by_score("dst", kNaN, true, 1, true); });
  expect_error(errc::invalid_argument,
               [&] { z.rev_range_to_by_score("dst", 0, true, kNaN, true, 0, 1); });
  EXPECT_EQ(command_calls(server, "zrangestore"), calls);
}

TEST_F(ScoredSortedSetOpsTest, NewOperationsOnAWrongTypeKeyChangeNothing) {
  server.command({"SET", "w", "a string"});
  auto w = set("w");
  auto z = five("z");
  const auto wrong = [&](const std::string& what, auto call) {
    expect_error(errc::wrong_type, call, what);
  };
  wrong("add_all_if_absent", [&] { w.add_all_if_absent({{1, "x"}}); });
  wrong("add_all_if_greater", [&] { w.add_all_if_greater({{1, "x"}}); });
  wrong("add_score_and_get_rank", [&] { w.add_score_and_get_rank("x", 1); });
  wrong("rank_entry", [&] { (void)w.rank_entry("x"); });
  wrong("rev_rank_entry", [&] { (void)w.rev_rank_entry("x"); });
  wrong("poll_first_entry", [&] { (void)w.poll_first_entry(); });
  wrong("poll_last_entries", [&] { (void)w.poll_last_entries(2); });
  wrong("random", [&] { (void)w.random(); });
  wrong("random(count)", [&] { (void)w.random(2); });
  wrong("random_entries", [&] { (void)w.random_entries(2); });
  wrong("contains_all", [&] { (void)w.contains_all({"x"}); });
  wrong("retain_all", [&] { w.retain_all({"x"}); });
  wrong("retain_all(none)", [&] { w.retain_all({}); });
  wrong("replace", [&] { w.replace("x", "y"); });
  wrong("range_to", [&] { w.range_to("dst", 0, -1); });
  wrong("read_union", [&] { (void)w.read_union({"z"}); });
  wrong("read_intersection_entries", [&] { (void)w.read_intersection_entries({"z"}); });
  wrong("read_diff", [&] { (void)w.read_diff({"z"}); });
  wrong("count_intersection", [&] { (void)w.count_intersection({"z"}); });
  wrong("store_union a string", [&] { z.store_union({"z", "w"}); });
  wrong("intersection with a string", [&] { z.store_intersection({"w", "z"}); });
  wrong("diff with a string", [&] { z.store_diff({"w"}); });
  EXPECT_EQ(server.command({"GET", "w"}), "a string");
  EXPECT_EQ(z.entry_range(0, -1), (Entries{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}, {"e", 5}}));
  EXPECT_EQ(server.command({"EXISTS", "dst"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "{w}:redisson_temp"}), "0");
}

}  // namespace

}  // namespace collections_scored_sorted_set_test
