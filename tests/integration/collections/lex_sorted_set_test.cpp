// LexSortedSet against a real redis-server: every operation, inclusive/exclusive and open
// bounds, empty sets, ZSCAN pages, the forced StringCodec, Java Redisson's RLexSortedSet read and
// written, and errors that change nothing.
#include "redisson/objects/lex_sorted_set.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <asio/use_future.hpp>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_lex_sorted_set_test {

using redisson::errc;
using redisson::LexSortedSet;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::to_hex;

namespace {

using Strings = std::vector<std::string>;

class LexSortedSetTest : public redisson::test::ServerTest {
 protected:
  LexSortedSet five(const std::string& name) {
    LexSortedSet set(client, name);
    set.add_all({"e", "c", "a", "d", "b"});
    return set;
  }
};

TEST_F(LexSortedSetTest, AddRemoveContainsAndSize) {
  LexSortedSet set(client, "l");
  EXPECT_TRUE(set.add("b"));
  EXPECT_FALSE(set.add("b"));
  EXPECT_EQ(set.add_all({"a", "c", "b"}), 2);
  EXPECT_EQ(set.add_all({}), 0);
  EXPECT_EQ(set.size(), 3);
  EXPECT_TRUE(set.contains("a"));
  EXPECT_FALSE(set.contains("z"));
  EXPECT_EQ(server.command({"ZRANGE", "l", "0", "-1", "WITHSCORES"}), "a\n0\nb\n0\nc\n0");
  EXPECT_TRUE(set.remove("b"));
  EXPECT_FALSE(set.remove("b"));
  EXPECT_EQ(set.remove_all({"a", "z"}), 1);
  EXPECT_EQ(set.remove_all({}), 0);
  EXPECT_EQ(set.value_range(0, -1), Strings{"c"});
}

TEST_F(LexSortedSetTest, ContainsAllAndRetainAll) {
  auto set = five("l");
  EXPECT_TRUE(set.contains_all({"a", "e"}));
  EXPECT_FALSE(set.contains_all({"a", "z"}));
  EXPECT_TRUE(set.contains_all({}));
  EXPECT_FALSE(set.retain_all({"a", "b", "c", "d", "e", "z"}));
  EXPECT_TRUE(set.retain_all({"b", "d", "z"}));
  EXPECT_EQ(set.value_range(0, -1), (Strings{"b", "d"}));
  EXPECT_EQ(server.command({"ZSCORE", "l", "b"}), "0");  // scores kept: still lexicographic
  EXPECT_TRUE(set.retain_all({}));                       // none kept: deleted, as Redisson
  EXPECT_EQ(server.command({"EXISTS", "l"}), "0");
  server.command({"SET", "text", "x"});
  LexSortedSet text(client, "text");
  expect_error(errc::wrong_type, [&] { text.contains_all({"a"}); });
  expect_error(errc::wrong_type, [&] { text.retain_all({"a"}); });
  EXPECT_EQ(server.command({"GET", "text"}), "x");
}

TEST_F(LexSortedSetTest, MembersAreTheBytesWhateverTheClientsDefaultCodec) {
  // The fixture's client uses kryo5 by default; Java's RLexSortedSet forces StringCodec.
  LexSortedSet set(client, "l");
  set.add_all({"\xc3\xa9t\xc3\xa9", "Zebra", "apple", std::string("nul\0byte", 8)});
  EXPECT_EQ(set.codec().name(), "string");
  EXPECT_EQ(server.command({"ZSCORE", "l", "apple"}), "0");
  EXPECT_EQ(server.command({"ZSCORE", "l", "\xc3\xa9t\xc3\xa9"}), "0");
  // memcmp order: upper case before lower case, UTF-8 after ASCII.
  EXPECT_EQ(set.value_range(0, -1),
            (Strings{"Zebra", "apple", std::string("nul\0byte", 8), "\xc3\xa9t\xc3\xa9"}));
  EXPECT_TRUE(set.contains(std::string("nul\0byte", 8)));
  EXPECT_FALSE(set.contains("nul"));
}

TEST_F(LexSortedSetTest, RangesWithInclusiveExclusiveAndOpenBounds) {
  auto set = five("l");
  EXPECT_EQ(set.range("b", true, "d", true), (Strings{"b", "c", "d"}));
  EXPECT_EQ(set.range("b", false, "d", true), (Strings{"c", "d"}));
  EXPECT_EQ(set.range("b", true, "d", false), (Strings{"b", "c"}));
  EXPECT_EQ(set.range("b", false, "d", false), Strings{"c"});
  EXPECT_EQ(set.range("bb", true, "cc", true), Strings{"c"}) << "bounds need not be members";
  EXPECT_EQ(set.range("d", true, "b", true), Strings{}) << "an empty range";
  EXPECT_EQ(set.range("a", true, "e", true, 1, 2), (Strings{"b", "c"}));
  EXPECT_EQ(set.range("a", false, "e", true, 2, -1), (Strings{"d", "e"}));
  EXPECT_EQ(set.range_head("c", true), (Strings{"a", "b", "c"}));
  EXPECT_EQ(set.range_head("c", false), (Strings{"a", "b"}));
  EXPECT_EQ(set.range_tail("c", true), (Strings{"c", "d", "e"}));
  EXPECT_EQ(set.range_tail("c", false), (Strings{"d", "e"}));
  EXPECT_EQ(set.range_tail("", true).size(), 5u) << "the empty string is before everything";
  EXPECT_EQ(set.value_range(1, 2), (Strings{"b", "c"}));
  EXPECT_EQ(set.value_range(-1, -1), Strings{"e"});
  EXPECT_EQ(set.count("b", true, "d", true), 3);
  EXPECT_EQ(set.count("b", false, "d", false), 1);
  EXPECT_EQ(set.count_head("c", false), 2);
  EXPECT_EQ(set.count_tail("c", true), 3);
  EXPECT_EQ(set.remove_range("b", false, "d", false), 1);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"a", "b", "d", "e"}));
  EXPECT_EQ(set.remove_range_head("b", false), 1);
  EXPECT_EQ(set.remove_range_tail("d", false), 1);
  EXPECT_EQ(set.value_range(0, -1), (Strings{"b", "d"}));
  EXPECT_EQ(set.remove_range("a", true, "z", true), 2);
  EXPECT_FALSE(set.exists());
}

