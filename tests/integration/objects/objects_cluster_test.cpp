// The objects on a real Redis Cluster (3 masters, started once for the whole suite): the atomics
// and IdGenerator (scripts on both IdGenerator keys in one slot), BitSet and HyperLogLog (scripts,
// operations with other keys under one hash tag), Buckets split per slot and Keys over every
// master; Scripts and Functions (the script cache and libraries on every master, calls on the
// key's master).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/atomic_double.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "redisson/objects/bit_set.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/buckets.hpp"
#include "redisson/objects/functions.hpp"
#include "redisson/objects/hyper_log_log.hpp"
#include "redisson/objects/id_generator.hpp"
#include "redisson/objects/keys.hpp"
#include "redisson/objects/reliable_topic.hpp"
#include "redisson/objects/scripts.hpp"
#include "redisson/objects/topic.hpp"
#include "support/client_config.hpp"
#include "support/cluster_suite.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_cluster.hpp"
#include "topology/key_slot.hpp"

namespace objects_objects_cluster_test {

namespace {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::expect_error;
using redisson::test::RedisCluster;
using redisson::test::with_settings;
namespace codecs = redisson::codecs;

class ObjectsOnCluster : public redisson::test::ClusterSuite {};

TEST_F(ObjectsOnCluster, AtomicsAndIdGenerator) {
  for (int i = 0; i < 6; ++i) {  // names in several slots, so on several masters
    redisson::AtomicLong counter(client(), "cl:long:" + std::to_string(i));
    counter.set(i);
    EXPECT_EQ(counter.increment_and_get(), i + 1);
    EXPECT_TRUE(counter.compare_and_set(i + 1, 100));
    EXPECT_EQ(get_on_master(counter.name()), "100");
  }
  redisson::AtomicDouble number(client(), "cl:double");
  number.set(2.5);
  EXPECT_EQ(get_on_master("cl:double"), "2.5");
  EXPECT_EQ(number.get_and_add(0.5), 2.5);
  EXPECT_TRUE(number.compare_and_set(3.0, 1.0));

  redisson::IdGenerator ids(client(), "cl:ids");
  EXPECT_TRUE(ids.try_init(100, 10));
  EXPECT_EQ(ids.next_id(), 100);
  EXPECT_EQ(ids.next_id(), 101);
  EXPECT_EQ(get_on_master("cl:ids"), "110");
  EXPECT_EQ(get_on_master("{cl:ids}:allocation"), "10");
  EXPECT_TRUE(ids.expire(60s));  // one script over both keys: one slot
  EXPECT_TRUE(ids.delete_object());
  EXPECT_EQ(get_on_master("{cl:ids}:allocation"), "(nil)");
}

TEST_F(ObjectsOnCluster, CopyCrossesSlotsRenamenxAndMoveDoNot) {
  // Names in different slots, so (most likely) on different masters.
  std::string far = "cl:copy:far";
  for (int i = 0; redisson::detail::key_slot(far) == redisson::detail::key_slot("cl:copy"); ++i) {
    far = "cl:copy:far" + std::to_string(i);
  }
  redisson::IdGenerator ids(client(), "cl:copy");
  ASSERT_TRUE(ids.try_init(100, 10));
  EXPECT_TRUE(ids.copy(far));  // DUMP + RESTORE per key, as Redisson across slots
  EXPECT_EQ(get_on_master(far), "100");
  EXPECT_EQ(get_on_master("{" + far + "}:allocation"), "10");
  EXPECT_FALSE(ids.copy(far));  // everything exists there
  ids.expire(60s);
  EXPECT_TRUE(ids.copy_and_replace(far));
  redisson::IdGenerator copied(client(), far);
  EXPECT_GT(copied.remaining_time_to_live(), 0ms);
  EXPECT_EQ(copied.next_id(), 100);

  expect_error(
      errc::invalid_argument, [&] { ids.renamenx(far + ":2"); }, "renamenx across slots");
  EXPECT_TRUE(ids.renamenx("{cl:copy}:renamed"));                  // within the slot
  EXPECT_EQ(get_on_master("{cl:copy}:renamed:allocation"), "10");  // the name has a hash tag
  expect_error(
      errc::invalid_argument, [&] { ids.move_to_database(1); }, "move on a Cluster");

  // OBJECT's key is its second argument: routed by it, on whichever master holds it.
  for (int i = 0; i < 6; ++i) {
    redisson::Bucket<std::int64_t> number(client(), "cl:enc:" + std::to_string(i),
                                          codecs::long_text());
    number.set(i);
    EXPECT_EQ(number.internal_encoding(), "int");
    EXPECT_TRUE(number.reference_count().has_value());
  }
}

TEST_F(ObjectsOnCluster, BitSetAndHyperLogLog) {
  redisson::BitSet bits(client(), "{cl:bits}:a");
  bits.set_range(3, 21);
  EXPECT_EQ(bits.cardinality(), 18);
  EXPECT_EQ(bits.length(), 21);
  bits.set_bytes({std::byte{0xF0}});
  redisson::BitSet other(client(), "{cl:bits}:b");
  other.set_bytes({std::byte{0x3C}});
  bits.and_with({"{cl:bits}:b"});  // same hash tag: one slot
  EXPECT_EQ(bits.to_bytes(), (redisson::Bytes{std::byte{0x30}}));
  expect_error(
      errc::server_error, [&] { bits.or_with({"cl:elsewhere"}); }, "BITOP across slots");

  redisson::HyperLogLog<std::string> first(client(), "{cl:hll}:1", codecs::string());
  redisson::HyperLogLog<std::string> second(client(), "{cl:hll}:2", codecs::string());
  first.add_all({"a", "b", "c"});
  second.add_all({"c", "d"});
  EXPECT_EQ(first.count_with({"{cl:hll}:2"}), 4);
  first.merge_with({"{cl:hll}:2"});
  EXPECT_EQ(first.count(), 4);
}

TEST_F(ObjectsOnCluster, BucketsSplitPerSlotAndKeysCoverEveryMaster) {
  redisson::Buckets buckets(client(), codecs::string());
  std::map<std::string, std::string> values;
  std::set<int> slots;
  for (int i = 0; i < 40; ++i) {
    const auto name = "cl:bucket:" + std::to_string(i);
    values[name] = "v" + std::to_string(i);
    slots.insert(redisson::detail::key_slot(name));
  }
  const auto msets = calls_on_masters("mset");
  buckets.set(values);
  EXPECT_EQ(calls_on_masters("mset") - msets, static_cast<long long>(slots.size()));
  EXPECT_EQ(get_on_master("cl:bucket:7"), "v7");
  std::vector<std::string> names;
  for (const auto& [name, value] : values) names.push_back(name);
  names.push_back("cl:bucket:missing");
  const auto mgets = calls_on_masters("mget");
  EXPECT_EQ(buckets.get<std::string>(names), values);
  EXPECT_EQ(calls_on_masters("mget") - mgets, static_cast<long long>(slots.size() + 1));
  // MSETNX per slot: a slot whose key exists refuses, the others are written.
  EXPECT_FALSE(
      buckets.try_set(std::map<std::string, std::string>{{"cl:bucket:0", "x"}, {"cl:new:1", "y"}}));
  EXPECT_EQ(get_on_master("cl:bucket:0"), "v0");
  EXPECT_TRUE(
      buckets.try_set(std::map<std::string, std::string>{{"{cl:t}:1", "x"}, {"{cl:t}:2", "y"}}));

  redisson::Keys keys(client());
  std::int64_t on_masters = 0;
  for (const int master : cluster().master_ports()) {
    on_masters += std::stoll(cluster().command(master, {"DBSIZE"}));
  }
  EXPECT_EQ(keys.count(), on_masters);
  std::set<std::string> seen;
  for (const auto& key : keys.scan({.pattern = "cl:bucket:*", .count = 5})) seen.insert(key);
  EXPECT_EQ(seen.size(), 40u);  // from every master
  EXPECT_EQ(keys.count_exists({"cl:bucket:1", "cl:bucket:2", "cl:bucket:3", "nope"}), 3);
  EXPECT_EQ(keys.delete_keys({"cl:bucket:1", "cl:bucket:2", "nope"}), 2);
  EXPECT_EQ(keys.unlink({"cl:bucket:3"}), 1);
  EXPECT_EQ(keys.delete_by_pattern("cl:bucket:*"), 37);
  EXPECT_EQ(keys.count_exists(names), 0);
  EXPECT_EQ(keys.get_type("{cl:t}:1"), redisson::KeyType::string);
  EXPECT_TRUE(keys.random_key().has_value());
  keys.flushdb(redisson::Keys::confirm_flush);
  EXPECT_EQ(keys.count(), 0);
  EXPECT_EQ(keys.random_key(), std::nullopt);
}

TEST_F(ObjectsOnCluster, ScriptsLoadOnEveryMasterAndEvalRunsOnTheKeysMaster) {
  redisson::Scripts scripts(client(), codecs::string());
  const redisson::Script script("return redis.call('set', KEYS[1], ARGV[1])");
  const auto sha = scripts.script_load(script.source());
  EXPECT_EQ(sha, script.sha1());
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(cluster().command(master, {"SCRIPT", "EXISTS", sha}), "1") << master;
  }
  EXPECT_EQ(scripts.script_exists({sha}), std::vector<bool>{true});
  for (int i = 0; i < 6; ++i) {  // keys in several slots: each eval on its key's master
    const std::string key = "cl:script:" + std::to_string(i);
    EXPECT_EQ(scripts.eval<redisson::returns::Status>(redisson::ScriptMode::read_write, script,
                                                      {key}, std::vector<std::string>{"v"}),
              "OK");
    EXPECT_EQ(get_on_master(key), "v");
  }
  scripts.script_flush();
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(cluster().command(master, {"SCRIPT", "EXISTS", sha}), "0") << master;
  }
  EXPECT_EQ(scripts.script_exists({sha}), std::vector<bool>{false});
}

