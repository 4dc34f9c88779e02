// Object listeners (ObjectEvent, add_listener on objects, locks and Keys) against a real
// redis-server: each type hears Redisson's events on its own key and nobody else's, the server's
// notify-keyspace-events is turned on as Config::keyspace_notifications says, and what a type
// does not hear is refused with nothing subscribed or changed.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/lock.hpp"
#include "redisson/objects/atomic_double.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/deque.hpp"
#include "redisson/objects/keys.hpp"
#include "redisson/objects/list.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/scored_sorted_set.hpp"
#include "redisson/objects/set.hpp"
#include "redisson/objects/set_multimap.hpp"
#include "redisson/objects/stream.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_object_listeners_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::ListenerId;
using redisson::ObjectEvent;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::numsub;
using redisson::test::ShutdownAtEnd;
namespace codecs = redisson::codecs;

namespace {

/// The keys a listener was called with, in order; safe to read while they arrive.
struct Heard {
  std::mutex mutex;
  std::vector<std::string> keys;
  redisson::KeyListener sink() {
    return [this](std::string_view key) {
      std::lock_guard guard(mutex);
      keys.emplace_back(key);
    };
  }
  std::vector<std::string> get() {
    std::lock_guard guard(mutex);
    return keys;
  }
  /// Waits until `count` keys arrived; then the list of them.
  std::vector<std::string> wait_for(std::size_t count) {
    (void)eventually([&] { return get().size() >= count; });
    return get();
  }
};

class ObjectListenersTest : public redisson::test::ServerTest {
 protected:
  std::string flags() const {
    // CONFIG GET prints "notify-keyspace-events\n<value>".
    const std::string reply = server.command({"CONFIG", "GET", "notify-keyspace-events"});
    return reply.substr(reply.find('\n') + 1);
  }
};

TEST_F(ObjectListenersTest, ADeleteListenerTurnsOnItsLettersAndHearsOnlyItsObject) {
  ASSERT_EQ(flags(), "");
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  redisson::Bucket<std::string> other(client, "other", codecs::string());
  Heard heard;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  const ListenerId id = bucket.add_listener(ObjectEvent::deleted, heard.sink());
  EXPECT_EQ(flags(), "gE") << "E and g added, nothing else";
  EXPECT_EQ(numsub(server, "__keyevent@0__:del"), "__keyevent@0__:del\n1");

  other.set("x");
  bucket.set("x");
  other.delete_object();  // announced before b's: heard first if it were not filtered out
  bucket.delete_object();
  EXPECT_EQ(heard.wait_for(1), std::vector<std::string>{"b"});

  EXPECT_TRUE(bucket.remove_listener(id));
  EXPECT_FALSE(bucket.remove_listener(id)) << "already removed";
  EXPECT_TRUE(redisson::test::subscribers_are(server, "__keyevent@0__:del", 0));
}

TEST_F(ObjectListenersTest, ExpiredAndSetOnABucketAndIncrementsOnTheAtomics) {
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  redisson::AtomicLong counter(client, "n");
  redisson::AtomicDouble gauge(client, "d");
  Heard expired, set, counted, measured;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)bucket.add_listener(ObjectEvent::expired, expired.sink());
  (void)bucket.add_listener(ObjectEvent::set, set.sink());
  (void)counter.add_listener(ObjectEvent::incremented, counted.sink());
  (void)gauge.add_listener(ObjectEvent::incremented, measured.sink());
  EXPECT_EQ(flags(), "$xE");

  bucket.set("v", 30ms);
  EXPECT_EQ(set.wait_for(1), std::vector<std::string>{"b"});
  EXPECT_EQ(expired.wait_for(1), std::vector<std::string>{"b"}) << "the server expires it";
  (void)counter.increment_and_get();
  (void)counter.add_and_get(5);
  EXPECT_EQ(counted.wait_for(2), (std::vector<std::string>{"n", "n"}));
  (void)gauge.add_and_get(1.5);  // INCRBYFLOAT: announced as incrbyfloat
  EXPECT_EQ(measured.wait_for(1), std::vector<std::string>{"d"});
}

