// IdGenerator against a real redis-server: Redisson's keys and block allocation (the Java
// fixture's tryInit(100, 10) -> 100, 101 and key "110"), ids shared with another handle (or a
// Java process), one script per block however many callers wait, and errors.
#include "redisson/objects/id_generator.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"

namespace objects_id_generator_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::IdGenerator;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;

namespace {

class IdGeneratorTest : public ::testing::Test {
 protected:
  // Scripts run by SHA; the first run of a script (NOSCRIPT, then EVAL) comes before counting.
  std::int64_t scripts() const { return command_calls(server, "evalsha"); }

  RedisServer server;
  Client client{config_for(server)};
};

TEST_F(IdGeneratorTest, WritesRedissonsKeys) {
  IdGenerator ids(client, "fx:idgenerator");
  EXPECT_TRUE(ids.try_init(100, 10));
  EXPECT_EQ(ids.next_id(), 100);
  EXPECT_EQ(ids.next_id(), 101);
  // The Java fixture's bytes after tryInit(100, 10); nextId(); nextId().
  EXPECT_EQ(server.command({"GET", "fx:idgenerator"}), "110");
  EXPECT_EQ(server.command({"GET", "{fx:idgenerator}:allocation"}), "10");
}

TEST_F(IdGeneratorTest, ContinuesAfterWhatJavaTook) {
  server.command({"SET", "fx:idgenerator", "110"});
  server.command({"SET", "{fx:idgenerator}:allocation", "10"});
  IdGenerator ids(client, "fx:idgenerator");
  EXPECT_FALSE(ids.try_init(1, 50));  // already initialised: nothing changes
  EXPECT_EQ(ids.next_id(), 110);      // Java holds 100..109
  EXPECT_EQ(server.command({"GET", "fx:idgenerator"}), "120");
}

TEST_F(IdGeneratorTest, UninitialisedStartsAtOneWithBlocksOf5000) {
  IdGenerator ids(client, "fresh");
  EXPECT_EQ(ids.next_id(), 1);
  EXPECT_EQ(ids.next_id(), 2);
  EXPECT_EQ(server.command({"GET", "fresh"}), "5001");
  EXPECT_EQ(server.command({"GET", "{fresh}:allocation"}), "5000");
}

TEST_F(IdGeneratorTest, HandsOutABlockWithOneScript) {
  IdGenerator ids(client, "g");
  ids.try_init(1, 10);
  EXPECT_EQ(ids.next_id(), 1);  // block 1..10
  const auto before = scripts();
  for (std::int64_t expected = 2; expected <= 25; ++expected) EXPECT_EQ(ids.next_id(), expected);
  EXPECT_EQ(scripts() - before, 2);  // blocks 11..20, 21..30
  EXPECT_EQ(server.command({"GET", "g"}), "31");
}

TEST_F(IdGeneratorTest, HandlesShareTheIdsWithoutOverlap) {
  IdGenerator first(client, "shared");
  IdGenerator second(client, "shared");
  first.try_init(0, 5);
  EXPECT_EQ(first.next_id(), 0);   // first holds 0..4
  EXPECT_EQ(second.next_id(), 5);  // second takes 5..9
  EXPECT_EQ(first.next_id(), 1);
  IdGenerator copy = second;  // a copy shares its block
  EXPECT_EQ(copy.next_id(), 6);
  EXPECT_EQ(second.next_id(), 7);
}

TEST_F(IdGeneratorTest, ConcurrentCallersWaitForTheBlockInFlight) {
  IdGenerator ids(client, "busy");
  ids.try_init(1, 10);
  EXPECT_EQ(ids.next_id(), 1);  // block 1..10: 9 ids left
  const auto before = scripts();
  constexpr int kThreads = 8;
  constexpr int kEach = 50;
  std::vector<std::future<std::vector<std::int64_t>>> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.push_back(std::async(std::launch::async, [&ids] {
      std::vector<std::int64_t> got;
      for (int i = 0; i < kEach; ++i) got.push_back(ids.next_id());
      return got;
    }));
  }
  std::set<std::int64_t> all;
  for (auto& worker : workers) {
    const auto got = worker.get();
    for (std::size_t i = 1; i < got.size(); ++i) EXPECT_LT(got[i - 1], got[i]);
    all.insert(got.begin(), got.end());
  }
  ASSERT_EQ(all.size(), std::size_t{kThreads * kEach});
  EXPECT_EQ(*all.begin(), 2);
  EXPECT_EQ(*all.rbegin(), kThreads * kEach + 1);  // no id of a block is lost
  EXPECT_EQ(scripts() - before, 40);               // 391 ids past the first block: 40 blocks of 10
}

