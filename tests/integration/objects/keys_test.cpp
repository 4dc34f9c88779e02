// Keys against a real redis-server: counting, SCAN cursors (never KEYS), deleting by name and
// by pattern, a flush that needs its tag, types and time to live.
#include "redisson/objects/keys.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"

namespace objects_keys_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::Keys;
using redisson::KeyType;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;

namespace {

// flushdb() cannot be called by accident: without its tag, or with a braced {} for it.
template <class K>
concept FlushesWithoutTag = requires(K keys) {
  keys.flushdb();
};
template <class K>
concept FlushesWithBraces = requires(K keys) {
  keys.flushdb({});
};
static_assert(!FlushesWithoutTag<Keys>);
static_assert(!FlushesWithBraces<Keys>);
template <class K>
concept FlushesAllWithoutTag = requires(K keys) {
  keys.flushall();
};
static_assert(!FlushesAllWithoutTag<Keys>);

class KeysTest : public ::testing::Test {
 protected:
  void fill(const std::string& prefix, int count) {
    std::vector<std::string> mset{"MSET"};
    for (int i = 0; i < count; ++i) {
      mset.push_back(prefix + std::to_string(i));
      mset.push_back("v");
    }
    server.command(mset);
  }

  RedisServer server;
  Client client{config_for(server)};
  Keys keys{client};
};

TEST_F(KeysTest, CountsEveryKey) {
  EXPECT_EQ(keys.count(), 0);
  fill("k:", 25);
  EXPECT_EQ(keys.count(), 25);
}

TEST_F(KeysTest, ScanVisitsEveryMatchingKeyByPages) {
  fill("user:", 500);
  fill("order:", 50);
  auto scan = keys.scan({.pattern = "user:*", .count = 100});
  std::set<std::string> seen;
  std::size_t batches = 0;
  for (auto batch = scan.next_batch(); !batch.empty(); batch = scan.next_batch()) {
    ++batches;
    EXPECT_LT(batch.size(), 500u);  // pages, not everything at once
    for (auto& key : batch) {
      EXPECT_EQ(key.rfind("user:", 0), 0u) << key;
      seen.insert(std::move(key));
    }
  }
  EXPECT_EQ(seen.size(), 500u);
  EXPECT_GT(batches, 1u);
  EXPECT_TRUE(scan.next_batch().empty());  // stays over
  EXPECT_EQ(command_calls(server, "keys"), 0);
}

TEST_F(KeysTest, ScanIsARange) {
  fill("a:", 30);
  std::set<std::string> seen;
  for (const auto& key : keys.scan({.pattern = "a:1*"})) seen.insert(key);
  EXPECT_EQ(seen, (std::set<std::string>{"a:1", "a:10", "a:11", "a:12", "a:13", "a:14", "a:15",
                                         "a:16", "a:17", "a:18", "a:19"}));
  auto nothing = keys.scan({.pattern = "none:*"});
  EXPECT_TRUE(nothing.begin() == nothing.end());
}

TEST_F(KeysTest, ScanFiltersByType) {
  fill("s:", 5);
  server.command({"HSET", "h:1", "f", "v"});
  server.command({"HSET", "h:2", "f", "v"});
  std::set<std::string> hashes;
  for (const auto& key : keys.scan({.type = "hash"})) hashes.insert(key);
  EXPECT_EQ(hashes, (std::set<std::string>{"h:1", "h:2"}));
}

TEST_F(KeysTest, AsyncScanPages) {
  fill("x:", 20);
  auto scan = keys.scan({.count = 1000});
  std::set<std::string> seen;
  for (;;) {
    auto batch = scan.async_next_batch(asio::use_future).get();
    if (batch.empty()) break;
    seen.insert(batch.begin(), batch.end());
  }
  EXPECT_EQ(seen.size(), 20u);
}

TEST_F(KeysTest, DeleteUnlinkAndCountExists) {
  fill("d:", 6);
  EXPECT_EQ(keys.count_exists({"d:0", "d:1", "nope", "d:0"}), 3);  // EXISTS counts repeats
  EXPECT_EQ(keys.delete_keys({"d:0", "d:1", "nope"}), 2);
  EXPECT_EQ(keys.unlink({"d:2", "d:3"}), 2);
  EXPECT_EQ(keys.count_exists({"d:0", "d:1", "d:2", "d:3", "d:4", "d:5"}), 2);
  EXPECT_EQ(keys.delete_keys({}), 0);
  EXPECT_EQ(keys.async_count_exists({"d:4"}, asio::use_future).get(), 1);
}

TEST_F(KeysTest, DeleteByPatternScansAndUnlinksInBatches) {
  fill("tmp:", 1200);
  fill("keep:", 10);
  EXPECT_EQ(keys.delete_by_pattern("tmp:*"), 1200);
  EXPECT_EQ(keys.count(), 10);
  EXPECT_EQ(command_calls(server, "keys"), 0);
  EXPECT_GE(command_calls(server, "unlink"), 2);  // pages of SCAN COUNT 500
  EXPECT_EQ(keys.delete_by_pattern("tmp:*"), 0);
}

TEST_F(KeysTest, FlushdbNeedsItsTag) {
  fill("f:", 10);
  keys.flushdb(Keys::confirm_flush);
  EXPECT_EQ(keys.count(), 0);
}

TEST_F(KeysTest, FlushallEmptiesEveryDatabase) {
  fill("f:", 3);
  auto config = config_for(server);
  config.server.database = 2;
  Client db2(config);
  redisson::Bucket<std::string>(db2, "other", redisson::codecs::string()).set("x");
  EXPECT_EQ(Keys(db2).count(), 1);
  keys.flushall(Keys::confirm_flush);
  EXPECT_EQ(keys.count(), 0);
  EXPECT_EQ(Keys(db2).count(), 0);
}

TEST_F(KeysTest, SwapdbExchangesTwoDatabases) {
  fill("a:", 2);
  auto config = config_for(server);
  config.server.database = 1;
  Client db1(config);
  keys.swapdb(0, 1);
  EXPECT_EQ(keys.count(), 0);
  EXPECT_EQ(Keys(db1).count(), 2);
  expect_error(
      errc::server_error, [&] { keys.swapdb(0, 99); }, "swapdb out of range");
}

TEST_F(KeysTest, SlotIsTheClusterHashSlot) {
  EXPECT_EQ(Keys::slot("foo"), 12182);  // the examples of the Cluster specification
  EXPECT_EQ(Keys::slot("{user1000}.following"), Keys::slot("{user1000}.followers"));
  EXPECT_EQ(Keys::slot("{user1000}.following"), Keys::slot("user1000"));
  EXPECT_EQ(Keys::slot("123456789"), 0x31C3 % 16384);  // CRC16/XMODEM check value
}

TEST_F(KeysTest, RandomKey) {
  EXPECT_EQ(keys.random_key(), std::nullopt);
  server.command({"SET", "only", "1"});
  EXPECT_EQ(keys.random_key(), "only");
}

TEST_F(KeysTest, TypesAndTimeToLive) {
  server.command({"SET", "s", "v"});
  server.command({"RPUSH", "l", "v"});
  server.command({"SADD", "st", "v"});
  server.command({"ZADD", "z", "1", "v"});
  server.command({"HSET", "h", "f", "v"});
  server.command({"XADD", "x", "*", "f", "v"});
  EXPECT_EQ(keys.get_type("s"), KeyType::string);
  EXPECT_EQ(keys.get_type("l"), KeyType::list);
  EXPECT_EQ(keys.get_type("st"), KeyType::set);
  EXPECT_EQ(keys.get_type("z"), KeyType::zset);
  EXPECT_EQ(keys.get_type("h"), KeyType::hash);
  EXPECT_EQ(keys.get_type("x"), KeyType::stream);
  EXPECT_EQ(keys.get_type("missing"), KeyType::none);
  EXPECT_EQ(keys.remaining_time_to_live("s"), -1ms);
  EXPECT_EQ(keys.remaining_time_to_live("missing"), -2ms);
  server.command({"PEXPIRE", "s", "60000"});
  EXPECT_GT(keys.remaining_time_to_live("s"), 50s);
}

TEST_F(KeysTest, BadScanCountIsRefused) {
  expect_error(
      errc::invalid_argument, [&] { keys.scan({.count = 0}); }, "count 0");
  EXPECT_EQ(command_calls(server, "scan"), 0);
}

}  // namespace

}  // namespace objects_keys_test