TEST_F(ObjectsOnCluster, FunctionsLoadOnEveryMasterAndCallRunsOnTheKeysMaster) {
  redisson::Functions functions(client(), codecs::string());
  functions.load_and_replace("cllib",
                             "redis.register_function('clset', function(keys, args) "
                             "return redis.call('set', keys[1], args[1]) end)");
  for (const int master : cluster().master_ports()) {
    EXPECT_NE(cluster().command(master, {"FUNCTION", "LIST"}).find("cllib"), std::string::npos)
        << master;
  }
  for (int i = 0; i < 6; ++i) {
    const std::string key = "cl:function:" + std::to_string(i);
    EXPECT_EQ(functions.call<redisson::returns::Status>(redisson::FunctionMode::write, "clset",
                                                        {key}, std::vector<std::string>{"f"}),
              "OK");
    EXPECT_EQ(get_on_master(key), "f");
  }
  functions.delete_library("cllib");
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(cluster().command(master, {"FUNCTION", "LIST"}).find("cllib"), std::string::npos)
        << master;
  }
}

// Sharded topics live on the master of their channel's slot (SSUBSCRIBE and SPUBLISH there);
// plain topics are subscribed there too, and PUBLISH reaches every node; a pattern hears PUBLISHes
// made on any master.
TEST_F(ObjectsOnCluster, TopicsSubscribeOnTheChannelsMaster) {
  // Three channels whose slots are on three different masters.
  const auto channels = one_name_per_master("news:");
  ASSERT_EQ(channels.size(), 3u);
  std::mutex mutex;
  std::vector<std::string> heard;
  auto listener = [&](std::string_view channel, const std::string& message) {
    std::lock_guard lock(mutex);
    heard.push_back(std::string(channel) + "=" + message);
  };
  auto heard_count = [&] {
    std::lock_guard lock(mutex);
    return heard.size();
  };
  const redisson::test::ShutdownAtEnd stop{client()};  // before what listeners use goes
  for (const auto& name : channels) {
    redisson::ShardedTopic<std::string> sharded(client(), name, codecs::string());
    sharded.add_listener(listener);
    const int master = master_of(name);
    EXPECT_EQ(cluster().command(master, {"PUBSUB", "SHARDNUMSUB", name}), name + "\n1");
    EXPECT_EQ(sharded.count_subscribers(), 1);
    EXPECT_EQ(sharded.publish("s"), 1) << "SPUBLISH went to the shard of " << name;

    redisson::Topic<std::string> plain(client(), name, codecs::string());
    plain.add_listener(listener);
    EXPECT_EQ(cluster().command(master, {"PUBSUB", "NUMSUB", name}), name + "\n1");
    EXPECT_EQ(plain.count_subscribers(), 1);
  }
  ASSERT_TRUE(redisson::test::eventually([&] { return heard_count() == 3; }));

  redisson::PatternTopic<std::string> pattern(client(), "news:*", codecs::string());
  pattern.add_listener(listener);
  for (const auto& name : channels) {
    redisson::Topic<std::string>(client(), name, codecs::string()).publish("p");
  }
  // Each PUBLISH reaches the plain listener of its channel and the pattern: 3 + 2 * 3.
  ASSERT_TRUE(redisson::test::eventually([&] { return heard_count() == 9; }));
}

