// LocalCachedMap against a real redis-server: two instances (in two clients) kept coherent by
// each other's messages, both strategies, the reconnection strategies after a killed
// subscription, clear_local_cache's answers, and Java's message bytes (from the fixtures) read
// and written.
#include "redisson/objects/local_cached_map.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "hash/highway_hash.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/topic.hpp"
#include "redisson/transaction.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace services_local_cached_map_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::LocalCachedMap;
using redisson::LocalCachedMapOptions;
using redisson::LocalCacheReconnection;
using redisson::LocalCacheSync;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::ShutdownAtEnd;
using redisson::test::subscribers_are;
namespace codecs = redisson::codecs;

namespace {

using Cache = LocalCachedMap<std::string, std::string>;

LocalCachedMapOptions with_sync(LocalCacheSync sync) {
  LocalCachedMapOptions options;
  options.sync = sync;
  return options;
}

class LocalCachedMapTest : public redisson::test::ServerTest {
 protected:
  Client other_client{config_for(server)};
  ShutdownAtEnd stop_other{other_client};

  /// Waits until both instances are subscribed, with the map's entries cached.
  static void live(Cache& one, Cache& two) {
    one.preload_cache();
    two.preload_cache();
  }
};

TEST_F(LocalCachedMapTest, ReadsComeFromTheCacheAndWritesReachTheOtherInstance) {
  Cache here(client, "lcm", {}, codecs::string());
  Cache there(other_client, "lcm", {}, codecs::string());
  here.put("k", "v1");
  EXPECT_EQ(there.get("k"), "v1");
  live(here, there);
  EXPECT_EQ(here.get("k"), "v1");
  EXPECT_EQ(there.get("k"), "v1");
  const auto before = there.local_cache_stats();
  EXPECT_EQ(there.get("k"), "v1");
  EXPECT_EQ(there.local_cache_stats().hits, before.hits + 1) << "answered from the cache";
  EXPECT_EQ(there.cached_map(), (std::map<std::string, std::string>{{"k", "v1"}}));

  here.put("k", "v2");  // invalidates `there`'s entry: its next get reads v2
  EXPECT_TRUE(eventually([&] { return there.cached_key_set().empty(); }));
  EXPECT_EQ(there.get("k"), "v2");
  EXPECT_EQ(server.command({"HGET", "lcm", "k"}), "v2") << "the hash is a plain Redisson map";

  here.fast_remove({"k"});
  EXPECT_TRUE(eventually([&] { return there.cached_key_set().empty(); }));
  EXPECT_EQ(there.get("k"), std::nullopt);
}

/// After concurrent writers through both instances stop, every value either cache still holds
/// is the one in Redis: no cache keeps a value older than the last write it heard of.
void expect_coherent_after_concurrent_writes(redisson::test::RedisServer& server, Cache& one,
                                             Cache& two) {
  constexpr int kKeys = 8;
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      Cache& cache = t % 2 == 0 ? one : two;
      for (int i = 0; !stop.load(); ++i) {
        const auto key = "k" + std::to_string((i * 7 + t) % kKeys);
        if (t < 4) {  // two writers per instance: its own writes of one key race too
          // Writers: every kind of write, through either instance.
          const auto value = std::to_string(t) + ":" + std::to_string(i);
          switch (i % 4) {
            case 0:
              cache.put(key, value);
              break;
            case 1:
              cache.fast_put(key, value);
              break;
            case 2:
              cache.put_all({{key, value}});
              break;
            default:
              cache.remove(key);
          }
        } else {
          cache.get(key);  // readers: fill the caches while the writes go on
          cache.get_all({key, "k0"});
        }
      }
    });
  }
  std::this_thread::sleep_for(300ms);  // the writers' run, not a wait for something to happen
  stop = true;
  for (auto& thread : threads) thread.join();
  // Every message one instance published has reached the other once a marker written after
  // them has (one client's messages arrive in the order the server ran its writes).
  two.put("marker", "old");
  one.put("marker2", "old");
  one.put("marker", "new");
  two.put("marker2", "new");
  auto marker_heard = [](Cache& cache, const char* key) {
    const auto cached = cache.cached_map();
    const auto at = cached.find(key);
    return at == cached.end() || at->second == "new";
  };
  ASSERT_TRUE(
      eventually([&] { return marker_heard(two, "marker") && marker_heard(one, "marker2"); }));
  for (Cache* cache : {&one, &two}) {
    for (const auto& [key, value] : cache->cached_map()) {
      EXPECT_EQ(server.command({"HGET", one.name(), key}), value)
          << key << " cached by " << (cache == &one ? "one" : "two") << " of " << one.name();
    }
  }
}

