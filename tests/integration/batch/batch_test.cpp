// Batch on a real redis-server: Java Redisson's batch cases replayed (same objects, names and
// values; the bytes stored and the commands MONITOR saw compared with Java's), results in call
// order and in each operation's own future, the refusals (blocking forms, waiting operations,
// a second execute), discard, skip_result, WAIT, a server error inside MULTI/EXEC, and a batch
// of a thousand operations.
#include "redisson/batch.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/codec.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "redisson/objects/blocking_queue.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/buckets.hpp"
#include "redisson/objects/geo.hpp"
#include "redisson/objects/keys.hpp"
#include "redisson/objects/list.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/reliable_topic.hpp"
#include "redisson/objects/scripts.hpp"
#include "redisson/objects/topic.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/monitor.hpp"
#include "support/server_test.hpp"

namespace batch_batch_test {
namespace {

using namespace std::chrono_literals;
using redisson::AtomicLong;
using redisson::Batch;
using redisson::BatchMode;
using redisson::BatchOptions;
using redisson::Bucket;
using redisson::CodecPtr;
using redisson::errc;
using redisson::List;
using redisson::Map;
using redisson::Reply;
using redisson::test::expect_error;
using redisson::test::java_sent_commands;
using redisson::test::java_service_case;
using redisson::test::java_service_dump_entry;
using redisson::test::Monitor;
using redisson::test::sent_by_clients;
using redisson::test::SentCommands;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

using StringMap = Map<std::string, std::string>;

class BatchTest : public redisson::test::ServerTest {
 protected:
  // The bytes stored under `key`, as the services dump.json writes them.
  std::string string_hex(const std::string& key) { return to_hex(server.command({"GET", key})); }
  std::string dump_string_hex(const std::string& key) {
    return java_service_dump_entry(key).at("content").at("hex").get<std::string>();
  }
  std::string hash_hex(const std::string& key) {
    const auto text = server.command({"HGETALL", key});
    const auto cut = text.find('\n');
    return to_hex(text.substr(0, cut)) + "=" + to_hex(text.substr(cut + 1));
  }
  std::string dump_hash_hex(const std::string& key) {
    const auto& pair = java_service_dump_entry(key).at("content").at(0);
    return pair.at(0).at("hex").get<std::string>() + "=" + pair.at(1).at("hex").get<std::string>();
  }