// Keyspace and keyevent notifications are node-local: a PatternTopic or Topic on one is subscribed
// on every master (as Redisson does), so it hears the events of keys on all of them, and leaves
// every master when its last listener goes.
TEST_F(ObjectsOnCluster, KeyspaceTopicsListenOnEveryMaster) {
  const auto keys = one_name_per_master("cl:event:");
  ASSERT_EQ(keys.size(), 3u);
  for (const int master : cluster().master_ports()) {
    cluster().command(master, {"CONFIG", "SET", "notify-keyspace-events", "E$"});
  }
  std::mutex mutex;
  std::set<std::string> heard;
  auto heard_has = [&](const std::string& what) {
    std::lock_guard lock(mutex);
    return heard.contains(what);
  };
  const redisson::test::ShutdownAtEnd stop{client()};  // before what listeners use goes
  redisson::PatternTopic<std::string> events(client(), "__keyevent@*__:set", codecs::string());
  const auto pattern_id =
      events.add_listener([&](std::string_view channel, const std::string& key) {
        std::lock_guard lock(mutex);
        heard.insert("pattern " + std::string(channel) + " " + key);
      });
  redisson::Topic<std::string> sets(client(), "__keyevent@0__:set", codecs::string());
  const auto channel_id = sets.add_listener([&](std::string_view, const std::string& key) {
    std::lock_guard lock(mutex);
    heard.insert("channel " + key);
  });
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(cluster().command(master, {"PUBSUB", "NUMPAT"}), "1") << "master " << master;
    EXPECT_EQ(cluster().command(master, {"PUBSUB", "NUMSUB", "__keyevent@0__:set"}),
              "__keyevent@0__:set\n1")
        << "master " << master;
  }
  for (const auto& key : keys) {
    redisson::Bucket<std::string>(client(), key, codecs::string()).set("v");
  }
  for (const auto& key : keys) {
    EXPECT_TRUE(redisson::test::eventually([&] {
      return heard_has("pattern __keyevent@0__:set " + key) && heard_has("channel " + key);
    })) << key
        << " on master " << master_of(key);
  }
  EXPECT_TRUE(events.remove_listener(pattern_id));
  EXPECT_TRUE(sets.remove_listener(channel_id));
  for (const int master : cluster().master_ports()) {
    EXPECT_TRUE(redisson::test::eventually([&] {
      return cluster().command(master, {"PUBSUB", "NUMPAT"}) == "0" &&
             cluster().command(master, {"PUBSUB", "NUMSUB", "__keyevent@0__:set"}) ==
                 "__keyevent@0__:set\n0";
    })) << "master "
        << master;
    cluster().command(master, {"CONFIG", "SET", "notify-keyspace-events", ""});
  }
}