TEST_F(LocalCachedMapTest, ConcurrentWritersLeaveCoherentCaches) {
  Cache one(client, "lcm_race", {}, codecs::string());
  Cache two(other_client, "lcm_race", {}, codecs::string());
  live(one, two);
  expect_coherent_after_concurrent_writes(server, one, two);
  Cache one_u(client, "lcm_race_u", with_sync(LocalCacheSync::update), codecs::string());
  Cache two_u(other_client, "lcm_race_u", with_sync(LocalCacheSync::update), codecs::string());
  live(one_u, two_u);
  expect_coherent_after_concurrent_writes(server, one_u, two_u);
}

TEST_F(LocalCachedMapTest, TheUpdateStrategySendsTheNewValues) {
  Cache here(client, "lcm_u", with_sync(LocalCacheSync::update), codecs::string());
  Cache there(other_client, "lcm_u", with_sync(LocalCacheSync::update), codecs::string());
  EXPECT_EQ(there.get("a"), std::nullopt);
  EXPECT_EQ(here.get("a"), std::nullopt);
  live(here, there);
  here.put_all({{"a", "1"}, {"b", "2"}});
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"a", "1"}, {"b", "2"}};
  })) << "values arrive without a read";
  here.remove("a");  // a removal is an invalidation under update too
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"b", "2"}};
  }));
}

TEST_F(LocalCachedMapTest, EveryMapWritePublishes) {
  Cache here(client, "lcm_ops", {}, codecs::string());
  Cache there(other_client, "lcm_ops", {}, codecs::string());
  here.put("n", "1");
  EXPECT_EQ(there.get("n"), "1");
  live(here, there);
  EXPECT_EQ(there.get("n"), "1");  // cached now
  auto dropped = [&] { return eventually([&] { return there.cached_key_set().count("n") == 0; }); };

  EXPECT_EQ(here.add_and_get("n", 2), 3);
  ASSERT_TRUE(dropped());
  EXPECT_EQ(there.get("n"), "3");
  EXPECT_TRUE(here.replace("n", "3", "4"));
  ASSERT_TRUE(dropped());
  EXPECT_EQ(there.get("n"), "4");
  EXPECT_EQ(here.compute("n",
                         [](const std::string&, const std::optional<std::string>& v) {
                           return std::optional<std::string>(*v + "!");
                         }),
            "4!");
  ASSERT_TRUE(dropped());
  EXPECT_EQ(there.get("n"), "4!");
  EXPECT_EQ(here.put_if_exists("n", "5"), "4!");
  ASSERT_TRUE(dropped());
  EXPECT_EQ(there.get("n"), "5");
  EXPECT_FALSE(here.fast_put_if_absent("n", "6")) << "present: nothing written";
  EXPECT_EQ(there.get("n"), "5");
  EXPECT_EQ(here.remove("n"), "5");
  ASSERT_TRUE(dropped());
  EXPECT_FALSE(there.contains_key("n"));
  EXPECT_EQ(here.get_all({"n", "x"}), (std::map<std::string, std::string>{}));
}

TEST_F(LocalCachedMapTest, AWrongTypeKeyIsRefusedAndNothingIsPublished) {
  server.command({"SET", "lcm_wrong", "text"});
  Cache here(client, "lcm_wrong", {}, codecs::string());
  redisson::test::Messages heard;
  auto subscription = other_client.subscribe("{lcm_wrong}:topic", heard.sink());
  expect_error(errc::wrong_type, [&] { here.put("k", "v"); });
  expect_error(errc::wrong_type, [&] { here.fast_put("k", "v"); });
  EXPECT_EQ(here.cached_map(), (std::map<std::string, std::string>{})) << "nothing stays cached";
  EXPECT_EQ(server.command({"GET", "lcm_wrong"}), "text");
  // A command after them on the same connection: the puts' messages would be here by now.
  expect_error(errc::wrong_type, [&] { here.get("k"); });
  EXPECT_TRUE(heard.get().empty());
}

TEST_F(LocalCachedMapTest, DeleteAndClearLocalCacheReachEveryInstance) {
  Cache here(client, "lcm_clear", {}, codecs::string());
  Cache there(other_client, "lcm_clear", {}, codecs::string());
  here.put_all({{"a", "1"}, {"b", "2"}});
  EXPECT_EQ(there.get("a"), "1");
  live(here, there);
  EXPECT_EQ(there.get("a"), "1");
  EXPECT_EQ(there.get("b"), "2");
  ASSERT_EQ(there.cached_map().size(), 2U);

  // clear_local_cache returns once the other instance answered: no waiting here.
  here.clear_local_cache();
  EXPECT_TRUE(there.cached_map().empty());
  EXPECT_TRUE(here.cached_map().empty());
  EXPECT_EQ(server.command({"HLEN", "lcm_clear"}), "2") << "the map itself stays";
  EXPECT_EQ(server.command({"KEYS", "lcm_clear:clear:*"}), "(empty array)") << "semaphore gone";

  EXPECT_EQ(there.get("a"), "1");
  EXPECT_TRUE(here.delete_object());
  EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); }));
  EXPECT_EQ(there.get("a"), std::nullopt);
}