  // Java's case `name`: bucket set, map put, counter increment, list add, map get; replayed
  // with the same names and values, then compared with what Java stored and sent.
  void replay_java_case(const std::string& name, CodecPtr codec, BatchOptions options) {
    const std::string key = java_service_case(name).at("key").get<std::string>();
    Monitor monitor(server);
    Batch batch(client, options);
    auto bucket = batch.get<Bucket<std::string>>(key + ":bucket", codec);
    auto map = batch.get<StringMap>(key + ":map", codec);
    auto counter = batch.get<AtomicLong>(key + ":counter");
    auto list = batch.get<List<std::string>>(key + ":list", codec);
    auto set = bucket.async_set("v", asio::use_future);
    auto put = map.async_put("k", "v", asio::use_future);
    auto incremented = counter.async_increment_and_get(asio::use_future);
    auto added = list.async_add("a", asio::use_future);
    auto got = map.async_get("k", asio::use_future);
    EXPECT_EQ(batch.size(), 5U);

    const auto result = batch.execute();
    SentCommands ours = sent_by_clients(monitor.take(server));

    if (options.skip_result) {
      EXPECT_TRUE(result.responses.empty());
      // No reply, so no result (Java leaves these futures never completed).
      expect_error(
          errc::not_supported, [&] { set.get(); }, "set");
      expect_error(
          errc::not_supported, [&] { got.get(); }, "get");
    } else {
      set.get();
      EXPECT_EQ(put.get(), std::nullopt);  // Java: null (no previous value)
      EXPECT_EQ(incremented.get(), 1);
      EXPECT_EQ(added.get(), 1);  // Java: true
      EXPECT_EQ(got.get(), std::optional<std::string>("v"));
      ASSERT_EQ(result.responses.size(), 5U);  // one per command, in call order
      EXPECT_EQ(result.responses[0].str, "OK");
      EXPECT_TRUE(result.responses[1].is_null());
      EXPECT_EQ(result.responses[2].integer, 1);
      EXPECT_EQ(result.responses[3].integer, 1);
      EXPECT_EQ(result.responses[4].str, server.command({"HGET", key + ":map", from_k(codec)}));
    }
    EXPECT_EQ(result.synced_replicas, 0);

    // The bytes Java stored.
    EXPECT_EQ(string_hex(key + ":bucket"), dump_string_hex(key + ":bucket"));
    EXPECT_EQ(string_hex(key + ":counter"), dump_string_hex(key + ":counter"));
    EXPECT_EQ(hash_hex(key + ":map"), dump_hash_hex(key + ":map"));
    EXPECT_EQ(to_hex(server.command({"LINDEX", key + ":list", "0"})),
              java_service_dump_entry(key + ":list").at("content").at(0).at("hex"));

    // The commands Java sent, byte for byte but for two differences of the objects that are
    // not the batch's: the library's map put script is its own (another SHA: the same Lua with
    // its header comment), and AtomicLong increments with INCRBY 1 where Java sends INCR.
    // Java's run had loaded its script in an earlier case; this fresh server had not, so ours
    // loads it first, before the batch (as Java did in its first batch case).
    SentCommands java = java_sent_commands(name);
    ASSERT_FALSE(ours.empty());
    EXPECT_EQ(ours.front().at(0), "SCRIPT");
    EXPECT_EQ(ours.front().at(1), "LOAD");
    ours.erase(ours.begin());
    if (!java.empty() && java.front().at(0) == "SCRIPT") java.erase(java.begin());
    EXPECT_EQ(same_objects_commands(ours), same_objects_commands(java));
  }

  // `commands` with the EVALSHA's SHA masked and INCRBY k 1 written as INCR k.
  static SentCommands same_objects_commands(SentCommands commands) {
    for (auto& command : commands) {
      if (command.at(0) == "EVALSHA") command.at(1) = "<sha>";
      if (command.at(0) == "INCRBY" && command.size() == 3 && command[2] == "1") {
        command = {"INCR", command[1]};
      }
    }
    return commands;
  }

