// Set<T> against a real redis-server: every operation, the members it writes (the codec's
// bytes), SSCAN pages, Java Redisson's sets read and written, and errors that change nothing.
#include "redisson/objects/set.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_set_test {

using redisson::errc;
using redisson::Set;
using redisson::test::expect_error;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class SetTest : public redisson::test::ServerTest {};

TEST_F(SetTest, AddRemoveContainsAndSize) {
  Set<std::string> set(client, "s", codecs::string());
  EXPECT_TRUE(set.add("a"));
  EXPECT_FALSE(set.add("a"));
  EXPECT_EQ(set.add_all({"b", "c", "a"}), 2);
  EXPECT_EQ(set.add_all({}), 0);
  EXPECT_EQ(set.size(), 3);
  EXPECT_TRUE(set.contains("b"));
  EXPECT_FALSE(set.contains("z"));
  EXPECT_EQ(set.contains_each({"a", "z", "c"}), (std::vector<bool>{true, false, true}));
  EXPECT_TRUE(set.remove("b"));
  EXPECT_FALSE(set.remove("b"));
  EXPECT_EQ(set.remove_all({"a", "z"}), 1);
  EXPECT_EQ(server.command({"SMEMBERS", "s"}), "c");
}

TEST_F(SetTest, RandomPopAndMove) {
  Set<std::int64_t> set(client, "{t}s", codecs::long_text());
  EXPECT_EQ(set.random(), std::nullopt);
  EXPECT_EQ(set.remove_random(), std::nullopt);
  set.add_all({1, 2, 3});
  const auto some = set.random();
  ASSERT_TRUE(some.has_value());
  EXPECT_TRUE(set.contains(*some));
  EXPECT_EQ(set.size(), 3);
  const auto popped = set.remove_random();
  ASSERT_TRUE(popped.has_value());
  EXPECT_FALSE(set.contains(*popped));
  const std::int64_t left = *popped == 1 ? 2 : 1;
  EXPECT_TRUE(set.move("{t}other", left));
  EXPECT_FALSE(set.move("{t}other", left));
  EXPECT_EQ(Set<std::int64_t>(client, "{t}other", codecs::long_text()).size(), 1);
}

TEST_F(SetTest, ValuesAreReadInPages) {
  Set<std::int64_t> set(client, "s", codecs::long_text());
  std::vector<std::int64_t> written;
  for (std::int64_t i = 0; i < 1000; ++i) written.push_back(i * 3);
  set.add_all(written);
  std::set<std::int64_t> read;
  auto scan = set.values(64);
  for (const auto value : scan) read.insert(value);
  EXPECT_EQ(read, std::set<std::int64_t>(written.begin(), written.end()));
  EXPECT_LT(set.values(64).next_batch().size(), 1000u) << "one page, not the whole set";
  EXPECT_TRUE(set.async_contains(3, asio::use_future).get());
}

std::set<std::string> as_set(const std::vector<std::string>& values) {
  return {values.begin(), values.end()};
}

TEST_F(SetTest, ReadAllEmptyTryAddContainsAllRetainAll) {
  Set<std::string> set(client, "s", codecs::string());
  EXPECT_TRUE(set.empty());
  EXPECT_TRUE(set.read_all().empty());
  EXPECT_TRUE(set.try_add({"a", "b"}));
  EXPECT_FALSE(set.try_add({"c", "b"}));  // b is a member: c is not added either
  EXPECT_FALSE(set.contains("c"));
  EXPECT_FALSE(set.try_add({}));
  EXPECT_FALSE(set.empty());
  EXPECT_EQ(as_set(set.read_all()), (std::set<std::string>{"a", "b"}));

  EXPECT_TRUE(set.contains_all({"a", "b"}));
  EXPECT_FALSE(set.contains_all({"a", "z"}));
  EXPECT_TRUE(set.contains_all({}));

  set.add_all({"c", "d"});
  EXPECT_TRUE(set.retain_all({"a", "c", "zz"}));
  EXPECT_EQ(as_set(set.read_all()), (std::set<std::string>{"a", "c"}));
  EXPECT_FALSE(set.retain_all({"a", "c"}));
  EXPECT_EQ(server.command({"EXISTS", "{s}:redisson_temp"}), "0");  // the temporary set is gone
  EXPECT_TRUE(set.async_retain_all({}, asio::use_future).get());    // none kept: deleted
  EXPECT_EQ(server.command({"EXISTS", "s"}), "0");
}

