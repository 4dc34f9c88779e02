// distributed_values (Java's distributedIterator) against a real redis-server: handles in two
// clients sharing one cursor kept in Redis read a set, a sorted set, a list and a sorted list
// once between them, under Redisson's cursor key names; bad input and keys of another type
// change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "redisson/objects/list.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/set.hpp"
#include "redisson/objects/sorted_set.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace collections_distributed_scan_test {

using redisson::errc;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;
using Strings = std::vector<std::string>;

namespace {

class DistributedScanTest : public redisson::test::ServerTest {
 protected:
  redisson::Client other{redisson::test::config_for(server)};
};

/// Takes pages from `first` and `second` in turn until both are over; every element seen.
template <class Scan>
Strings take_turns(Scan first, Scan second) {
  Strings seen;
  for (bool over = false; !over;) {
    auto mine = first.next_batch();
    auto theirs = second.next_batch();
    over = mine.empty() && theirs.empty();
    seen.insert(seen.end(), mine.begin(), mine.end());
    seen.insert(seen.end(), theirs.begin(), theirs.end());
  }
  return seen;
}

Strings numbered(const std::string& prefix, int count) {
  Strings out;
  for (int i = 0; i < count; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

TEST_F(DistributedScanTest, TwoClientsReadASetOnceBetweenThem) {
  redisson::Set<std::string> mine(client, "s", codecs::string());
  redisson::Set<std::string> theirs(other, "s", codecs::string());
  const auto members = numbered("m", 200);
  ASSERT_EQ(mine.add_all(members), 200);
  auto seen = take_turns(mine.distributed_values(20), theirs.distributed_values(20));
  std::sort(seen.begin(), seen.end());
  auto want = members;
  std::sort(want.begin(), want.end());
  EXPECT_EQ(seen, want);
  // Redisson's cursor key, finished, kept for an hour from the last page.
  EXPECT_EQ(server.command({"GET", "__redisson_set_cursor_{s}"}), "-1");
  const auto ttl = std::stoll(server.command({"TTL", "__redisson_set_cursor_{s}"}));
  EXPECT_GT(ttl, 3500);
  // A finished scan stays finished for a new handle with the same name.
  EXPECT_EQ(mine.distributed_values(20).next_batch(), Strings{});
}

TEST_F(DistributedScanTest, ANamedScanWithAPatternReadsOnlyWhatMatches) {
  redisson::Set<std::string> set(client, "s", codecs::string());
  set.add_all({"a1", "a2", "b1", "b2", "a3"});
  auto scan = set.distributed_values("my-iterator", 10, "a*");
  Strings seen;
  for (const auto& member : scan) seen.push_back(member);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (Strings{"a1", "a2", "a3"}));
  EXPECT_EQ(server.command({"GET", "my-iterator"}), "-1");
}

TEST_F(DistributedScanTest, SortedSetsShareRedissonsScoredSortedSetCursor) {
  redisson::ScoredSortedSet<std::string> mine(client, "z", codecs::string());
  redisson::ScoredSortedSet<std::string> theirs(other, "z", codecs::string());
  for (int i = 0; i < 150; ++i) mine.add(i, "m" + std::to_string(i));
  auto seen = take_turns(mine.distributed_values(15), theirs.distributed_values(15));
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 150u);
  EXPECT_EQ(seen.size(), 150u);  // members only: no scores among them
  EXPECT_EQ(server.command({"GET", "__redisson_scored_sorted_set_cursor_{z}"}), "-1");
}

TEST_F(DistributedScanTest, ListsAreReadInWindowsInOrder) {
  redisson::List<std::string> mine(client, "l", codecs::string());
  redisson::List<std::string> theirs(other, "l", codecs::string());
  const auto elements = numbered("e", 25);
  mine.add_all(elements);
  auto first = mine.distributed_values(10);
  auto second = theirs.distributed_values(10);
  EXPECT_EQ(first.next_batch(), Strings(elements.begin(), elements.begin() + 10));
  EXPECT_EQ(second.next_batch(), Strings(elements.begin() + 10, elements.begin() + 20));
  EXPECT_EQ(first.next_batch(), Strings(elements.begin() + 20, elements.end()));
  EXPECT_EQ(second.next_batch(), Strings{});
  EXPECT_EQ(server.command({"GET", "__redisson_list_cursor_{l}"}), "-1");

  redisson::SortedSet<std::string> sorted(client, "ss", codecs::string());
  sorted.add_all({"c", "a", "b"});
  Strings in_order;
  for (const auto& value : sorted.distributed_values(2)) in_order.push_back(value);
  EXPECT_EQ(in_order, (Strings{"a", "b", "c"}));
  EXPECT_EQ(server.command({"GET", "__redisson_sorted_set_cursor_{ss}"}), "-1");
}

TEST_F(DistributedScanTest, BadInputAndKeysOfAnotherTypeChangeNothing) {
  redisson::Set<std::string> set(client, "s", codecs::string());
  expect_error(errc::invalid_argument, [&] { set.distributed_values("", 10); });
  expect_error(errc::invalid_argument, [&] { set.distributed_values(0); });
  server.command({"SET", "s", "text"});
  auto scan = set.distributed_values(10);
  expect_error(errc::wrong_type, [&] { scan.next_batch(); });
  EXPECT_EQ(server.command({"EXISTS", "__redisson_set_cursor_{s}"}), "0");
  redisson::List<std::string> list(client, "s", codecs::string());
  auto windows = list.distributed_values(10);
  expect_error(errc::wrong_type, [&] { windows.next_batch(); });
  EXPECT_EQ(server.command({"EXISTS", "__redisson_list_cursor_{s}"}), "0");
}

}  // namespace

}  // namespace collections_distributed_scan_test