TEST_F(IdGeneratorTest, AsyncCallersInFlightShareOneScriptPerBlock) {
  IdGenerator ids(client, "async");
  ids.try_init(1, 10);
  EXPECT_EQ(ids.next_id(), 1);
  const auto before = scripts();
  std::vector<std::future<std::int64_t>> pending;
  for (int i = 0; i < 25; ++i) pending.push_back(ids.async_next_id(asio::use_future));
  std::set<std::int64_t> got;
  for (auto& id : pending) got.insert(id.get());
  EXPECT_EQ(got.size(), 25u);
  EXPECT_EQ(*got.begin(), 2);
  EXPECT_EQ(*got.rbegin(), 26);
  EXPECT_EQ(scripts() - before, 2);  // 9 ids left in the first block, then 11..20, 21..30
}

TEST_F(IdGeneratorTest, ObjectOperationsCoverBothKeys) {
  IdGenerator ids(client, "both");
  ids.try_init(1, 10);
  EXPECT_TRUE(ids.expire(60s));
  EXPECT_NE(server.command({"PTTL", "{both}:allocation"}), "-1");
  EXPECT_TRUE(ids.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "both", "{both}:allocation"}), "0");
}

TEST_F(IdGeneratorTest, BadAllocationSizeIsRefusedBeforeSending) {
  IdGenerator ids(client, "bad");
  const auto before = scripts();
  expect_error(
      errc::invalid_argument, [&] { ids.try_init(1, 0); }, "allocation 0");
  expect_error(
      errc::invalid_argument, [&] { ids.try_init(1, -5); }, "allocation -5");
  EXPECT_EQ(scripts(), before);
  EXPECT_EQ(server.command({"EXISTS", "bad"}), "0");
}

TEST_F(IdGeneratorTest, WrongTypeKeyFailsEveryWaiterAndChangesNothing) {
  server.command({"RPUSH", "list", "x"});
  IdGenerator ids(client, "list");
  std::vector<std::future<std::int64_t>> waiting;
  for (int i = 0; i < 3; ++i) waiting.push_back(ids.async_next_id(asio::use_future));
  for (auto& id : waiting) {
    expect_error(
        errc::wrong_type, [&] { id.get(); }, "async next_id");
  }
  EXPECT_EQ(server.command({"LRANGE", "list", "0", "-1"}), "x");
  EXPECT_EQ(server.command({"EXISTS", "{list}:allocation"}), "0");  // checked before writing
  server.command({"DEL", "list"});
  EXPECT_EQ(ids.next_id(), 1);  // the next call asks again
}

TEST_F(IdGeneratorTest, TryInitOnlySetsWhatIsAbsent) {
  server.command({"SET", "taken", "7"});
  IdGenerator ids(client, "taken");
  EXPECT_TRUE(ids.try_init(100, 3));  // Redisson's answer: whether the block size was set
  EXPECT_EQ(server.command({"GET", "taken"}), "7");
  EXPECT_EQ(ids.next_id(), 7);
  EXPECT_FALSE(ids.try_init(100, 3));
}

TEST_F(IdGeneratorTest, TextThatIsNotAnIntegerFailsAndChangesNothing) {
  server.command({"SET", "text", "abc"});
  IdGenerator ids(client, "text");
  expect_error(
      errc::server_error, [&] { ids.next_id(); }, "next_id");
  EXPECT_EQ(server.command({"EXISTS", "{text}:allocation"}), "0");
}

TEST_F(IdGeneratorTest, ZeroBlockSizeInRedisIsAnError) {
  server.command({"SET", "zero", "1"});
  server.command({"SET", "{zero}:allocation", "0"});
  IdGenerator ids(client, "zero");
  expect_error(
      errc::wrong_type, [&] { ids.next_id(); }, "next_id with block size 0");
}

}  // namespace

}  // namespace objects_id_generator_test
