// The collections on a Redis Cluster (one cluster for the suite): every operation (commands,
// scripts, pipelined HSETs, HSCAN pages, blocking pops on dedicated connections) goes to the
// master of the collection's slot, whichever master that is.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/blocking_queue.hpp"
#include "redisson/objects/geo.hpp"
#include "redisson/objects/list_multimap.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/priority_queue.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/set.hpp"
#include "redisson/objects/set_cache.hpp"
#include "redisson/objects/stream.hpp"
#include "support/client_config.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace collections_collections_cluster_test {

using namespace std::chrono_literals;
using redisson::BlockingQueue;
using redisson::Client;
using redisson::Config;
using redisson::ListMultimap;
using redisson::Map;
using redisson::PriorityBlockingDeque;
using redisson::Stream;
using redisson::StreamMessageId;
using redisson::test::cluster_config_for;
using redisson::test::RedisCluster;
using redisson::test::RedisClusterOptions;
namespace codecs = redisson::codecs;

namespace {

class CollectionsCluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RedisClusterOptions options;
    options.replicas_per_master = 0;
    cluster_ = std::make_unique<RedisCluster>(options);
  }
  static void TearDownTestSuite() { cluster_.reset(); }
  void SetUp() override {
    ASSERT_NE(cluster_, nullptr);
    cluster_->wait_until_ok();
  }
  static Config config() { return cluster_config_for(*cluster_); }
  static inline std::unique_ptr<RedisCluster> cluster_;
  RedisCluster& cluster = *cluster_;
  Client client{config()};
};

TEST_F(CollectionsCluster, MapOperationsReachTheMastersOfTheirSlots) {
  std::set<int> masters;
  for (int i = 0; i < 12; ++i) {
    const auto name = "map:" + std::to_string(i);
    Map<std::string, std::string> map(client, name, codecs::string());
    std::map<std::string, std::string> entries;
    for (int k = 0; k < 30; ++k) entries["k" + std::to_string(k)] = "v" + std::to_string(k);
    map.put_all(entries);
    EXPECT_EQ(map.put("k0", "w"), "v0");
    EXPECT_EQ(map.remove("k1"), "v1");
    EXPECT_TRUE(map.replace("k2", "v2", "x"));
    EXPECT_EQ(map.get_all({"k0", "k2"}),
              (std::map<std::string, std::string>{{"k0", "w"}, {"k2", "x"}}));
    std::map<std::string, std::string> read;
    auto scan = map.entries(7);
    for (const auto& [key, value] : scan) read[key] = value;
    EXPECT_EQ(read.size(), 29u);
    EXPECT_TRUE(map.contains_value("x"));
    masters.insert(cluster.master_of_slot(redisson::detail::key_slot(name)));
  }
  EXPECT_EQ(masters.size(), 3u) << "twelve names land on every master";
}

TEST_F(CollectionsCluster, QueuesAndBlockingPopsReachTheMastersOfTheirSlots) {
  Client producer(config());
  std::set<int> masters;
  for (int i = 0; i < 9; ++i) {
    const auto name = "queue:" + std::to_string(i);
    BlockingQueue<std::string> consumer_side(client, name, codecs::string());
    BlockingQueue<std::string> producer_side(producer, name, codecs::string());
    // A take waiting on its master's dedicated connection, answered by the other client.
    auto taken = consumer_side.async_take(asio::use_future);
    producer_side.offer("a" + std::to_string(i));
    producer_side.offer("b" + std::to_string(i));
    EXPECT_EQ(taken.get(), "a" + std::to_string(i));
    EXPECT_EQ(consumer_side.poll(1s), "b" + std::to_string(i));
    EXPECT_EQ(consumer_side.poll(50ms), std::nullopt);
    producer_side.add_all({"x", "y", "z"});
    EXPECT_EQ(producer_side.range(0, -1), (std::vector<std::string>{"x", "y", "z"}));
    std::vector<std::string> read;
    for (const auto& value : producer_side.values(2)) read.push_back(value);
    EXPECT_EQ(read.size(), 3u);
    const int master = cluster.master_of_slot(redisson::detail::key_slot(name));
    EXPECT_EQ(cluster.command(master, {"LLEN", name}), "3");
    masters.insert(master);
  }
  EXPECT_EQ(masters.size(), 3u) << "nine names land on every master";
  // Several queues in one poll: one slot (a {tag}) works; queues in other slots are refused.
  BlockingQueue<std::string> tagged(client, "{jobs}a", codecs::string());
  BlockingQueue<std::string>(producer, "{jobs}b", codecs::string()).offer("j");
  const auto got = tagged.poll_from_any(1s, {"{jobs}b"});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->first, "{jobs}b");
  try {
    tagged.poll_from_any(100ms, {"elsewhere"});
    ADD_FAILURE() << "a poll over two slots was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::server_error);
    EXPECT_NE(std::string(e.what()).find("CROSSSLOT"), std::string::npos) << e.what();
  }
}