// An object listener turns its letters on on every master (each keeps its own
// notify-keyspace-events) and hears its key on whichever master holds it; Keys hears them all.
TEST_F(ObjectsOnCluster, ObjectListenersTurnOnEveryMasterAndHearTheirKeysMaster) {
  const auto keys = one_name_per_master("cl:listen:");
  ASSERT_EQ(keys.size(), 3u);
  for (const int master : cluster().master_ports()) {
    cluster().command(master, {"CONFIG", "SET", "notify-keyspace-events", ""});
  }
  std::mutex mutex;
  std::set<std::string> heard;
  auto sink = [&](const char* who) {
    return [&mutex, &heard, who](std::string_view key) {
      std::lock_guard lock(mutex);
      heard.insert(std::string(who) + " " + std::string(key));
    };
  };
  auto heard_has = [&](const std::string& what) {
    std::lock_guard lock(mutex);
    return heard.contains(what);
  };
  const redisson::test::ShutdownAtEnd stop{client()};
  std::vector<redisson::ListenerId> ids;
  for (const auto& key : keys) {
    ids.push_back(redisson::Bucket<std::string>(client(), key, codecs::string())
                      .add_listener(redisson::ObjectEvent::deleted, sink("bucket")));
  }
  redisson::Keys all(client());
  ids.push_back(all.add_listener(redisson::ObjectEvent::deleted, sink("keys")));
  for (const int master : cluster().master_ports()) {
    EXPECT_EQ(cluster().command(master, {"CONFIG", "GET", "notify-keyspace-events"}),
              "notify-keyspace-events\ngE")
        << "master " << master;
  }
  for (const auto& key : keys) {
    redisson::Bucket<std::string> bucket(client(), key, codecs::string());
    bucket.set("v");
    bucket.delete_object();
  }
  for (const auto& key : keys) {
    EXPECT_TRUE(redisson::test::eventually([&] {
      return heard_has("bucket " + key) && heard_has("keys " + key);
    })) << key
        << " on master " << master_of(key);
  }
  for (const auto id : ids) EXPECT_TRUE(all.remove_listener(id));
  for (const int master : cluster().master_ports()) {
    cluster().command(master, {"CONFIG", "SET", "notify-keyspace-events", ""});
  }
}