TEST_F(ObjectListenersTest, ASetHearsAddsRemovesPopsAndStores) {
  redisson::Set<std::string> set(client, "{s}:a", codecs::string());
  redisson::Set<std::string> b(client, "{s}:b", codecs::string());
  Heard added, removed, popped, stored;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)set.add_listener(ObjectEvent::added, added.sink());
  (void)set.add_listener(ObjectEvent::removed, removed.sink());
  (void)set.add_listener(ObjectEvent::removed_random, popped.sink());
  (void)set.add_listener(ObjectEvent::union_stored, stored.sink());
  b.add("x");  // another set's add: not heard
  set.add_all({"1", "2", "3"});
  set.remove("1");
  (void)set.remove_random();
  (void)set.store_union({"{s}:b"});
  EXPECT_EQ(added.wait_for(1), std::vector<std::string>{"{s}:a"});
  EXPECT_EQ(removed.wait_for(1), std::vector<std::string>{"{s}:a"});
  EXPECT_EQ(popped.wait_for(1), std::vector<std::string>{"{s}:a"});
  EXPECT_EQ(stored.wait_for(1), std::vector<std::string>{"{s}:a"});
}

TEST_F(ObjectListenersTest, ListsAndDequesHearTheirChanges) {
  redisson::List<std::string> list(client, "l", codecs::string());
  redisson::Deque<std::string> deque(client, "d", codecs::string());
  Heard added, inserted, set_at, removed, trimmed, first;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)list.add_listener(ObjectEvent::added, added.sink());
  (void)list.add_listener(ObjectEvent::inserted, inserted.sink());
  (void)list.add_listener(ObjectEvent::set, set_at.sink());
  (void)list.add_listener(ObjectEvent::removed, removed.sink());
  (void)list.add_listener(ObjectEvent::trimmed, trimmed.sink());
  (void)deque.add_listener(ObjectEvent::added_first, first.sink());
  list.add_all({"a", "b", "c"});
  (void)list.insert_before("b", "x");
  (void)list.set(0, "z");
  (void)list.remove("x");
  list.trim(0, 0);
  (void)deque.add_first("q");
  EXPECT_EQ(added.wait_for(1), std::vector<std::string>{"l"});
  EXPECT_EQ(inserted.wait_for(1), std::vector<std::string>{"l"});
  EXPECT_EQ(set_at.wait_for(1), std::vector<std::string>{"l"});
  EXPECT_EQ(removed.wait_for(1), std::vector<std::string>{"l"});
  EXPECT_EQ(trimmed.wait_for(1), std::vector<std::string>{"l"});
  EXPECT_EQ(first.wait_for(1), std::vector<std::string>{"d"});
  expect_error(
      errc::invalid_argument, [&] { (void)list.add_listener(ObjectEvent::added_first, nullptr); },
      "a List has no added_first (a Deque's)");
}

TEST_F(ObjectListenersTest, SortedSetsMapsStreamsAndMultimaps) {
  redisson::ScoredSortedSet<std::string> zset(client, "z", codecs::string());
  redisson::Map<std::string, std::string> map(client, "m", codecs::string());
  redisson::Stream<std::string, std::string> stream(client, "st", codecs::string());
  redisson::SetMultimap<std::string, std::string> multimap(client, "mm", codecs::string());
  Heard zadded, zincr, put, hdel, xadd, group, values_added;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)zset.add_listener(ObjectEvent::added, zadded.sink());
  (void)zset.add_listener(ObjectEvent::incremented, zincr.sink());
  (void)map.add_listener(ObjectEvent::put, put.sink());
  (void)map.add_listener(ObjectEvent::removed, hdel.sink());
  (void)stream.add_listener(ObjectEvent::added, xadd.sink());
  (void)stream.add_listener(ObjectEvent::group_created, group.sink());
  (void)multimap.add_listener(ObjectEvent::added, values_added.sink());
  (void)zset.add(1, "a");
  (void)zset.add_score("a", 2);
  map.put("k", "v");
  (void)map.remove("k");
  (void)stream.add({{"f", "v"}});
  stream.create_group("g");
  multimap.put("k", "v");
  EXPECT_EQ(zadded.wait_for(1), std::vector<std::string>{"z"});
  EXPECT_EQ(zincr.wait_for(1), std::vector<std::string>{"z"});
  EXPECT_EQ(put.wait_for(1), std::vector<std::string>{"m"});
  EXPECT_EQ(hdel.wait_for(1), std::vector<std::string>{"m"});
  EXPECT_EQ(xadd.wait_for(1), std::vector<std::string>{"st"});
  EXPECT_EQ(group.wait_for(1), std::vector<std::string>{"st"});
  const auto values = values_added.wait_for(1);
  ASSERT_EQ(values.size(), 1U);
  EXPECT_EQ(values[0].rfind("{mm}:", 0), 0U) << values[0] << ": the values key of k";
}