TEST_F(LocalCachedMapTest, TheLoadStrategyDropsWhatWasWrittenWhileDisconnected) {
  LocalCachedMapOptions options;
  options.reconnection = LocalCacheReconnection::load;
  Cache here(client, "lcm_load", options, codecs::string());
  Cache there(other_client, "lcm_load", options, codecs::string());
  here.put_all({{"a", "1"}, {"b", "2"}});
  ASSERT_EQ(there.get("a"), "1");
  live(here, there);
  ASSERT_EQ(there.get("a"), "1");
  ASSERT_EQ(there.get("b"), "2");
  ASSERT_EQ(there.cached_map().size(), 2U);
  EXPECT_EQ(server.command({"ZCARD", "redisson__cache_updates_log:{lcm_load}"}), "2")
      << "every write is logged under load";

  // A write whose message `there` never heard (as while it was disconnected): the hash and
  // the log change, nothing is published. Its log score is later than anything heard.
  const auto b_hash = redisson::detail::highway_hash128_array("b");
  const auto later = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch() + 1h)
                         .count();
  server.command({"HSET", "lcm_load", "b", "two"});
  server.command({"ZADD", "redisson__cache_updates_log:{lcm_load}", std::to_string(later),
                  std::string(b_hash.data(), b_hash.size()) + ":12345678"});
  EXPECT_EQ(there.get("b"), "2") << "stale, as a missed message leaves it";

  // The subscriptions break and come back: the log tells `there` which keys to drop.
  server.command({"CLIENT", "KILL", "TYPE", "pubsub"});
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"a", "1"}};
  }));
  EXPECT_EQ(there.get("b"), "two");
}

TEST_F(LocalCachedMapTest, TheClearStrategyDropsEverythingOnReconnect) {
  LocalCachedMapOptions options;
  options.reconnection = LocalCacheReconnection::clear;
  Cache there(other_client, "lcm_rc", options, codecs::string());
  server.command({"HSET", "lcm_rc", "a", "1"});
  ASSERT_EQ(there.get("a"), "1");
  there.preload_cache();
  ASSERT_EQ(there.get("a"), "1");
  ASSERT_EQ(there.cached_map().size(), 1U);
  server.command({"CLIENT", "KILL", "TYPE", "pubsub"});
  EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); }));
}

TEST_F(LocalCachedMapTest, JavasMessagesAreUnderstood) {
  // The fixtures' messages from Java's lcmap2 cases, published raw on our topic.
  const auto& string_case = redisson::test::java_service_case("lcmap2_update_load_string");
  const auto& hashes = string_case["hash128toArray_of_key"];
  Cache there(other_client, "lcm_java", {}, codecs::string());
  server.command({"HSET", "lcm_java", "k1", "v1", "k2", "v2"});
  ASSERT_EQ(there.get("k1"), "v1");
  there.preload_cache();
  ASSERT_EQ(there.get("k1"), "v1");
  ASSERT_EQ(there.get("k2"), "v2");
  // 01 invalidate of k1 from a Java instance (its id, then one hash).
  const std::string java_id = from_hex("d9a1bb2807033a5a4953fd92202935ef");
  server.command({"PUBLISH", "{lcm_java}:topic",
                  from_hex("01") + java_id + from_hex("00000001") +
                      from_hex(hashes["k1"].get<std::string>())});
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"k2", "v2"}};
  }));
  // 02 update, exactly as Java's putAll({k2:v2, k3:v3}) published it.
  server.command({"PUBLISH", "{lcm_java}:topic",
                  from_hex("02d9a1bb2807033a5a4953fd92202935ef000000026b32000000027632000000026b330"
                           "00000027633")});
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"k2", "v2"}, {"k3", "v3"}};
  }));
  // 00 clear (Java's clear() of the map).
  server.command(
      {"PUBLISH", "{lcm_java}:topic",
       from_hex("00d9a1bb2807033a5a4953fd92202935ef553e3ad10c7c6014cf2b2596a00df74d00")});
  EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); }));
}