TEST_F(LexSortedSetTest, ReversedRangesRanksAndRandomMembers) {
  LexSortedSet set(client, "lex");
  set.add_all({"a", "b", "c", "d"});
  using Strings = std::vector<std::string>;
  EXPECT_EQ(set.range_reversed("b", true, "d", false), (Strings{"c", "b"}));
  EXPECT_EQ(set.range_head_reversed("c", true), (Strings{"c", "b", "a"}));
  EXPECT_EQ(set.range_tail_reversed("b", false), (Strings{"d", "c"}));
  EXPECT_EQ(set.rank("c"), 2);
  EXPECT_EQ(set.rev_rank("c"), 1);
  EXPECT_EQ(set.rank("z"), std::nullopt);
  auto picked = set.random(3);
  EXPECT_EQ(picked.size(), 3U);
  std::sort(picked.begin(), picked.end());
  EXPECT_EQ(std::adjacent_find(picked.begin(), picked.end()), picked.end()) << "distinct";
  EXPECT_EQ(set.random(10).size(), 4U);
  EXPECT_TRUE(LexSortedSet(client, "none").random(2).empty());
  expect_error(
      errc::invalid_argument, [&] { (void)set.random(-1); }, "negative count");
}

TEST_F(LexSortedSetTest, FirstLastPollsAndTheEmptySet) {
  LexSortedSet set(client, "l");
  EXPECT_EQ(set.first(), std::nullopt);
  EXPECT_EQ(set.last(), std::nullopt);
  EXPECT_EQ(set.poll_first(), std::nullopt);
  EXPECT_EQ(set.poll_last(), std::nullopt);
  EXPECT_TRUE(set.poll_first(2).empty());
  EXPECT_TRUE(set.range_tail("", true).empty());
  EXPECT_EQ(set.count_tail("", true), 0);
  EXPECT_EQ(set.remove_range_tail("", true), 0);
  EXPECT_TRUE(set.values().next_batch().empty());

  set = five("l");
  EXPECT_EQ(set.first(), "a");
  EXPECT_EQ(set.last(), "e");
  EXPECT_EQ(set.poll_first(), "a");
  EXPECT_EQ(set.poll_last(), "e");
  EXPECT_EQ(set.poll_first(0), Strings{});
  EXPECT_EQ(set.poll_first(2), (Strings{"b", "c"}));
  EXPECT_EQ(set.poll_last(9), Strings{"d"});
  EXPECT_EQ(set.size(), 0);
}