// A reliable topic's stream and {name}:timeout zset share a slot (the zset's hash tag is the
// name), so its scripts run on one master; topics on three masters each deliver in order.
TEST_F(ObjectsOnCluster, ReliableTopicsLiveOnTheirNamesMaster) {
  const auto names = one_name_per_master("audit:");
  ASSERT_EQ(names.size(), 3u);
  std::mutex mutex;
  std::map<std::string, std::vector<std::int64_t>> heard;
  const redisson::test::ShutdownAtEnd stop{client()};  // before what listeners use goes
  for (const auto& name : names) {
    redisson::ReliableTopic<std::int64_t>(client(), name, codecs::kryo5())
        .add_listener([&, name](std::string_view, std::int64_t n) {
          std::lock_guard lock(mutex);
          heard[name].push_back(n);
        });
    EXPECT_EQ(cluster().command(master_of(name), {"TYPE", name}), "stream");
    EXPECT_EQ(cluster().command(master_of(name), {"ZCARD", "{" + name + "}:timeout"}), "1");
  }
  for (std::int64_t i = 0; i < 30; ++i) {
    for (const auto& name : names) {
      EXPECT_EQ(redisson::ReliableTopic<std::int64_t>(client(), name, codecs::kryo5()).publish(i),
                1);
    }
  }
  ASSERT_TRUE(redisson::test::eventually([&] {
    std::lock_guard lock(mutex);
    for (const auto& name : names) {
      if (heard[name].size() != 30) return false;
    }
    return true;
  }));
  std::lock_guard lock(mutex);
  for (const auto& name : names) {
    for (std::int64_t i = 0; i < 30; ++i) ASSERT_EQ(heard[name][static_cast<std::size_t>(i)], i);
  }
}

}  // namespace

}  // namespace objects_objects_cluster_test