TEST_F(LocalCachedMapTest, AJavaTransactionsDisableIsAnsweredAndHonoured) {
  // Java's transactional local cached map disables the keys it writes in every instance (03),
  // waits for each instance's 04 on `{name}:<request>:topic`, commits, then enables them (05).
  Cache there(other_client, "lcm_tx", {}, codecs::string());
  server.command({"HSET", "lcm_tx", "k1", "v1"});
  there.preload_cache();
  ASSERT_EQ(there.cached_map().size(), 1U);
  redisson::test::Messages acks;
  auto subscription = client.subscribe("{lcm_tx}:tx1:topic", acks.sink());
  ASSERT_TRUE(subscribers_are(server, "{lcm_tx}:tx1:topic", 1));

  const auto k1 = redisson::detail::highway_hash128_array("k1");
  const std::string hash(k1.data(), k1.size());
  server.command({"PUBLISH", "{lcm_tx}:topic",
                  from_hex("0303") + "tx1" +
                      from_hex("000000000000ea60"
                               "00"
                               "00000001") +
                      hash});
  ASSERT_TRUE(eventually([&] { return acks.get() == std::vector<std::string>{from_hex("04")}; }));
  EXPECT_TRUE(there.cached_map().empty()) << "the disabled key is dropped";
  EXPECT_EQ(there.get("k1"), "v1");
  EXPECT_TRUE(there.cached_map().empty()) << "and not cached while disabled";

  server.command({"PUBLISH", "{lcm_tx}:topic",
                  from_hex("0503") + "tx1" +
                      from_hex("00"
                               "00000001") +
                      hash});
  EXPECT_TRUE(eventually([&] {
    there.get("k1");
    return there.cached_map().size() == 1;
  })) << "enabled again";
}

TEST_F(LocalCachedMapTest, APlainMapCanTellTheNearCaches) {
  Cache there(other_client, "lcm_plain", {}, codecs::string());
  redisson::Map<std::string, std::string> invalidating(
      client, "lcm_plain", redisson::NearCaches::invalidate, codecs::string());
  redisson::Map<std::string, std::string> updating(client, "lcm_plain",
                                                   redisson::NearCaches::update, codecs::string());
  invalidating.put("a", "1");
  there.preload_cache();
  ASSERT_EQ(there.cached_map().size(), 1U);
  invalidating.put("a", "2");
  EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); }));
  updating.put("a", "3");
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"a", "3"}};
  }));
  EXPECT_EQ(updating.get("a"), "3");
  EXPECT_EQ(server.command({"PUBSUB", "NUMSUB", "{lcm_plain}:topic"}), "{lcm_plain}:topic\n1")
      << "the Maps subscribe nothing";
  EXPECT_TRUE(invalidating.delete_object());
  EXPECT_TRUE(eventually([&] { return there.cached_map().empty(); }));
}

TEST_F(LocalCachedMapTest, ATransactionsWritesReachTheCachesAtCommit) {
  Cache here(client, "lcm_txw", with_sync(LocalCacheSync::update), codecs::string());
  Cache there(other_client, "lcm_txw", {}, codecs::string());
  here.put_all({{"a", "1"}, {"b", "2"}});
  live(here, there);
  ASSERT_EQ(there.cached_map().size(), 2U);

  {
    redisson::Transaction tx(client);
    auto map = tx.get<redisson::TransactionalLocalCachedMap<std::string, std::string>>(
        "lcm_txw", codecs::string());
    map.put("a", "10");
    EXPECT_EQ(map.get("a"), "10");
    tx.rollback();  // nothing written, nothing published
  }
  {
    redisson::Transaction tx(client);
    redisson::TransactionalLocalCachedMap<std::string, std::string> map(tx, here);
    map.put("a", "11");
    map.remove("b");
    EXPECT_EQ(there.get("a"), "1") << "not before the commit";
    tx.commit();
  }
  EXPECT_EQ(server.command({"HGETALL", "lcm_txw"}), "a\n11");
  // `here` is an update instance: its transaction sent the new value; `there` drops b.
  EXPECT_TRUE(eventually([&] {
    return there.cached_map() == std::map<std::string, std::string>{{"a", "11"}};
  }));
  EXPECT_TRUE(eventually([&] {
    return here.cached_map() == std::map<std::string, std::string>{{"a", "11"}};
  })) << "the instance the transaction was made from hears it too";
  {
    redisson::Transaction tx(client);
    redisson::TransactionalLocalCachedMap<std::string, std::string> map(tx, here);
    EXPECT_EQ(map.add_and_get("a", std::int64_t{5}), 16);
    EXPECT_EQ(map.read_all_map(), (std::map<std::string, std::string>{{"a", "16"}}));
    tx.commit();
  }
  EXPECT_EQ(server.command({"HGET", "lcm_txw", "a"}), "16");
  EXPECT_TRUE(eventually([&] { return there.get("a") == std::optional<std::string>("16"); }))
      << "add_and_get's commit invalidates the other caches";
}