TEST_F(SetTest, UnionIntersectionAndDiffReadOrStore) {
  Set<std::string> set(client, "{t}:a", codecs::string());
  Set<std::string> b(client, "{t}:b", codecs::string());
  Set<std::string> c(client, "{t}:c", codecs::string());
  set.add_all({"1", "2", "3"});
  b.add_all({"2", "3", "4"});
  c.add_all({"3", "5"});

  EXPECT_EQ(as_set(set.read_union({"{t}:b", "{t}:c"})),
            (std::set<std::string>{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(as_set(set.read_intersection({"{t}:b", "{t}:c"})), (std::set<std::string>{"3"}));
  EXPECT_EQ(as_set(set.read_diff({"{t}:b"})), (std::set<std::string>{"1"}));
  EXPECT_EQ(set.count_intersection({"{t}:b"}), 2);
  EXPECT_EQ(set.count_intersection({"{t}:b"}, 1), 1);
  EXPECT_EQ(set.size(), 3);  // the read forms write nothing

  // The store forms write the named sets' result into this one, as Redisson's union,
  // intersection and diff: this set takes part only when it is named.
  EXPECT_EQ(set.store_intersection({"{t}:a", "{t}:b"}), 2);  // {2, 3}
  EXPECT_EQ(as_set(set.read_all()), (std::set<std::string>{"2", "3"}));
  EXPECT_EQ(set.store_union({"{t}:a", "{t}:c"}), 3);  // {2, 3, 5}
  EXPECT_EQ(set.store_diff({"{t}:a", "{t}:b"}), 1);   // {5}
  EXPECT_EQ(set.read_all(), (std::vector<std::string>{"5"}));
  EXPECT_EQ(set.store_union({"{t}:b"}), 3);  // {2, 3, 4}: this set's 5 is not among the names
  EXPECT_EQ(as_set(set.read_all()), (std::set<std::string>{"2", "3", "4"}));
  EXPECT_EQ(set.store_diff({"{t}:b", "{t}:c"}), 2);  // {2, 4}
  EXPECT_EQ(as_set(set.async_read_union({"{t}:none"}, asio::use_future).get()),
            (std::set<std::string>{"2", "4"}));  // a missing set is empty

  expect_error(
      errc::invalid_argument, [&] { (void)set.count_intersection({"{t}:b"}, -1); },
      "negative limit");
  expect_error(
      errc::invalid_argument, [&] { (void)set.store_union({}); }, "a store from no sets");
  server.command({"SET", "{t}:str", "x"});
  expect_error(
      errc::wrong_type, [&] { (void)set.store_union({"{t}:str"}); }, "union with a string key");
  EXPECT_EQ(as_set(set.read_all()), (std::set<std::string>{"2", "4"}));
}

TEST_F(SetTest, SynchronizerNamesAreRedissons) {
  // Redisson's set.getLock(value): getLockByValue, the same hash as a map key of those bytes
  // (fixtures: transaction_commit_string, StringCodec "k1").
  Set<std::string> set(client, "m", codecs::string());
  EXPECT_EQ(set.lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:lock");
  EXPECT_EQ(set.fair_lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:fairlock");
  EXPECT_EQ(set.semaphore_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:semaphore");
  EXPECT_EQ(set.read_write_lock_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:rw_lock");
  EXPECT_EQ(set.count_down_latch_name("k1"), "{m}:9sC8KpMg8F8KBbxgHnpp1w:countdownlatch");
  EXPECT_EQ(set.permit_expirable_semaphore_name("k1"),
            "{m}:9sC8KpMg8F8KBbxgHnpp1w:permitexpirablesemaphore");
}

TEST_F(SetTest, WrongTypeAndUnreadableBytesChangeNothing) {
  server.command({"SET", "s", "a string"});
  Set<std::string> set(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { set.add("x"); }, "add on a string key");
  expect_error(
      errc::wrong_type, [&] { (void)set.size(); }, "size on a string key");
  EXPECT_EQ(server.command({"GET", "s"}), "a string");
  server.command({"SADD", "n", "not a number"});
  Set<std::int64_t> numbers(client, "n", codecs::long_text());
  expect_error(
      errc::codec_error, [&] { (void)numbers.random(); }, "unreadable member");
}

TEST_F(SetTest, SharesJavaRedissonsSets) {
  redisson::test::load_java_fixtures(server);
  for (const char* name : {"set_kryo", "set_string"}) {
    SCOPED_TRACE(name);
    const auto& java = redisson::test::java_case(name);
    const auto key = java.at("key").get<std::string>();
    const auto codec = redisson::test::codec_of_case(java);
    std::set<std::string> expected;
    for (const auto& v : java.at("value")) expected.insert(v.get<std::string>());

    const Set<std::string> theirs(client, key, codec);
    std::set<std::string> read;
    auto scan = theirs.values();
    for (const auto& value : scan) read.insert(value);
    EXPECT_EQ(read, expected) << "C++ reads what Java wrote";

    Set<std::string> ours(client, "cpp:" + key, codec);
    ours.add_all(std::vector<std::string>(expected.begin(), expected.end()));
    for (const auto& member : redisson::test::java_dump_entry(key).at("content")) {
      const auto bytes = redisson::test::from_hex(member.at("hex").get<std::string>());
      EXPECT_EQ(server.command({"SISMEMBER", "cpp:" + key, bytes}), "1")
          << "C++ writes the member bytes Java wrote: " << to_hex(bytes);
    }
    EXPECT_EQ(ours.size(), static_cast<std::int64_t>(expected.size()));
  }
}

}  // namespace

}  // namespace collections_set_test
