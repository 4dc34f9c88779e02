// Batch on a real Redis Cluster (3 masters, started once for the suite): an in_memory batch
// spanning every master runs each master's group and returns the replies in call order; an
// atomic batch whose keys are on several masters is refused before anything is sent; an atomic
// batch under one hash tag runs as MULTI/EXEC on its master.
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
#include "support/client_config.hpp"
#include "support/cluster_suite.hpp"
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

}  // namespace
}  // namespace batch_batch_cluster_test
