// HyperLogLog<T> against a real redis-server: counting, the values' codec bytes (a log Java
// wrote with StringCodec counts the same values as ours, byte for byte), union and merge, and
// errors that change nothing.
#include "redisson/objects/hyper_log_log.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_hyper_log_log_test {

using redisson::Client;
using redisson::errc;
using redisson::HyperLogLog;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;

namespace {

// The log Java wrote for fx:hyperloglog_<codec>: add("a"), add("b"), add("c"), then count()
// (which caches the cardinality 3 in the header).
std::string java_log(const std::string& name) {
  return redisson::test::from_hex(redisson::test::java_string_hex(name));
}

class HyperLogLogTest : public redisson::test::ServerTest {};

TEST_F(HyperLogLogTest, CountsDistinctValues) {
  HyperLogLog<std::string> log(client, "hll", codecs::string());
  EXPECT_EQ(log.count(), 0);
  EXPECT_TRUE(log.add("a"));
  EXPECT_FALSE(log.add("a"));
  EXPECT_TRUE(log.add("b"));
  EXPECT_EQ(log.count(), 2);
}

TEST_F(HyperLogLogTest, WritesTheLogJavaWrites) {
  HyperLogLog<std::string> log(client, "fx:hyperloglog_string", codecs::string());
  log.add("a");
  log.add("b");
  log.add("c");
  EXPECT_EQ(log.count(), 3);
  EXPECT_EQ(server.command({"GET", "fx:hyperloglog_string"}), java_log("fx:hyperloglog_string"));
}

TEST_F(HyperLogLogTest, CountsWhatJavaAddedAsTheSameValues) {
  server.command({"SET", "fx:hyperloglog_string", java_log("fx:hyperloglog_string")});
  HyperLogLog<std::string> log(client, "fx:hyperloglog_string", codecs::string());
  EXPECT_EQ(log.count(), 3);
  EXPECT_FALSE(log.add_all({"a", "b", "c"}));  // the same bytes: nothing new
  EXPECT_TRUE(log.add("d"));
  EXPECT_EQ(log.count(), 4);
}

TEST_F(HyperLogLogTest, CountsWhatJavaAddedWithKryoAsTheSameValues) {
  // The default codec: the registers Java set for Kryo's bytes of "a", "b", "c" are the ones a
  // C++ log of the same strings sets, so the union still counts 3.
  server.command({"SET", "java", java_log("fx:hyperloglog_kryo")});
  HyperLogLog<std::string> log(client, "mine");
  log.add_all({"a", "b", "c"});
  EXPECT_EQ(log.count_with({"java"}), 3);
  EXPECT_FALSE(HyperLogLog<std::string>(client, "java").add_all({"a", "b", "c"}));
}

TEST_F(HyperLogLogTest, AddAllIsOnePfadd) {
  HyperLogLog<std::int64_t> log(client, "numbers", codecs::long_text());
  std::vector<std::int64_t> values;
  for (std::int64_t i = 0; i < 100; ++i) values.push_back(i % 50);
  const auto before = command_calls(server, "pfadd");
  EXPECT_TRUE(log.add_all(values));
  EXPECT_EQ(command_calls(server, "pfadd") - before, 1);
  EXPECT_EQ(log.count(), 50);
  EXPECT_FALSE(log.add(7));
}

TEST_F(HyperLogLogTest, EmptyAddAllCreatesAnEmptyLog) {
  HyperLogLog<std::string> log(client, "empty", codecs::string());
  EXPECT_TRUE(log.add_all({}));
  EXPECT_TRUE(log.exists());
  EXPECT_EQ(log.count(), 0);
  EXPECT_FALSE(log.add_all({}));
}

TEST_F(HyperLogLogTest, CountWithAndMergeWith) {
  HyperLogLog<std::string> first(client, "{u}:1", codecs::string());
  HyperLogLog<std::string> second(client, "{u}:2", codecs::string());
  HyperLogLog<std::string> third(client, "{u}:3", codecs::string());
  first.add_all({"a", "b", "c"});
  second.add_all({"c", "d"});
  third.add_all({"e"});
  EXPECT_EQ(first.count_with({"{u}:2"}), 4);
  EXPECT_EQ(first.count_with({"{u}:2", "{u}:3"}), 5);
  EXPECT_EQ(first.count(), 3);  // left unchanged
  first.merge_with({"{u}:2", "{u}:3"});
  EXPECT_EQ(first.count(), 5);
  EXPECT_EQ(second.count(), 2);
}

TEST_F(HyperLogLogTest, AsyncFormsCompleteWithTheResult) {
  HyperLogLog<std::string> log(client, "async", codecs::string());
  EXPECT_TRUE(log.async_add("x", asio::use_future).get());
  EXPECT_TRUE(log.async_add_all({"y", "z"}, asio::use_future).get());
  EXPECT_EQ(log.async_count(asio::use_future).get(), 3);
  EXPECT_EQ(log.async_count_with({"none"}, asio::use_future).get(), 3);
  log.async_merge_with({"none"}, asio::use_future).get();
}

TEST_F(HyperLogLogTest, WrongTypeKeyFailsAndChangesNothing) {
  server.command({"RPUSH", "list", "x"});
  server.command({"SET", "text", "not a log"});
  HyperLogLog<std::string> list(client, "list", codecs::string());
  HyperLogLog<std::string> text(client, "text", codecs::string());
  expect_error(
      errc::wrong_type, [&] { list.add("a"); }, "add to a list");
  expect_error(
      errc::wrong_type, [&] { list.count(); }, "count of a list");
  expect_error(
      errc::wrong_type, [&] { text.add("a"); }, "add to a plain string");
  expect_error(
      errc::wrong_type, [&] { text.count(); }, "count of a plain string");
  EXPECT_EQ(server.command({"LRANGE", "list", "0", "-1"}), "x");
  EXPECT_EQ(server.command({"GET", "text"}), "not a log");
}

}  // namespace

}  // namespace objects_hyper_log_log_test
