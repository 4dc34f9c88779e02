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
