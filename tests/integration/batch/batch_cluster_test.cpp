// Batch on a real Redis Cluster (3 masters, started once for the suite): an in_memory batch
// spanning every master runs each master's group and returns the replies in call order; an
// atomic batch whose keys are on several masters is refused before anything is sent; an atomic
// batch under one hash tag runs as MULTI/EXEC on its master; commands answered MOVED or ASK (a
// slot moved or moving) are sent again where the slot went.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "redisson/batch.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/keys.hpp"
#include "support/client_config.hpp"
#include "support/cluster_suite.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace batch_batch_cluster_test {
namespace {

using namespace std::chrono_literals;
using redisson::AtomicLong;
using redisson::Batch;
using redisson::BatchMode;
using redisson::BatchOptions;
using redisson::Bucket;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::expect_error;
using redisson::test::RedisCluster;
using redisson::test::with_settings;
namespace codecs = redisson::codecs;

class BatchOnCluster : public redisson::test::ClusterSuite {};

TEST_F(BatchOnCluster, InMemoryBatchSpanningEveryMasterReturnsRepliesInCallOrder) {
  Batch batch(client());
  std::vector<std::future<void>> sets;
  std::vector<std::future<std::int64_t>> increments;
  std::set<int> masters;
  for (int i = 0; i < 30; ++i) {
    const auto key = "spread:" + std::to_string(i);
    masters.insert(master_of(key));
    sets.push_back(batch.get<Bucket<std::string>>(key, codecs::string())
                       .async_set("v" + std::to_string(i), asio::use_future));
    increments.push_back(batch.get<AtomicLong>("count:" + std::to_string(i))
                             .async_increment_and_get(asio::use_future));
  }
  ASSERT_EQ(masters.size(), cluster().master_ports().size());  // the batch spans them all
  const auto result = batch.execute();
  ASSERT_EQ(result.responses.size(), 60U);
  for (int i = 0; i < 30; ++i) {
    sets[static_cast<std::size_t>(i)].get();
    EXPECT_EQ(increments[static_cast<std::size_t>(i)].get(), 1);
    EXPECT_EQ(result.responses[static_cast<std::size_t>(2 * i)].str, "OK");
    EXPECT_EQ(result.responses[static_cast<std::size_t>(2 * i + 1)].integer, 1);
    const auto key = "spread:" + std::to_string(i);
    EXPECT_EQ(get_on_master(key), "v" + std::to_string(i));
  }
}

// Keys' multi-key operations in a batch: one command per slot, queued in each slot's master's
// group, the counts summed.
TEST_F(BatchOnCluster, KeysSpanningMastersAreCountedAndDeletedPerSlot) {
  std::vector<std::string> names;
  std::set<int> masters;
  for (int i = 0; i < 12; ++i) {
    names.push_back("keys:spread:" + std::to_string(i));
    masters.insert(master_of(names.back()));
    client().execute(redisson::Command{"SET", names.back(), "v"});
  }
  ASSERT_EQ(masters.size(), cluster().master_ports().size());
  Batch batch(client());
  auto keys = batch.get<redisson::Keys>();
  auto exists = keys.async_count_exists(names, asio::use_future);
  auto deleted = keys.async_delete_keys(names, asio::use_future);
  auto after = keys.async_count_exists(names, asio::use_future);
  batch.execute();
  EXPECT_EQ(exists.get(), 12);
  EXPECT_EQ(deleted.get(), 12);
  EXPECT_EQ(after.get(), 0);
  for (const auto& name : names) EXPECT_EQ(get_on_master(name), "(nil)");
}

TEST_F(BatchOnCluster, AtomicBatchSpanningMastersIsRefusedBeforeAnythingIsSent) {
  std::string first = "atomic:a", second;
  for (int i = 0; second.empty(); ++i) {
    const auto key = "atomic:" + std::to_string(i);
    if (master_of(key) != master_of(first)) second = key;
  }
  const auto sets_before = calls_on_masters("set");
  const auto multis_before = calls_on_masters("multi");
  Batch batch(client(), BatchOptions{}.execution_mode(BatchMode::in_memory_atomic));
  auto one =
      batch.get<Bucket<std::string>>(first, codecs::string()).async_set("1", asio::use_future);
  auto two =
      batch.get<Bucket<std::string>>(second, codecs::string()).async_set("2", asio::use_future);
  try {
    batch.execute();
    ADD_FAILURE() << "execute: no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("nothing was sent"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(second), std::string::npos) << e.what();
  }
  expect_error(
      errc::invalid_argument, [&] { one.get(); }, "first set");
  expect_error(
      errc::invalid_argument, [&] { two.get(); }, "second set");
  EXPECT_EQ(calls_on_masters("set"), sets_before);
  EXPECT_EQ(calls_on_masters("multi"), multis_before);
}

TEST_F(BatchOnCluster, AtomicBatchUnderOneHashTagRunsOnItsMaster) {
  const auto exec_before = calls_on_masters("exec");
  Batch batch(client(), BatchOptions{}.execution_mode(BatchMode::in_memory_atomic));
  auto set = batch.get<Bucket<std::string>>("{tag}:value", codecs::string())
                 .async_set("x", asio::use_future);
  auto n = batch.get<AtomicLong>("{tag}:counter").async_increment_and_get(asio::use_future);
  const auto result = batch.execute();
  set.get();
  EXPECT_EQ(n.get(), 1);
  ASSERT_EQ(result.responses.size(), 2U);
  EXPECT_EQ(get_on_master("{tag}:value"), "x");
  EXPECT_EQ(calls_on_masters("exec"), exec_before + 1);
}

// A slot moves after the client learned the slot map (its scan is 10 minutes away): the old master
// answers MOVED to the batch's commands on that slot (a plain one and a script), and during a
// migration ASK; each is sent again where the slot went, and the batch completes in call order
// with every command run once.
TEST_F(BatchOnCluster, CommandsAnsweredMovedOrAskAreSentWhereTheSlotWent) {
  auto config_with_slow_scan = config();
  config_with_slow_scan.cluster->scan_interval = 10min;
  Client stale(config_with_slow_scan);
  const std::string key = "batch:moving";
  const std::string counter = "{batch:moving}:n";
  const std::string other = "batch:staying:1";
  const int slot = redisson::detail::key_slot(key);
  const int source = master_of(key);
  int target = 0;
  for (const int master : cluster().master_ports()) target = master != source ? master : target;
  ASSERT_NE(master_of(other), source);  // a group that is not redirected
  stale.execute(redisson::Command{"SET", key, "before"});
  const auto id_of = [&](int port) { return cluster().command(port, {"CLUSTER", "MYID"}); };
  const auto slot_text = std::to_string(slot);
  const auto migrate = [&](int from, int to, bool finish) {
    cluster().command(to, {"CLUSTER", "SETSLOT", slot_text, "IMPORTING", id_of(from)});
    cluster().command(from, {"CLUSTER", "SETSLOT", slot_text, "MIGRATING", id_of(to)});
    for (const auto& name : {key, counter}) {
      cluster().command(
          from, {"MIGRATE", "127.0.0.1", std::to_string(to), "", "0", "5000", "KEYS", name});
    }
    if (!finish) return;
    for (const int master : cluster().master_ports()) {
      cluster().command(master, {"CLUSTER", "SETSLOT", slot_text, "NODE", id_of(to)});
    }
  };
  const auto run_batch = [&](const std::string& value) {
    Batch batch(stale);
    auto set =
        batch.get<Bucket<std::string>>(key, codecs::string()).async_set(value, asio::use_future);
    auto stay =
        batch.get<Bucket<std::string>>(other, codecs::string()).async_set(value, asio::use_future);
    AtomicLong n = batch.get<AtomicLong>(counter);
    auto cas = n.async_compare_and_set(0, 10, asio::use_future);  // a script
    auto incremented = n.async_increment_and_get(asio::use_future);
    const auto result = batch.execute();
    set.get();
    stay.get();
    EXPECT_TRUE(cas.get());
    EXPECT_EQ(incremented.get(), 11);
    ASSERT_EQ(result.responses.size(), 4U);
    EXPECT_EQ(result.responses[0].str, "OK");
    EXPECT_EQ(result.responses[3].integer, 11);
  };

  // Half-way through a migration (the keys moved, the slot not yet): ASK.
  migrate(source, target, false);
  run_batch("during");
  // The old master has neither key any more (it says ASK for a key it does not have).
  EXPECT_TRUE(cluster().command(source, {"EXISTS", key, counter}).starts_with("ASK "));
  EXPECT_EQ(get_on_master(other), "during");

  // Finished: the old master answers MOVED.
  for (const int master : cluster().master_ports()) {
    cluster().command(master, {"CLUSTER", "SETSLOT", slot_text, "NODE", id_of(target)});
  }
  ASSERT_TRUE(redisson::test::eventually([&] { return master_of(key) == target; }));
  EXPECT_EQ(cluster().command(target, {"GET", key}), "during");
  EXPECT_EQ(cluster().command(target, {"GET", counter}), "11");
  cluster().command(target, {"DEL", counter});
  run_batch("after");
  EXPECT_EQ(cluster().command(target, {"GET", key}), "after");
  EXPECT_EQ(cluster().command(target, {"GET", counter}), "11");

  // Put the slot back so the suite's other tests see the cluster as created.
  migrate(target, source, true);
  ASSERT_TRUE(redisson::test::eventually([&] { return master_of(key) == source; }));
}

}  // namespace
}  // namespace batch_batch_cluster_test