TEST_F(ObjectListenersTest, KeysHearEveryKeyAndLocksTheirDeletes) {
  redisson::Keys keys(client);
  redisson::Lock lock(client, "lk");
  Heard created, released;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)keys.add_listener(ObjectEvent::created, created.sink());
  (void)lock.add_listener(ObjectEvent::deleted, released.sink());
  EXPECT_EQ(flags(), "gnE") << "n (new keys) is not part of A: added on its own";
  server.command({"SET", "k1", "v"});
  lock.lock();
  lock.unlock();
  const auto made = created.wait_for(2);  // then unlock's redisson_unlock_latch key
  ASSERT_GE(made.size(), 2U);
  EXPECT_EQ(made[0], "k1");
  EXPECT_EQ(made[1], "lk");
  EXPECT_EQ(released.wait_for(1), std::vector<std::string>{"lk"});
  expect_error(
      errc::invalid_argument, [&] { (void)lock.add_listener(ObjectEvent::added, nullptr); },
      "a lock hears deleted and expired only");
}

TEST_F(ObjectListenersTest, AnEventTheTypeDoesNotHearIsRefusedWithNothingSent) {
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  Heard heard;
  try {
    (void)bucket.add_listener(ObjectEvent::added, heard.sink());
    ADD_FAILURE() << "a Bucket's added listener was accepted";
  } catch (const redisson::error& refused) {
    EXPECT_EQ(refused.code(), errc::invalid_argument);
    EXPECT_NE(std::string(refused.what()).find("deleted, expired, set"), std::string::npos)
        << refused.what();
  }
  EXPECT_EQ(flags(), "") << "nothing turned on";
  expect_error(
      errc::invalid_argument, [&] { (void)bucket.add_listener(ObjectEvent::deleted, nullptr); },
      "no listener");
  EXPECT_EQ(flags(), "");
}

TEST_F(ObjectListenersTest, ExistingLettersAreKeptAndAnAIsEnough) {
  server.command({"CONFIG", "SET", "notify-keyspace-events", "Kx"});
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  Heard heard;
  ShutdownAtEnd stop(client);  // after what the listeners use: joins them first
  (void)bucket.add_listener(ObjectEvent::deleted, heard.sink());
  EXPECT_EQ(flags(), "gxKE") << "K and x kept";
  server.command({"CONFIG", "SET", "notify-keyspace-events", "AK"});
  redisson::List<std::string> list(client, "l", codecs::string());
  (void)list.add_listener(ObjectEvent::added, heard.sink());
  EXPECT_EQ(flags(), "AKE") << "A covers l: only E added";
}

TEST_F(ObjectListenersTest, CheckModeRefusesWhatIsOffAndAssumeModeSendsNothing) {
  auto checking = config_for(server);
  checking.keyspace_notifications = Config::KeyspaceNotifications::check;
  Client strict(checking);
  redisson::Bucket<std::string> bucket(strict, "b", codecs::string());
  try {
    (void)bucket.add_listener(ObjectEvent::deleted, [](std::string_view) {});
    ADD_FAILURE() << "check mode accepted a listener whose letters are off";
  } catch (const redisson::error& refused) {
    EXPECT_EQ(refused.code(), errc::not_supported);
    EXPECT_NE(std::string(refused.what()).find("'Eg'"), std::string::npos) << refused.what();
  }
  EXPECT_EQ(flags(), "") << "check mode changes nothing";
  EXPECT_EQ(numsub(server, "__keyevent@0__:del"), "__keyevent@0__:del\n0");
  server.command({"CONFIG", "SET", "notify-keyspace-events", "Eg"});
  Heard heard;
  (void)redisson::Bucket<std::string>(strict, "b", codecs::string())
      .add_listener(ObjectEvent::deleted, heard.sink());

  server.command({"CONFIG", "SET", "notify-keyspace-events", ""});
  auto assuming = config_for(server);
  assuming.keyspace_notifications = Config::KeyspaceNotifications::assume;
  Client trusting(assuming);
  (void)redisson::Bucket<std::string>(trusting, "b", codecs::string())
      .add_listener(ObjectEvent::expired, heard.sink());
  EXPECT_EQ(flags(), "") << "assume mode sends no CONFIG";
  EXPECT_EQ(numsub(server, "__keyevent@0__:expired"), "__keyevent@0__:expired\n1");
  strict.shutdown();
  trusting.shutdown();
}