TEST_F(LexSortedSetTest, ValuesAreReadInPages) {
  LexSortedSet set(client, "l");
  std::vector<std::string> written;
  written.reserve(1000);
  for (int i = 0; i < 1000; ++i) written.push_back("v" + std::to_string(i));
  EXPECT_EQ(set.add_all(written), 1000);
  std::set<std::string> read;
  for (const auto& value : set.values(64)) read.insert(value);
  EXPECT_EQ(read, std::set<std::string>(written.begin(), written.end()));
  EXPECT_LT(set.values(64).next_batch().size(), 1000u) << "one page, not the whole set";
  EXPECT_EQ(set.async_count_head("v2", false, asio::use_future).get(), 112);  // v0, v1, v1x, v1xx
  EXPECT_EQ(set.async_first(asio::use_future).get(), "v0");
}

TEST_F(LexSortedSetTest, WrongTypeChangesNothing) {
  server.command({"RPUSH", "l", "a list"});
  LexSortedSet set(client, "l");
  expect_error(
      errc::wrong_type, [&] { set.add("x"); }, "add on a list key");
  expect_error(
      errc::wrong_type,
      [&] {
        set.add_all({"x", "y"});
      },
      "add_all on a list key");
  expect_error(
      errc::wrong_type, [&] { (void)set.range_tail("", true); }, "range on a list key");
  expect_error(
      errc::wrong_type, [&] { set.remove_range_tail("", true); }, "remove_range on a list key");
  expect_error(
      errc::wrong_type, [&] { (void)set.poll_first(); }, "poll_first on a list key");
  EXPECT_EQ(server.command({"LRANGE", "l", "0", "-1"}), "a list");
}

TEST_F(LexSortedSetTest, SharesJavaRedissonsLexSortedSet) {
  redisson::test::load_java_fixtures(server);
  const auto& java = redisson::test::java_case("lexsortedset");
  const auto key = java.at("key").get<std::string>();
  const auto expected = java.at("value").get<Strings>();

  const LexSortedSet theirs(client, key);
  EXPECT_EQ(theirs.value_range(0, -1), expected) << "C++ reads what Java wrote";
  EXPECT_EQ(theirs.range("a", false, "c", true), (Strings{"b", "c"}));
  EXPECT_EQ(theirs.count_tail("", true), 3);

  // Java's add("a"); add("b"); add("c"), done by C++: the same bytes, ranks and scores.
  LexSortedSet ours(client, "cpp:" + key);
  for (const auto& value : expected) ours.add(value);
  const auto& dump = redisson::test::java_dump_entry(key).at("content");
  ASSERT_EQ(dump.size(), expected.size());
  for (std::size_t rank = 0; rank < dump.size(); ++rank) {
    const auto bytes = from_hex(dump[rank].at(0).at("hex").get<std::string>());
    EXPECT_EQ(server.command({"ZSCORE", "cpp:" + key, bytes}), dump[rank].at(1).get<std::string>())
        << "member " << to_hex(bytes);
    EXPECT_EQ(server.command({"ZRANK", "cpp:" + key, bytes}), std::to_string(rank));
  }
  EXPECT_EQ(ours.size(), static_cast<std::int64_t>(dump.size()));
}

}  // namespace

}  // namespace collections_lex_sorted_set_test