TEST_F(CollectionsCluster, PriorityQueueWaitersTakeOnTheMastersOfTheirSlots) {
  // A waiting take's script names the list and its lock (one slot: the lock is
  // redisson_sortedset_lock:{name}); a move names its destination, in the same slot.
  Client producer(config());
  std::set<int> masters;
  for (int i = 0; i < 6; ++i) {
    const auto name = "pq:" + std::to_string(i);
    PriorityBlockingDeque<std::string> waiting(client, name, codecs::string());
    auto taken = waiting.async_take_last(asio::use_future);
    PriorityBlockingDeque<std::string> offering(producer, name, codecs::string());
    offering.add("c");
    EXPECT_EQ(taken.get(), "c") << name;
    offering.add_all({"b", "a"});
    EXPECT_EQ(waiting.poll(1s), "a");
    EXPECT_EQ(waiting.read_all(), std::vector<std::string>{"b"});
    masters.insert(cluster.master_of_slot(redisson::detail::key_slot(name)));
  }
  EXPECT_GT(masters.size(), 1U) << "the names spread over several masters";
  PriorityBlockingDeque<std::string> tagged(client, "{pm}src", codecs::string());
  tagged.add_all({"x", "y"});
  EXPECT_EQ(tagged.take_last_and_offer_first_to("{pm}dst"), "y");
  EXPECT_EQ(tagged.poll_last_and_offer_first_to("{pm}dst", 1s), "x");
  EXPECT_EQ(cluster.command(cluster.master_of_slot(redisson::detail::key_slot("{pm}dst")),
                            {"LRANGE", "{pm}dst", "0", "-1"}),
            "x\ny");
}

TEST_F(CollectionsCluster, SetAlgebraWithinAHashTagAndRefusedAcrossSlots) {
  redisson::Set<std::string> set(client, "{cl:sets}:a", codecs::string());
  redisson::Set<std::string> other(client, "{cl:sets}:b", codecs::string());
  set.add_all({"1", "2"});
  other.add_all({"2", "3"});
  EXPECT_EQ(set.count_intersection({"{cl:sets}:b"}), 1);
  EXPECT_EQ(set.store_union({"{cl:sets}:a", "{cl:sets}:b"}), 3);
  EXPECT_TRUE(set.retain_all({"1", "3"}));  // its temporary set shares the slot too
  EXPECT_EQ(set.size(), 2);
  try {
    (void)set.read_union({"cl:sets:elsewhere"});
    ADD_FAILURE() << "read_union across slots was accepted";
  } catch (const redisson::error& failure) {
    EXPECT_EQ(failure.code(), redisson::errc::invalid_argument);
    EXPECT_NE(std::string(failure.what()).find("hash slot"), std::string::npos) << failure.what();
  }
  EXPECT_EQ(set.size(), 2);
}

