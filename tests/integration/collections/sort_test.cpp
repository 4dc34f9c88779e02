// Sortable (SORT_RO / SORT ... STORE, Java's readSort, readSortAlpha, sortTo) on the three
// collections that have it: Set, List and ScoredSortedSet, against a real redis-server.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "redisson/objects/list.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/set.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace collections_sort_test {

using redisson::errc;
using redisson::SortOptions;
using redisson::SortOrder;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;

namespace {

using Numbers = std::vector<std::int64_t>;
using Strings = std::vector<std::string>;

class SortTest : public redisson::test::ServerTest {};

TEST_F(SortTest, NumbersSortAscendingDescendingAndLimited) {
  redisson::Set<std::int64_t> set(client, "s", codecs::long_text());
  set.add_all({5, -2, 30, 4});
  EXPECT_EQ(set.read_sort(), (Numbers{-2, 4, 5, 30}));
  EXPECT_EQ(set.read_sort({.order = SortOrder::descending}), (Numbers{30, 5, 4, -2}));
  EXPECT_EQ(set.read_sort({.offset = 1, .count = 2}), (Numbers{4, 5}));
  EXPECT_EQ(set.size(), 4);  // nothing written

  redisson::List<std::int64_t> list(client, "l", codecs::long_text());
  list.add_all({3, 1, 2});
  EXPECT_EQ(list.async_read_sort({}, asio::use_future).get(), (Numbers{1, 2, 3}));

  redisson::ScoredSortedSet<std::int64_t> zset(client, "z", codecs::long_text());
  zset.add(1.0, 20);
  zset.add(2.0, 10);
  EXPECT_EQ(zset.read_sort(), (Numbers{10, 20}));  // by the members, not by the scores
}

TEST_F(SortTest, AlphaByAndGetPatterns) {
  redisson::List<std::string> list(client, "names", codecs::string());
  list.add_all({"pear", "apple", "fig"});
  EXPECT_EQ(list.read_sort({.alpha = true}), (Strings{"apple", "fig", "pear"}));
  // Text that is not a number needs ALPHA: the server's refusal reaches the caller.
  expect_error(
      errc::server_error, [&] { (void)list.read_sort(); }, "numeric sort of text");

  server.command({"MSET", "weight_pear", "1", "weight_apple", "3", "weight_fig", "2"});
  server.command({"MSET", "color_pear", "green", "color_apple", "red"});
  EXPECT_EQ(list.read_sort({.by = "weight_*"}), (Strings{"pear", "fig", "apple"}));
  EXPECT_EQ(list.read_sort({.order = SortOrder::descending, .by = "weight_*", .get = {"#"}}),
            (Strings{"apple", "fig", "pear"}));
  // fig has no color key: left out, as nil.
  EXPECT_EQ(list.read_sort({.by = "weight_*", .get = {"color_*"}}), (Strings{"green", "red"}));
  EXPECT_EQ(list.read_sort({.by = "nosort"}), (Strings{"pear", "apple", "fig"}));
}

TEST_F(SortTest, SortToStoresAList) {
  redisson::Set<std::int64_t> set(client, "s", codecs::long_text());
  set.add_all({3, 1, 2});
  server.command({"RPUSH", "dest", "old"});
  EXPECT_EQ(set.sort_to("dest", {.order = SortOrder::descending}), 3);
  redisson::List<std::int64_t> dest(client, "dest", codecs::long_text());
  EXPECT_EQ(dest.range(0, -1), (Numbers{3, 2, 1}));
  EXPECT_EQ(set.async_sort_to("dest", {.count = 1}, asio::use_future).get(), 1);
  EXPECT_EQ(dest.range(0, -1), (Numbers{1}));
}

TEST_F(SortTest, BadOptionsAndWrongTypeChangeNothing) {
  redisson::Set<std::int64_t> set(client, "s", codecs::long_text());
  set.add_all({1, 2});
  expect_error(
      errc::invalid_argument, [&] { (void)set.read_sort({.offset = -1}); }, "negative offset");
  expect_error(
      errc::invalid_argument, [&] { (void)set.read_sort({.count = -2}); }, "count below -1");
  expect_error(
      errc::invalid_argument, [&] { (void)set.sort_to("", {}); }, "empty destination");
  server.command({"SET", "str", "x"});
  redisson::Set<std::int64_t> wrong(client, "str", codecs::long_text());
  expect_error(
      errc::wrong_type, [&] { (void)wrong.read_sort(); }, "sort of a string key");
  expect_error(
      errc::wrong_type, [&] { (void)wrong.sort_to("dest"); }, "sort_to of a string key");
  EXPECT_EQ(server.command({"EXISTS", "dest"}), "0");
}

}  // namespace
}  // namespace collections_sort_test