  // The stored bytes of the map key "k" in `codec`, for HGET.
  static std::string from_k(const CodecPtr& codec) {
    return codec->map_key_codec().encode(redisson::to_value(std::string("k")));
  }
};

TEST_F(BatchTest, InMemoryKryoReplaysJavaCommandsAndBytes) {
  replay_java_case("batch_inmemory_kryo", codecs::kryo5(), BatchOptions{});
}

TEST_F(BatchTest, InMemoryStringReplaysJavaCommandsAndBytes) {
  replay_java_case("batch_inmemory_string", codecs::string(), BatchOptions{});
}

TEST_F(BatchTest, AtomicKryoSendsMultiExecAsJava) {
  replay_java_case("batch_atomic_kryo", codecs::kryo5(),
                   BatchOptions{}.execution_mode(BatchMode::in_memory_atomic));
}

TEST_F(BatchTest, AtomicStringSendsMultiExecAsJava) {
  replay_java_case("batch_atomic_string", codecs::string(),
                   BatchOptions{}.execution_mode(BatchMode::in_memory_atomic));
}

TEST_F(BatchTest, SkipResultWrapsInClientReplyOffOnAsJava) {
  replay_java_case("batch_inmemory_skipresult_kryo", codecs::kryo5(), BatchOptions{}.skip());
}

TEST_F(BatchTest, AtomicSkipResultWrapsMultiExecInClientReplyOffOnAsJava) {
  replay_java_case("batch_atomic_skipresult_kryo", codecs::kryo5(),
                   BatchOptions{}.execution_mode(BatchMode::in_memory_atomic).skip());
}

TEST_F(BatchTest, KnownScriptIsNotLoadedAgain) {
  for (int round = 0; round < 2; ++round) {
    Monitor monitor(server);
    Batch batch(client);
    auto map = batch.get<StringMap>("map");
    auto put = map.async_put("k", std::to_string(round), asio::use_future);
    batch.execute();
    EXPECT_EQ(put.get().has_value(), round == 1);
    const auto sent = sent_by_clients(monitor.take(server));
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.front().at(0) == "SCRIPT", round == 0) << "round " << round;
    EXPECT_EQ(sent.back().at(0), "EVALSHA");
  }
}

TEST_F(BatchTest, ServerErrorInsideAtomicBatchFailsThatOperationOnly) {
  client.execute(redisson::Command{"SET", "text", "not a number"});
  Batch batch(client, BatchOptions{}.execution_mode(BatchMode::in_memory_atomic));
  auto before = batch.get<Bucket<std::string>>("before", codecs::string());
  auto broken = batch.get<AtomicLong>("text");
  auto after = batch.get<Bucket<std::string>>("after", codecs::string());
  auto first = before.async_set("1", asio::use_future);
  auto failing = broken.async_increment_and_get(asio::use_future);
  auto last = after.async_set("2", asio::use_future);
  try {
    batch.execute();
    ADD_FAILURE() << "execute: no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::server_error);
    EXPECT_NE(std::string(e.what()).find("command 2 (INCRBY)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not an integer"), std::string::npos) << e.what();
  }
  first.get();
  expect_error(
      errc::server_error, [&] { failing.get(); }, "INCR of text");
  last.get();
  // Redis transactions do not roll back: the others ran.
  EXPECT_EQ(server.command({"GET", "before"}), "1");
  EXPECT_EQ(server.command({"GET", "after"}), "2");
}

TEST_F(BatchTest, InMemoryServerErrorLeavesTheOthersAndFailsExecute) {
  client.execute(redisson::Command{"SET", "text", "x"});
  Batch batch(client);
  auto broken = batch.get<AtomicLong>("text");
  auto counter = batch.get<AtomicLong>("counter");
  auto failing = broken.async_increment_and_get(asio::use_future);
  auto ok = counter.async_increment_and_get(asio::use_future);
  expect_error(
      errc::server_error, [&] { batch.execute(); }, "execute");
  expect_error(
      errc::server_error, [&] { failing.get(); }, "INCR of text");
  EXPECT_EQ(ok.get(), 1);
}

TEST_F(BatchTest, DiscardFailsEveryQueuedOperationAndSendsNothing) {
  Monitor monitor(server);
  Batch batch(client);
  auto bucket = batch.get<Bucket<std::string>>("dropped", codecs::string());
  auto set = bucket.async_set("v", asio::use_future);
  auto got = bucket.async_get(asio::use_future);
  batch.discard();
  expect_error(
      errc::invalid_argument, [&] { set.get(); }, "set");
  expect_error(
      errc::invalid_argument, [&] { got.get(); }, "get");
  expect_error(
      errc::invalid_argument, [&] { batch.execute(); }, "execute after discard");
  EXPECT_TRUE(sent_by_clients(monitor.take(server)).empty());
  EXPECT_EQ(server.command({"EXISTS", "dropped"}), "0");
}

TEST_F(BatchTest, DroppedWithoutExecuteFailsItsOperations) {
  std::future<void> set;
  {
    Batch batch(client);
    auto bucket = batch.get<Bucket<std::string>>("never", codecs::string());
    set = bucket.async_set("v", asio::use_future);
  }
  expect_error(
      errc::invalid_argument, [&] { set.get(); }, "set of a dropped batch");
  EXPECT_EQ(server.command({"EXISTS", "never"}), "0");
}

TEST_F(BatchTest, ExecutesOnce) {
  Batch batch(client);
  auto counter = batch.get<AtomicLong>("once");
  auto first = counter.async_increment_and_get(asio::use_future);
  batch.execute();
  EXPECT_EQ(first.get(), 1);
  expect_error(
      errc::invalid_argument, [&] { batch.execute(); }, "second execute");
  // An operation queued after execute() is refused, not sent outside the batch.
  auto late = counter.async_increment_and_get(asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { late.get(); }, "late operation");
  EXPECT_EQ(server.command({"GET", "once"}), "1");
}

TEST_F(BatchTest, BlockingFormOfBoundObjectFailsAtOnceAndQueuesNothing) {
  Batch batch(client);
  auto bucket = batch.get<Bucket<std::string>>("b", codecs::string());
  expect_error(
      errc::invalid_argument, [&] { bucket.set("v"); }, "blocking set");
  expect_error(
      errc::invalid_argument, [&] { (void)bucket.get(); }, "blocking get");
  expect_error(
      errc::invalid_argument, [&] { bucket.rename("c"); }, "rename");
  EXPECT_EQ(batch.size(), 0U);
  EXPECT_EQ(batch.execute().responses.size(), 0U);
}

// Redisson's batch.getTopic / getReliableTopic / getScript / getBuckets: the same handle types,
// bound to the batch, their commands queued with the others.
TEST_F(BatchTest, TopicsScriptsAndBucketsAreQueuedInTheBatch) {
  Batch batch(client);
  auto topic = batch.get<redisson::Topic<std::string>>("news", codecs::string());
  auto reliable = batch.get<redisson::ReliableTopic<std::string>>("audit", codecs::string());
  auto scripts = batch.get<redisson::Scripts>(codecs::string());
  auto buckets = batch.get<redisson::Buckets>(codecs::string());
  auto published = topic.async_publish("hello", asio::use_future);
  auto kept = reliable.async_publish("entry", asio::use_future);
  auto size = reliable.async_size(asio::use_future);
  auto echoed = scripts.async_eval<redisson::returns::Value<std::string>>(
      redisson::ScriptMode::read_only, "return ARGV[1]", {}, std::vector<std::string>{"echo"},
      asio::use_future);
  auto set = buckets.async_set(std::map<std::string, std::string>{{"x", "1"}, {"y", "2"}},
                               asio::use_future);
  auto got = buckets.async_get<std::string>({"x", "y"}, asio::use_future);
  EXPECT_EQ(batch.size(), 6U) << "queued, nothing sent yet";
  EXPECT_EQ(server.command({"EXISTS", "audit"}), "0");
  const auto result = batch.execute();
  EXPECT_EQ(result.responses.size(), 6U);
  EXPECT_EQ(published.get(), 0) << "nobody subscribed";
  EXPECT_EQ(kept.get(), 0);
  EXPECT_EQ(size.get(), 1);
  EXPECT_EQ(echoed.get(), "echo");
  set.get();
  EXPECT_EQ(got.get().size(), 2U);

  // What does not belong in a batch is refused at once.
  Batch other(client);
  auto bound = other.get<redisson::Topic<std::string>>("news", codecs::string());
  auto listening =
      bound.async_add_listener([](std::string_view, const std::string&) {}, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { listening.get(); }, "a topic listener");
  auto reliable_listening =
      other.get<redisson::ReliableTopic<std::string>>("audit").async_add_listener(
          [](std::string_view, const std::string&) {}, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { reliable_listening.get(); }, "a reliable listener");
  auto flushed = other.get<redisson::Scripts>().async_script_flush(asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { flushed.get(); }, "script_flush");
  EXPECT_EQ(other.size(), 0U);
}

// Redisson's batch.getGeo(): a Geo bound to the batch queues its adds, reads and searches.
TEST_F(BatchTest, GeoOperationsAreQueuedInTheBatch) {
  Batch batch(client);
  auto geo = batch.get<redisson::Geo<std::string>>("sicily", codecs::string());
  auto added =
      geo.async_add(std::vector<redisson::GeoEntry<std::string>>{{13.361389, 38.115556, "Palermo"},
                                                                 {15.087269, 37.502669, "Catania"}},
                    asio::use_future);
  auto distance =
      geo.async_dist("Palermo", "Catania", redisson::GeoUnit::kilometers, asio::use_future);
  auto near = geo.async_search(
      redisson::GeoSearchArgs<std::string>::from(15, 37).radius(200, redisson::GeoUnit::kilometers),
      asio::use_future);
  EXPECT_EQ(batch.size(), 3U) << "queued, nothing sent yet";
  EXPECT_EQ(server.command({"EXISTS", "sicily"}), "0");
  batch.execute();
  EXPECT_EQ(added.get(), 2);
  const auto km = distance.get();
  ASSERT_TRUE(km.has_value());
  EXPECT_NEAR(*km, 166.27, 0.01);
  EXPECT_EQ(near.get().size(), 2U);
}

// Redisson's batch.getKeys(): the key-by-name operations are queued; those over every master
// (or in several steps) are refused at once and send nothing.
TEST_F(BatchTest, KeysByNameAreQueuedAndWholeDataSetOperationsRefused) {
  server.command({"SET", "k:a", "1"});
  server.command({"SET", "k:b", "2"});
  server.command({"PEXPIRE", "k:b", "60000"});
  server.command({"HSET", "k:h", "f", "v"});
  Batch batch(client);
  auto keys = batch.get<redisson::Keys>();
  auto exists = keys.async_count_exists({"k:a", "k:b", "k:none"}, asio::use_future);
  auto type = keys.async_get_type("k:h", asio::use_future);
  auto ttl = keys.async_remaining_time_to_live("k:b", asio::use_future);
  auto deleted = keys.async_delete_keys({"k:a", "k:none"}, asio::use_future);
  auto unlinked = keys.async_unlink({"k:h"}, asio::use_future);
  EXPECT_EQ(batch.size(), 5U) << "queued, nothing sent yet";
  EXPECT_EQ(server.command({"EXISTS", "k:a"}), "1");
  const auto result = batch.execute();
  EXPECT_EQ(result.responses.size(), 5U);
  EXPECT_EQ(exists.get(), 2);
  EXPECT_EQ(type.get(), redisson::KeyType::hash);
  const auto left = ttl.get();
  EXPECT_GT(left, 50s);
  EXPECT_LE(left, 60s);
  EXPECT_EQ(deleted.get(), 1);
  EXPECT_EQ(unlinked.get(), 1);
  EXPECT_EQ(server.command({"EXISTS", "k:a", "k:h"}), "0");

  Batch other(client);
  auto bound = other.get<redisson::Keys>();
  auto count = bound.async_count(asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { count.get(); }, "count");
  auto flushed = bound.async_flushdb(redisson::Keys::confirm_flush, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { flushed.get(); }, "flushdb");
  auto by_pattern = bound.async_delete_by_pattern("k:*", asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { by_pattern.get(); }, "delete_by_pattern");
  auto random = bound.async_random_key(asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { random.get(); }, "random_key");
  auto scan = bound.scan();
  auto page = scan.async_next_batch(asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { page.get(); }, "scan");
  EXPECT_EQ(other.size(), 0U);
  EXPECT_EQ(server.command({"EXISTS", "k:b"}), "1") << "nothing was flushed";
  EXPECT_THROW((void)other.get<redisson::Keys>(codecs::string()), redisson::error)
      << "Keys takes no codec";
}

TEST_F(BatchTest, WaitingOperationIsRefusedBeforeAnythingIsSent) {
  Batch batch(client);
  auto queue = batch.get<redisson::BlockingQueue<std::string>>("q", codecs::string());
  auto taken = queue.async_poll(50ms, asio::use_future);
  expect_error(
      errc::invalid_argument, [&] { taken.get(); }, "poll with a wait");
  EXPECT_EQ(batch.size(), 0U);
}

TEST_F(BatchTest, SyncReplicasSendsWaitAfterTheBatchAndFailsWhenTooFewAcknowledged) {
  Monitor monitor(server);
  Batch batch(client, BatchOptions{}.sync(1, 20ms));
  auto bucket = batch.get<Bucket<std::string>>("synced", codecs::string());
  auto set = bucket.async_set("v", asio::use_future);
  // A server without replicas: the WAIT counts 0 of 1. The SET ran and has its own result,
  // but execute() does not pass that off as the acknowledged write asked for.
  expect_error(
      errc::not_replicated, [&] { batch.execute(); }, "execute() with 0 of 1 replicas");
  set.get();
  const auto sent = sent_by_clients(monitor.take(server));
  EXPECT_EQ(server.command({"GET", "synced"}), "v");
  ASSERT_EQ(sent.size(), 2U);
  EXPECT_EQ(sent[0].at(0), "SET");
  EXPECT_EQ(sent[1], (std::vector<std::string>{"WAIT", "1", "20"}));
}

TEST_F(BatchTest, RefusedByABusyServerIsSentAgainAndRunsOnce) {
  // A script of another client keeps the server busy for a second; meanwhile the server
  // refuses every command with BUSY without running it, so the batch is sent again.
  server.command({"CONFIG", "SET", "lua-time-limit", "10"});
  std::thread busy([&] {
    server.command({"EVAL",
                    "local t0 = redis.call('TIME') "
                    "local start = tonumber(t0[1]) * 1000000 + tonumber(t0[2]) "
                    "while true do local t = redis.call('TIME') "
                    "if tonumber(t[1]) * 1000000 + tonumber(t[2]) - start > 1000000 then break end "
                    "end return 1",
                    "0"});
  });
  ASSERT_TRUE(
      redisson::test::eventually([&] { return server.command({"PING"}).starts_with("BUSY"); }));
  Batch batch(client, BatchOptions{}.timeout(10s).retries(50, 100ms));
  auto counter = batch.get<AtomicLong>("busy-counter");
  auto incremented = counter.async_increment_and_get(asio::use_future);
  const auto result = batch.execute();
  busy.join();
  EXPECT_EQ(incremented.get(), 1);
  ASSERT_EQ(result.responses.size(), 1U);
  EXPECT_EQ(server.command({"GET", "busy-counter"}), "1");
}

TEST_F(BatchTest, ThousandMixedOperationsCompleteInCallOrder) {
  Batch batch(client);
  std::vector<std::future<std::int64_t>> increments;
  std::vector<std::future<std::optional<std::string>>> puts;
  std::vector<std::future<void>> sets;
  auto counter = batch.get<AtomicLong>("n");
  auto map = batch.get<StringMap>("m", codecs::string());
  for (int i = 0; i < 1000; ++i) {
    if (i % 3 == 0) {
      increments.push_back(counter.async_increment_and_get(asio::use_future));
    } else if (i % 3 == 1) {
      puts.push_back(map.async_put("k", std::to_string(i), asio::use_future));
    } else {
      auto bucket = batch.get<Bucket<std::string>>("b" + std::to_string(i), codecs::string());
      sets.push_back(bucket.async_set(std::to_string(i), asio::use_future));
    }
  }
  const auto result = batch.execute();
  ASSERT_EQ(result.responses.size(), 1000U);
  for (std::size_t i = 0; i < increments.size(); ++i) {
    EXPECT_EQ(increments[i].get(), static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(result.responses[i * 3].integer, static_cast<std::int64_t>(i + 1));
  }
  // Each put sees the previous one's value: they ran in call order.
  EXPECT_EQ(puts.front().get(), std::nullopt);
  for (std::size_t i = 1; i < puts.size(); ++i) {
    EXPECT_EQ(puts[i].get(), std::optional<std::string>(std::to_string(3 * (i - 1) + 1)));
  }
  for (auto& set : sets) set.get();
  EXPECT_EQ(server.command({"GET", "b998"}), "998");
}

}  // namespace
}  // namespace batch_batch_test