TEST_F(CollectionsCluster, ScoredSortedSetAlgebraWithinAHashTagAndRefusedAcrossSlots) {
  redisson::ScoredSortedSet<std::string> set(client, "{cl:zsets}:a", codecs::string());
  redisson::ScoredSortedSet<std::string> other(client, "{cl:zsets}:b", codecs::string());
  set.add_all({{1, "1"}, {2, "2"}});
  other.add_all({{2, "2"}, {3, "3"}});
  EXPECT_EQ(set.count_intersection({"{cl:zsets}:b"}), 1);
  EXPECT_EQ(set.read_union({"{cl:zsets}:b"}), (std::vector<std::string>{"1", "3", "2"}));
  EXPECT_EQ(set.store_union({"{cl:zsets}:a", "{cl:zsets}:b"}), 3);
  EXPECT_EQ(set.range_to("{cl:zsets}:c", 0, 0), 1);
  EXPECT_TRUE(set.retain_all({"1", "3"}));  // its temporary set shares the slot too
  EXPECT_EQ(set.size(), 2);
  for (const auto& [what, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"read_union", [&] { (void)set.read_union({"cl:zsets:elsewhere"}); }},
           {"intersection",
            [&] {
              set.store_intersection({"{cl:zsets}:b", "cl:zsets:elsewhere"});
            }},
           {"range_to", [&] { set.range_to("cl:zsets:elsewhere", 0, -1); }}}) {
    try {
      call();
      ADD_FAILURE() << what << " across slots was accepted";
    } catch (const redisson::error& failure) {
      EXPECT_EQ(failure.code(), redisson::errc::invalid_argument) << what;
      EXPECT_NE(std::string(failure.what()).find("hash slot"), std::string::npos) << failure.what();
    }
  }
  EXPECT_EQ(set.size(), 2);
}

TEST_F(CollectionsCluster, GeoSearchStoresWithinAHashTagAndAreRefusedAcrossSlots) {
  using Args = redisson::GeoSearchArgs<std::string>;
  redisson::Geo<std::string> geo(client, "{cl:geo}:a", codecs::string());
  EXPECT_EQ(geo.add({{13.361389, 38.115556, "Palermo"}, {15.087269, 37.502669, "Catania"}}), 2);
  const auto around = Args::from(15, 37).radius(200, redisson::GeoUnit::kilometers);
  EXPECT_EQ(geo.search(around).size(), 2U);
  EXPECT_EQ(geo.store_search_to("{cl:geo}:near", around), 2);
  EXPECT_EQ(geo.store_sorted_search_to(
                "{cl:geo}:box", Args::from("Palermo").box(400, 400, redisson::GeoUnit::kilometers)),
            2);
  EXPECT_EQ(redisson::Geo<std::string>(client, "{cl:geo}:near", codecs::string()).size(), 2);
  EXPECT_EQ(redisson::Geo<std::string>(client, "{cl:geo}:box", codecs::string()).size(), 2);
  const std::string elsewhere = "cl:geo:elsewhere";
  ASSERT_NE(redisson::detail::key_slot(elsewhere), redisson::detail::key_slot("{cl:geo}:a"));
  for (const auto& [what, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"store_search_to", [&] { geo.store_search_to(elsewhere, around); }},
           {"store_sorted_search_to", [&] {
              geo.store_sorted_search_to(
                  elsewhere, Args::from(15, 37).box(400, 400, redisson::GeoUnit::kilometers));
            }}}) {
    try {
      call();
      ADD_FAILURE() << what << " across slots was accepted";
    } catch (const redisson::error& failure) {
      EXPECT_EQ(failure.code(), redisson::errc::invalid_argument) << what;
      EXPECT_NE(std::string(failure.what()).find("hash slot"), std::string::npos) << failure.what();
    }
  }
  EXPECT_FALSE(redisson::Geo<std::string>(client, elsewhere, codecs::string()).exists());
}

TEST_F(CollectionsCluster, SetCacheAlgebraWithinAHashTagAndRefusedAcrossSlots) {
  using namespace std::chrono_literals;
  redisson::SetCache<std::string> cache(client, "{cl:caches}:a", codecs::string());
  redisson::SetCache<std::string> other(client, "{cl:caches}:b", codecs::string());
  cache.add_all({"1", "2"});
  other.add_all({"2", "3"}, 1h);
  EXPECT_EQ(cache.count_intersection({"{cl:caches}:b"}), 1);
  EXPECT_EQ(cache.read_diff({"{cl:caches}:b"}), (std::vector<std::string>{"1"}));
  EXPECT_EQ(cache.store_union({"{cl:caches}:a", "{cl:caches}:b"}), 3);
  EXPECT_TRUE(cache.random().has_value());  // its scratch zset shares the slot too
  EXPECT_TRUE(cache.retain_all({"1", "3"}));
  EXPECT_EQ(cache.size(), 2);
  EXPECT_TRUE(cache.move("{cl:caches}:c", "3"));
  EXPECT_TRUE(cache.add("3"));
  for (const auto& [what, call] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"read_union", [&] { (void)cache.read_union({"cl:caches:elsewhere"}); }},
           {"store_intersection",
            [&] {
              cache.store_intersection({"{cl:caches}:b", "cl:caches:elsewhere"});
            }},
           {"count_intersection", [&] { (void)cache.count_intersection({"cl:caches:elsewhere"}); }},
           {"move", [&] { (void)cache.move("cl:caches:elsewhere", "1"); }}}) {
    try {
      call();
      ADD_FAILURE() << what << " across slots was accepted";
    } catch (const redisson::error& failure) {
      EXPECT_EQ(failure.code(), redisson::errc::invalid_argument) << what;
      EXPECT_NE(std::string(failure.what()).find("hash slot"), std::string::npos) << failure.what();
    }
  }
  EXPECT_EQ(cache.size(), 2);
}