TEST_F(LocalCachedMapTest, OurMessagesAreJavasBytes) {
  const auto& string_case = redisson::test::java_service_case("lcmap2_update_load_string");
  const auto& hashes = string_case["hash128toArray_of_key"];
  redisson::test::Messages heard;
  auto subscription = other_client.subscribe("{lcm_bytes}:topic", heard.sink());
  ASSERT_TRUE(subscribers_are(server, "{lcm_bytes}:topic", 1));
  Cache invalidating(client, "lcm_bytes", {}, codecs::string());
  Cache updating(client, "lcm_bytes", with_sync(LocalCacheSync::update), codecs::string());
  invalidating.put("k1", "v1");
  updating.put_all({{"k2", "v2"}, {"k3", "v3"}});
  updating.fast_remove({"k1", "k2"});
  ASSERT_TRUE(eventually([&] { return heard.get().size() == 4; }));
  const auto messages = heard.get();
  auto body = [](const std::string& message) { return message.substr(17); };  // past type + id
  EXPECT_EQ(messages[0].substr(0, 1), from_hex("01"));
  EXPECT_EQ(body(messages[0]), from_hex("00000001" + hashes["k1"].get<std::string>()));
  EXPECT_EQ(messages[1].substr(0, 1), from_hex("02"));
  EXPECT_EQ(body(messages[1]), from_hex("000000026b32000000027632000000026b33000000027633"));
  EXPECT_EQ(messages[2], from_hex("01") + messages[2].substr(1, 16) +
                             from_hex("00000001" + hashes["k1"].get<std::string>()))
      << "fast_remove: one invalidation per removed key";
  EXPECT_EQ(body(messages[3]), from_hex("00000001" + hashes["k2"].get<std::string>()));
  EXPECT_NE(messages[0].substr(1, 16), messages[1].substr(1, 16)) << "two instances, two ids";
}

TEST_F(LocalCachedMapTest, LimitsAndBadOptions) {
  LocalCachedMapOptions options;
  options.cache_size = 2;
  options.eviction = redisson::LocalCacheEviction::lru;
  Cache here(client, "lcm_lim", options, codecs::string());
  here.put_all({{"a", "1"}, {"b", "2"}, {"c", "3"}});
  here.preload_cache();
  for (const char* key : {"a", "b", "c", "a"}) EXPECT_TRUE(here.get(key));
  EXPECT_EQ(here.local_cache_stats().size, 2);
  EXPECT_EQ(here.cached_key_set(), (std::set<std::string>{"a", "c"})) << "b least recently used";

  LocalCachedMapOptions bad;
  bad.time_to_live = -1ms;
  expect_error(errc::invalid_argument, [&] { Cache(client, "lcm_bad", bad); });
  expect_error(errc::invalid_argument, [&] { here.preload_cache(0); });
}

TEST_F(LocalCachedMapTest, PreloadAndReadAllFillTheCache) {
  server.command({"HSET", "lcm_pre", "a", "1", "b", "2", "c", "3"});
  Cache here(client, "lcm_pre", {}, codecs::string());
  EXPECT_TRUE(here.cached_map().empty());
  here.preload_cache(2);  // subscribes first
  EXPECT_EQ(here.cached_map().size(), 3U);
  here.destroy();
  EXPECT_TRUE(here.cached_map().empty());
  EXPECT_TRUE(subscribers_are(server, "{lcm_pre}:topic", 0));
  EXPECT_EQ(here.get("a"), "1") << "still a Map";
}

TEST_F(LocalCachedMapTest, TheCacheClearsWhenTheMapExpires) {
  server.command({"CONFIG", "SET", "notify-keyspace-events", "Ex"});
  Cache here(client, "lcm_exp", {}, codecs::string());
  here.put("a", "1");
  here.preload_cache();
  ASSERT_TRUE(eventually([&] { return server.command({"PUBSUB", "NUMPAT"}) != "0"; }));
  here.put("a", "1");  // cached when the write's own message comes back
  ASSERT_TRUE(eventually([&] { return here.cached_map().size() == 1; }));
  server.command({"PEXPIRE", "lcm_exp", "1"});
  EXPECT_TRUE(eventually([&] { return here.cached_map().empty(); }));
}

}  // namespace

}  // namespace services_local_cached_map_test