TEST_F(ObjectListenersTest, AUserWithoutConfigIsToldToSetTheLettersByHand) {
  server.command({"ACL", "SETUSER", "limited", "on", ">pw", "~*", "&*", "+@all", "-config"});
  auto limited = config_for(server);
  limited.server.username = "limited";
  limited.server.password = "pw";
  Client restricted(limited);
  redisson::Bucket<std::string> bucket(restricted, "b", codecs::string());
  try {
    (void)bucket.add_listener(ObjectEvent::deleted, [](std::string_view) {});
    ADD_FAILURE() << "accepted without being able to read the server's letters";
  } catch (const redisson::error& refused) {
    EXPECT_EQ(refused.code(), errc::no_permission) << refused.what();
    EXPECT_NE(std::string(refused.what()).find("assume"), std::string::npos) << refused.what();
  }
  EXPECT_EQ(numsub(server, "__keyevent@0__:del"), "__keyevent@0__:del\n0");
  restricted.shutdown();
}

TEST_F(ObjectListenersTest, TwoClientsTurningOnLettersKeepBoth) {
  // CONFIG has no compare-and-set: without the merge lease, the client that writes last drops
  // the other's letter in some of these rounds.
  Client second(config_for(server));
  redisson::Bucket<std::string> deleted(client, "b", codecs::string());
  redisson::List<std::string> listed(second, "l", codecs::string());
  for (int round = 0; round < 50; ++round) {
    server.command({"CONFIG", "SET", "notify-keyspace-events", ""});
    auto one = deleted.async_add_listener(
        ObjectEvent::deleted, [](std::string_view) {}, asio::use_future);
    auto two = listed.async_add_listener(
        ObjectEvent::added, [](std::string_view) {}, asio::use_future);
    const auto first_id = one.get();
    const auto second_id = two.get();
    const std::string now = flags();
    for (const char letter : std::string("Egl")) {
      EXPECT_NE(now.find(letter), std::string::npos)
          << "round " << round << ": " << now << " lacks " << letter;
    }
    deleted.remove_listener(first_id);
    listed.remove_listener(second_id);
  }
  EXPECT_EQ(server.command({"EXISTS", "redisson__notify_keyspace_events_merge"}), "0")
      << "each merge frees its lease";
  second.shutdown();
  client.shutdown();
}

TEST_F(ObjectListenersTest, AMergeLeaseHeldByAnotherIsWaitedForAndNeverFreedByUs) {
  // A holder that died without a time limit: the merge waits a bounded while, goes ahead, and
  // leaves the other's lease alone.
  server.command({"SET", "redisson__notify_keyspace_events_merge", "someone-else"});
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  (void)bucket.add_listener(ObjectEvent::deleted, [](std::string_view) {});
  EXPECT_EQ(flags(), "gE");
  EXPECT_EQ(server.command({"GET", "redisson__notify_keyspace_events_merge"}), "someone-else");

  // Freed while we wait: taken, used and freed.
  server.command({"SET", "redisson__notify_keyspace_events_merge", "someone-else"});
  auto waiting = bucket.async_add_listener(
      ObjectEvent::expired, [](std::string_view) {}, asio::use_future);
  server.command({"DEL", "redisson__notify_keyspace_events_merge"});
  (void)waiting.get();
  EXPECT_EQ(flags(), "gxE");
  EXPECT_EQ(server.command({"EXISTS", "redisson__notify_keyspace_events_merge"}), "0");
  client.shutdown();
}

}  // namespace

}  // namespace objects_object_listeners_test