TEST_F(CollectionsCluster, MultimapScriptsStayInTheSlotOfTheirName) {
  std::set<int> masters;
  for (int i = 0; i < 9; ++i) {
    const auto name = "multimap:" + std::to_string(i);
    ListMultimap<std::string, std::string> multimap(client, name, codecs::string());
    EXPECT_TRUE(multimap.put_all("a", {"1", "2"}));
    EXPECT_TRUE(multimap.put("b", "3"));
    EXPECT_EQ(multimap.size(), 3);
    EXPECT_EQ(multimap.get_all("a"), (std::vector<std::string>{"1", "2"}));
    EXPECT_TRUE(multimap.contains_value("3"));
    const int master = cluster.master_of_slot(redisson::detail::key_slot(name));
    EXPECT_EQ(cluster.command(master, {"LLEN", multimap.values_key("a")}), "2");
    masters.insert(master);
    EXPECT_TRUE(multimap.expire(100s));
    multimap.rename("{" + name + "}:renamed");
    EXPECT_EQ(multimap.get_all("b"), (std::vector<std::string>{"3"}));
    const auto a_values = multimap.values_key("a");
    const auto b_values = multimap.values_key("b");
    EXPECT_TRUE(multimap.delete_object());
    EXPECT_EQ(cluster.command(master, {"EXISTS", multimap.name(), a_values, b_values}), "0");
  }
  EXPECT_EQ(masters.size(), 3u) << "nine names land on every master";
  ListMultimap<std::string, std::string> elsewhere(client, "multimap:x", codecs::string());
  elsewhere.put("a", "1");
  try {
    elsewhere.rename("another-slot");
    ADD_FAILURE() << "a rename across slots was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), redisson::errc::invalid_argument) << e.what();
  }
}

TEST_F(CollectionsCluster, StreamsAndTheirGroupsReachTheMastersOfTheirSlots) {
  Client producer(config());
  std::set<int> masters;
  for (int i = 0; i < 9; ++i) {
    const auto name = "stream:" + std::to_string(i);
    Stream<std::string, std::string> consumer_side(client, name, codecs::string());
    Stream<std::string, std::string> producer_side(producer, name, codecs::string());
    consumer_side.create_group("g", StreamMessageId::newest(), true);  // XGROUP CREATE key ...
    // Waiting reads on their master's dedicated connection, answered by the other client (from
    // 0-0 on the empty stream, so the add may come before or after the read starts).
    auto read = consumer_side.async_read(StreamMessageId{}, 10, 30s, asio::use_future);
    auto grouped = consumer_side.async_read_group("g", "c", StreamMessageId::never_delivered(), 10,
                                                  30s, false, asio::use_future);
    const auto id = producer_side.add({{"n", std::to_string(i)}});
    EXPECT_EQ(read.get().at(0).id, id);
    EXPECT_EQ(grouped.get().at(0).id, id);
    EXPECT_EQ(consumer_side.read(StreamMessageId{}, 10).size(), 1u);  // XREAD ... STREAMS key
    EXPECT_EQ(consumer_side.ack("g", {id}), 1);
    EXPECT_EQ(consumer_side.groups().size(), 1u);  // XINFO GROUPS key
    const int master = cluster.master_of_slot(redisson::detail::key_slot(name));
    EXPECT_EQ(cluster.command(master, {"XLEN", name}), "1");
    masters.insert(master);
  }
  EXPECT_EQ(masters.size(), 3u) << "nine names land on every master";
}

}  // namespace

}  // namespace collections_collections_cluster_test
