// PriorityQueue, PriorityBlockingQueue, PriorityDeque, PriorityBlockingDeque and SortedSet against
// a real redis-server: the order (natural and a custom Compare), every operation, Redisson's
// lock and comparator keys, errors that change nothing, waits woken by another client's offer,
// and Java Redisson 3.52's queues (services fixtures fx2:priority*) read and written byte for
// byte.
#include "redisson/objects/priority_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "redisson/lock.hpp"
#include "redisson/objects/sorted_set.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace collections_priority_queue_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::errc;
using redisson::Lock;
using redisson::PriorityBlockingDeque;
using redisson::PriorityBlockingQueue;
using redisson::PriorityDeque;
using redisson::PriorityQueue;
using redisson::SortedSet;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::java_service_dump_entry;
using redisson::test::ShutdownAtEnd;
using redisson::test::subscribers_are;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

/// Where the queue "q"'s lock announces its releases: where its waiters sleep.
const std::string kReleaseChannel = "redisson_lock__channel:redisson_sortedset_lock:{q}";

/// Orders strings by their length only: "bb" and "cc" are equal to it.
struct ByLength {
  bool operator()(const std::string& a, const std::string& b) const { return a.size() < b.size(); }
};

class PriorityQueueTest : public redisson::test::ServerTest {
 protected:
  PriorityQueue<std::int32_t> ints(const std::string& name) {
    return PriorityQueue<std::int32_t>(client, name, codecs::kryo5());
  }
  PriorityQueue<std::string> strings(const std::string& name) {
    return PriorityQueue<std::string>(client, name, codecs::string());
  }
  /// The list's elements as hex, head first.
  std::vector<std::string> list_hex(const std::string& key) {
    std::vector<std::string> out;
    for (const auto& element : client.execute(Command{"LRANGE", key, "0", "-1"}).elements) {
      out.push_back(to_hex(element.str));
    }
    return out;
  }
};

TEST_F(PriorityQueueTest, OffersComeOutLeastFirst) {
  auto queue = ints("q");
  EXPECT_TRUE(queue.offer(3));
  EXPECT_TRUE(queue.add(1));
  EXPECT_TRUE(queue.offer(2));
  EXPECT_TRUE(queue.add_all({5, 4, 0}));
  EXPECT_EQ(queue.read_all(), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(queue.peek(), 0);
  EXPECT_EQ(queue.poll(), 0);
  EXPECT_EQ(queue.poll(2), (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(queue.size(), 3);
  EXPECT_TRUE(queue.contains(4));
  EXPECT_FALSE(queue.contains(1));
  EXPECT_TRUE(queue.contains_all({3, 5}));
  EXPECT_EQ(queue.get(1), 4);
  EXPECT_EQ(queue.index_of(5), 2);
  // No lock key is left behind, and nothing names a comparator.
  EXPECT_EQ(server.command({"EXISTS", "redisson_sortedset_lock:{q}"}), "0");
  EXPECT_EQ(queue.comparator(), std::nullopt);
}

TEST_F(PriorityQueueTest, ACustomCompareOrdersTheQueue) {
  PriorityQueue<std::int32_t, std::greater<>> queue(client, "q", codecs::kryo5());
  EXPECT_TRUE(queue.value_comp()(2, 1));
  for (std::int32_t value : {2, 9, 4, 7}) queue.offer(value);
  EXPECT_EQ(queue.read_all(), (std::vector<std::int32_t>{9, 7, 4, 2}));
  EXPECT_EQ(queue.poll(), 9);

  // Equal by the Compare: a new element goes after the ones already there (Java's position).
  PriorityQueue<std::string, ByLength> by_length(client, "l", codecs::string());
  for (const char* value : {"bb", "a", "cc", "ddd", "e"}) by_length.offer(value);
  EXPECT_EQ(by_length.read_all(), (std::vector<std::string>{"a", "e", "bb", "cc", "ddd"}));
  // remove finds an element equal by the Compare and removes that one.
  EXPECT_TRUE(by_length.remove("zz"));
  EXPECT_EQ(by_length.read_all(), (std::vector<std::string>{"a", "e", "cc", "ddd"}));
}

TEST_F(PriorityQueueTest, RemovalsAndMovesKeepTheOrder) {
  auto queue = strings("q");
  queue.add_all({"d", "b", "a", "c", "b"});
  EXPECT_EQ(queue.read_all(), (std::vector<std::string>{"a", "b", "b", "c", "d"}));
  EXPECT_TRUE(queue.remove("b"));
  EXPECT_FALSE(queue.remove("x"));
  EXPECT_TRUE(queue.remove_all({"a", "x"}));
  EXPECT_FALSE(queue.remove_all({"x"}));
  EXPECT_EQ(queue.read_all(), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_TRUE(queue.retain_all({"b", "d"}));
  EXPECT_EQ(queue.read_all(), (std::vector<std::string>{"b", "d"}));
  EXPECT_EQ(queue.poll_last_and_offer_first_to("other"), "d");
  EXPECT_EQ(server.command({"LRANGE", "other", "0", "-1"}), "d");
  EXPECT_EQ(queue.poll(), "b");
  EXPECT_EQ(queue.poll(), std::nullopt);
  EXPECT_EQ(queue.peek(), std::nullopt);
  EXPECT_EQ(queue.poll(3), std::vector<std::string>{});
  EXPECT_EQ(queue.poll_last_and_offer_first_to("other"), std::nullopt);
  EXPECT_TRUE(queue.empty());
}

TEST_F(PriorityQueueTest, TheComparatorKeyIsNamedOnceAndChecked) {
  auto queue = strings("q");
  EXPECT_TRUE(queue.try_set_comparator("com.example.Rev:abc"));
  EXPECT_FALSE(queue.try_set_comparator("com.example.Other:def"));
  EXPECT_EQ(queue.comparator(), "com.example.Rev:abc");
  EXPECT_EQ(server.command({"GET", "{q}:redisson_sortedset_comparator"}), "com.example.Rev:abc");

  // A handle of another order refuses to write, and changes nothing.
  expect_error(
      errc::invalid_argument, [&] { queue.offer("a"); }, "offer, natural order");
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "redisson_sortedset_lock:{q}"}), "0");

  // The class part decides, as in Java (its signature is Java's business).
  PriorityQueue<std::string, std::greater<>> reversed(client, "q", codecs::string(), {},
                                                      "com.example.Rev:other-signature");
  reversed.add_all({"a", "c", "b"});
  EXPECT_EQ(reversed.read_all(), (std::vector<std::string>{"c", "b", "a"}));

  // rename would leave the lock and comparator names behind: refused, nothing moves.
  expect_error(
      errc::not_supported, [&] { reversed.rename("q2"); }, "rename");
  expect_error(
      errc::not_supported, [&] { reversed.renamenx("q2"); }, "renamenx");
  EXPECT_EQ(server.command({"EXISTS", "q", "q2"}), "1");

  // delete_object takes the comparator key with the list, as Redisson's clear().
  EXPECT_TRUE(reversed.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "q", "{q}:redisson_sortedset_comparator"}), "0");
}

TEST_F(PriorityQueueTest, ExpireCoversTheComparatorKey) {
  auto queue = strings("q");
  queue.try_set_comparator("x:1");
  PriorityQueue<std::string>(client, "q", codecs::string(), {}, "x:1").offer("a");
  EXPECT_TRUE(queue.expire(100s));
  EXPECT_NE(server.command({"PTTL", "{q}:redisson_sortedset_comparator"}), "-1");
  EXPECT_NE(server.command({"PTTL", "q"}), "-1");
}

TEST_F(PriorityQueueTest, BadInputFailsAndChangesNothing) {
  server.command({"SET", "s", "text"});
  auto wrong = strings("s");
  expect_error(
      errc::wrong_type, [&] { wrong.offer("a"); }, "offer on a string");
  expect_error(
      errc::wrong_type, [&] { wrong.poll(); }, "poll on a string");
  expect_error(
      errc::wrong_type, [&] { wrong.remove("a"); }, "remove on a string");
  EXPECT_EQ(server.command({"GET", "s"}), "text");
  EXPECT_EQ(server.command({"EXISTS", "redisson_sortedset_lock:{s}"}), "0") << "lock released";

  // Bytes Kryo cannot read: the search fails before anything is written.
  server.command({"RPUSH", "k", from_hex("ff"), from_hex("ff")});
  auto unreadable = ints("k");
  expect_error(
      errc::codec_error, [&] { unreadable.offer(1); }, "offer among unreadable bytes");
  EXPECT_EQ(server.command({"LLEN", "k"}), "2");
  EXPECT_EQ(server.command({"EXISTS", "redisson_sortedset_lock:{k}"}), "0");

  auto queue = ints("q");
  expect_error(
      errc::invalid_argument, [&] { queue.poll(0); }, "poll(0)");
  PriorityBlockingQueue<std::int32_t> blocking(client, "q", codecs::kryo5());
  expect_error(
      errc::invalid_argument, [&] { blocking.poll(-1ms); }, "poll(-1 ms)");
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
}

TEST_F(PriorityQueueTest, AnOfferWaitsWhileAnotherClientHoldsTheLock) {
  Client other(config_for(server));
  Lock held(other, "redisson_sortedset_lock:{q}");
  held.lock();
  auto queue = ints("q");
  auto offered = std::async(std::launch::async, [&] { return queue.offer(1); });
  // Waiting for the lock: subscribed to its release channel, and nothing written.
  ASSERT_TRUE(subscribers_are(server, kReleaseChannel, 1));
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
  held.unlock();
  EXPECT_TRUE(offered.get());
  EXPECT_EQ(queue.read_all(), std::vector<std::int32_t>{1});
}

TEST_F(PriorityQueueTest, TakeIsWokenByAnotherClientsOffer) {
  PriorityBlockingQueue<std::int32_t> consumer(client, "q", codecs::kryo5());
  auto taken = std::async(std::launch::async, [&] { return consumer.take(); });
  ASSERT_TRUE(subscribers_are(server, kReleaseChannel, 1)) << "the take sleeps on the channel";
  Client producer_client(config_for(server));
  PriorityBlockingQueue<std::int32_t>(producer_client, "q", codecs::kryo5()).put(7);
  EXPECT_EQ(taken.wait_for(5s), std::future_status::ready) << "woken by the release message";
  EXPECT_EQ(taken.get(), 7);
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
}

TEST_F(PriorityQueueTest, ATakeLeavesTheListAloneWhileAWriterHoldsTheLock) {
  // A writer holding the lock may be between its search and its insert: a take waits for the
  // release, even with an element there (pushed here without the lock), then takes it.
  Client other(config_for(server));
  Lock held(other, "redisson_sortedset_lock:{q}");
  held.lock();
  server.command({"RPUSH", "q", "a"});
  PriorityBlockingQueue<std::string> queue(client, "q", codecs::string());
  auto taken = std::async(std::launch::async, [&] { return queue.take(); });
  ASSERT_TRUE(subscribers_are(server, kReleaseChannel, 1)) << "the take found the lock held";
  EXPECT_EQ(server.command({"LRANGE", "q", "0", "-1"}), "a");
  held.unlock();
  EXPECT_EQ(taken.get(), "a");
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
}

TEST_F(PriorityQueueTest, WaitingTakesRefuseKeysOfOtherTypes) {
  server.command({"SET", "q", "text"});
  PriorityBlockingDeque<std::string> deque(client, "q", codecs::string());
  expect_error(
      errc::wrong_type, [&] { deque.take(); }, "take on a string");
  expect_error(
      errc::wrong_type, [&] { deque.poll_last(10ms); }, "poll_last on a string");
  // The same while the lock is held, where the script answers before any list command.
  Client other(config_for(server));
  Lock held(other, "redisson_sortedset_lock:{q}");
  held.lock();
  expect_error(
      errc::wrong_type, [&] { deque.poll(10ms); }, "poll while locked");
  held.unlock();
  server.command({"DEL", "q"});
  server.command({"SET", "dst", "text"});
  deque.add("x");
  expect_error(
      errc::wrong_type, [&] { deque.take_last_and_offer_first_to("dst"); }, "into a string");
  EXPECT_EQ(deque.read_all(), std::vector<std::string>{"x"});
  EXPECT_EQ(server.command({"GET", "dst"}), "text");
}

TEST_F(PriorityQueueTest, SubscriptionsTakeInOrderFromEitherEndUntilUnsubscribed) {
  PriorityBlockingDeque<std::int32_t> deque(client, "d", codecs::kryo5());
  std::mutex mutex;
  std::vector<std::int32_t> least;
  std::vector<std::int32_t> greatest;
  const ShutdownAtEnd stop{client};  // before what the consumers use goes
  const auto first = deque.subscribe_on_first_elements([&](std::int32_t value) {
    std::lock_guard lock(mutex);
    least.push_back(value);
  });
  Client producer(config_for(server));
  PriorityBlockingDeque<std::int32_t> from_producer(producer, "d", codecs::kryo5());
  for (const std::int32_t value : {3, 1, 2}) from_producer.add(value);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return least.size() == 3;
  }));
  EXPECT_TRUE(deque.unsubscribe(first));
  EXPECT_FALSE(deque.unsubscribe(first));
  // Stopped: it no longer listens, and what comes next stays.
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:redisson_sortedset_lock:{d}", 0));
  from_producer.add_all({5, 4});
  EXPECT_EQ(deque.read_all(), (std::vector<std::int32_t>{4, 5}));
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(least.size(), 3u) << "each element once; in arrival order as each was the least";
  }
  const auto last = deque.subscribe_on_last_elements([&](std::int32_t value) {
    std::lock_guard lock(mutex);
    greatest.push_back(value);
  });
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return greatest.size() == 2;
  }));
  EXPECT_TRUE(deque.unsubscribe(last));
  std::lock_guard lock(mutex);
  EXPECT_EQ(greatest, (std::vector<std::int32_t>{5, 4}));
}

TEST_F(PriorityQueueTest, AQueueSubscriptionHearsAJavaStyleOfferAndReportsAWrongType) {
  std::mutex mutex;
  std::vector<std::string> seen;
  std::vector<redisson::error> reported;
  auto own_config = config_for(server);
  own_config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.push_back(failure);
  };
  Client own(own_config);
  const ShutdownAtEnd stop{own};
  PriorityBlockingQueue<std::string> queue(own, "q", codecs::string());
  const auto id = queue.subscribe_on_elements([&](std::string value) {
    std::lock_guard lock(mutex);
    seen.push_back(std::move(value));
  });
  ASSERT_TRUE(subscribers_are(server, kReleaseChannel, 1));
  PriorityBlockingQueue<std::string>(client, "q", codecs::string()).add_all({"b", "a"});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return seen.size() == 2;
  }));
  // A key of another type: the take fails, is reported, and is tried again after a second.
  server.command({"SET", "q", "text"});
  server.command({"PUBLISH", kReleaseChannel, "0"});  // a release wakes it at once
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !reported.empty();
  }));
  EXPECT_TRUE(queue.unsubscribe(id));
  EXPECT_EQ(server.command({"GET", "q"}), "text");
  std::lock_guard lock(mutex);
  EXPECT_EQ(reported.front().code(), errc::wrong_type);
  EXPECT_EQ(seen.size(), 2u);
}

TEST_F(PriorityQueueTest, BlockingPollsEndWithNothingOrAnElement) {
  PriorityBlockingQueue<std::string> queue(client, "q", codecs::string());
  EXPECT_EQ(queue.poll(50ms), std::nullopt);
  EXPECT_EQ(queue.poll(0ms), std::nullopt);
  queue.add_all({"b", "a", "c"});
  EXPECT_EQ(queue.poll(1s), "a");
  EXPECT_EQ(queue.poll_last_and_offer_first_to("other", 1s), "c");
  EXPECT_EQ(queue.take_last_and_offer_first_to("other"), "b");
  EXPECT_EQ(server.command({"LRANGE", "other", "0", "-1"}), "b\nc");
  EXPECT_EQ(queue.poll_last_and_offer_first_to("other", 20ms), std::nullopt);

  queue.add_all({"z", "y", "x"});
  std::vector<std::string> into;
  EXPECT_EQ(queue.drain_to(into, 0), 0);
  EXPECT_EQ(queue.drain_to(into, 2), 2);
  EXPECT_EQ(queue.drain_to(into), 1);
  EXPECT_EQ(into, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(queue.remaining_capacity(), 2147483647);
}

TEST_F(PriorityQueueTest, ADequeIsTakenFromBothEnds) {
  PriorityDeque<std::int32_t> deque(client, "d", codecs::kryo5());
  deque.add_all({4, 1, 3, 2, 3});
  EXPECT_EQ(deque.peek_first(), 1);
  EXPECT_EQ(deque.peek_last(), 4);
  EXPECT_EQ(deque.read_all_descending(), (std::vector<std::int32_t>{4, 3, 3, 2, 1}));
  EXPECT_EQ(deque.poll_last(), 4);
  EXPECT_EQ(deque.poll_first(), 1);
  EXPECT_TRUE(deque.remove_last_occurrence(3));
  EXPECT_TRUE(deque.remove_first_occurrence(3));
  EXPECT_FALSE(deque.remove_first_occurrence(3));
  EXPECT_EQ(deque.read_all(), std::vector<std::int32_t>{2});
  deque.add_all({5, 6});
  EXPECT_EQ(deque.move("other", redisson::ListEnd::tail, redisson::ListEnd::head), 6);
  EXPECT_EQ(deque.move("other", redisson::ListEnd::head, redisson::ListEnd::tail), 2);
  EXPECT_EQ(server.command({"LLEN", "other"}), "2");
  deque.add_all({2, 6});
  EXPECT_EQ(deque.poll_last(2), (std::vector<std::int32_t>{6, 5}));
  EXPECT_EQ(deque.poll_last(), 2);
  EXPECT_EQ(deque.poll_last(), std::nullopt);
  EXPECT_EQ(deque.peek_last(), std::nullopt);
}

TEST_F(PriorityQueueTest, ABlockingDequeWaitsAtEitherEnd) {
  PriorityBlockingDeque<std::int32_t> deque(client, "d", codecs::kryo5());
  EXPECT_EQ(deque.poll_last(30ms), std::nullopt);
  EXPECT_EQ(deque.poll_first(30ms), std::nullopt);
  auto taken = std::async(std::launch::async, [&] { return deque.take_last(); });
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:redisson_sortedset_lock:{d}", 1));
  Client producer_client(config_for(server));
  PriorityBlockingDeque<std::int32_t>(producer_client, "d", codecs::kryo5()).add(5);
  EXPECT_EQ(taken.get(), 5);
  deque.add_all({1, 2, 3});
  EXPECT_EQ(deque.take_first(), 1);
  EXPECT_EQ(deque.poll_last(1s), 3);
  EXPECT_EQ(deque.poll_first(1s), 2);
}

TEST_F(PriorityQueueTest, ASortedSetKeepsOneOfEachInOrder) {
  SortedSet<std::string> set(client, "s", codecs::string());
  EXPECT_TRUE(set.add("b"));
  EXPECT_TRUE(set.add("a"));
  EXPECT_FALSE(set.add("b"));
  EXPECT_TRUE(set.add_all({"d", "c", "a"}));
  EXPECT_FALSE(set.add_all({"a", "b"}));
  EXPECT_EQ(set.read_all(), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_TRUE(set.contains("c"));
  EXPECT_FALSE(set.contains("x"));
  EXPECT_TRUE(set.contains_all({"a", "d"}));
  EXPECT_FALSE(set.contains_all({"a", "x"}));
  EXPECT_EQ(set.first(), "a");
  EXPECT_EQ(set.last(), "d");
  EXPECT_TRUE(set.remove("b"));
  EXPECT_FALSE(set.remove("b"));
  set.add_all({"b", "bb"});
  EXPECT_TRUE(set.remove_all({"bb", "zz"}));
  EXPECT_FALSE(set.remove_all({"zz"}));
  EXPECT_TRUE(set.remove("b"));
  EXPECT_EQ(set.poll_first(), "a");
  EXPECT_EQ(set.poll_last(), "d");
  EXPECT_EQ(set.size(), 1);
  set.add_all({"e", "f", "g"});
  EXPECT_EQ(set.poll_first(2), (std::vector<std::string>{"c", "e"}));
  EXPECT_EQ(set.poll_last(2), (std::vector<std::string>{"g", "f"}));
  EXPECT_EQ(set.first(), std::nullopt);
  EXPECT_EQ(set.poll_last(), std::nullopt);
  set.add_all({"x", "y"});
  EXPECT_TRUE(set.retain_all({"y"}));
  EXPECT_EQ(set.read_all(), std::vector<std::string>{"y"});
  EXPECT_TRUE(set.retain_all({}));  // none to keep: the list is deleted, as Redisson
  EXPECT_EQ(server.command({"EXISTS", "s", "redisson_sortedset_lock:{s}"}), "0");
}

TEST_F(PriorityQueueTest, ASortedSetNamesItsComparatorOnlyWhileEmpty) {
  SortedSet<std::int32_t, std::greater<>> set(client, "s", codecs::kryo5(), {}, "com.x.Desc:1");
  EXPECT_TRUE(set.try_set_comparator("com.x.Desc:1"));
  EXPECT_EQ(server.command({"GET", "redisson_sortedset_comparator:{s}"}), "com.x.Desc:1");
  EXPECT_EQ(set.comparator(), "com.x.Desc:1");
  set.add_all({1, 3, 2});
  EXPECT_EQ(set.read_all(), (std::vector<std::int32_t>{3, 2, 1}));
  EXPECT_FALSE(set.try_set_comparator("com.x.Other:1"));
  EXPECT_EQ(set.comparator(), "com.x.Desc:1");
  SortedSet<std::int32_t> natural(client, "s", codecs::kryo5());
  expect_error(
      errc::invalid_argument, [&] { natural.add(0); }, "add, natural order");
  EXPECT_EQ(set.size(), 3);
  EXPECT_TRUE(set.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "s", "redisson_sortedset_comparator:{s}"}), "0");

  server.command({"SET", "w", "text"});
  SortedSet<std::int32_t> wrong(client, "w", codecs::kryo5());
  expect_error(
      errc::wrong_type, [&] { wrong.try_set_comparator("a:b"); }, "on a string");
  expect_error(
      errc::invalid_argument, [&] { wrong.poll_first(0); }, "poll_first(0)");
  EXPECT_EQ(server.command({"GET", "w"}), "text");
}

// ---- Java Redisson 3.52 (services fixtures) -----------------------------------------------

class PriorityQueueJavaTest : public PriorityQueueTest {
 protected:
  /// The dump's list `key`, element hex in order.
  static std::vector<std::string> java_list_hex(const std::string& key) {
    std::vector<std::string> out;
    for (const auto& element : java_service_dump_entry(key).at("content")) {
      out.push_back(element.at("hex").get<std::string>());
    }
    return out;
  }
  /// Writes Java's list `key` into the server, as it is.
  void load_java_list(const std::string& key) {
    Command rpush{"RPUSH", key};
    for (const auto& hex : java_list_hex(key)) rpush.arg(from_hex(hex));
    client.execute(rpush);
  }
  /// After Java's calls: the list as Java left it, no comparator key, no lock.
  void expect_java_layout(const std::string& key) {
    EXPECT_EQ(list_hex(key), java_list_hex(key)) << key;
    EXPECT_EQ(server.command({"EXISTS", "{" + key + "}:redisson_sortedset_comparator"}), "0");
    EXPECT_EQ(server.command({"EXISTS", "redisson_sortedset_lock:{" + key + "}"}), "0");
  }
};

TEST_F(PriorityQueueJavaTest, ReadsJavasIntegerQueueAndWritesItsBytes) {
  const auto& java = java_service_case("priorityqueue_int_kryo");
  const std::string key = "fx2:priorityqueue_int_kryo";
  load_java_list(key);
  auto loaded = ints(key);
  EXPECT_EQ(loaded.read_all(), (std::vector<std::int32_t>{2, 3}));
  EXPECT_EQ(loaded.peek(), 2);
  server.command({"DEL", key});

  // Java's calls: offer(3); offer(1); offer(2); readAll(); peek(); poll(); contains(3).
  auto queue = ints(key);
  for (std::int32_t value : {3, 1, 2}) EXPECT_TRUE(queue.offer(value));
  EXPECT_EQ(queue.read_all(), java.at("readAll").get<std::vector<std::int32_t>>());
  EXPECT_EQ(queue.peek(), java.at("peek").get<std::int32_t>());
  EXPECT_EQ(queue.poll(), java.at("poll").get<std::int32_t>());
  EXPECT_EQ(queue.contains(3), java.at("contains").get<bool>());
  expect_java_layout(key);
}

TEST_F(PriorityQueueJavaTest, ReadsJavasStringQueuesAndWritesTheirBytes) {
  for (const auto& [name, codec] : {std::pair{"priorityqueue_str_kryo", codecs::kryo5()},
                                    std::pair{"priorityqueue_str_string", codecs::string()}}) {
    const auto& java = java_service_case(name);
    const std::string key = std::string("fx2:") + name;
    load_java_list(key);
    PriorityQueue<std::string> loaded(client, key, codec);
    EXPECT_EQ(loaded.read_all(), (std::vector<std::string>{"b", "c"})) << name;
    server.command({"DEL", key});

    // offer("c"); offer("a"); offer("b"); readAll(); peek(); poll(); contains("c").
    PriorityQueue<std::string> queue(client, key, codec);
    for (const char* value : {"c", "a", "b"}) EXPECT_TRUE(queue.offer(value));
    EXPECT_EQ(queue.read_all(), java.at("readAll").get<std::vector<std::string>>()) << name;
    EXPECT_EQ(queue.peek(), java.at("peek").get<std::string>());
    EXPECT_EQ(queue.poll(), java.at("poll").get<std::string>());
    EXPECT_EQ(queue.contains("c"), java.at("contains").get<bool>());
    expect_java_layout(key);
  }
}

TEST_F(PriorityQueueJavaTest, ReadsJavasBlockingQueueAndWritesItsBytes) {
  const auto& java = java_service_case("priorityblockingqueue_int_kryo");
  const std::string key = "fx2:priorityblockingqueue_int_kryo";
  load_java_list(key);
  PriorityBlockingQueue<std::int32_t> loaded(client, key, codecs::kryo5());
  EXPECT_EQ(loaded.read_all(), std::vector<std::int32_t>{5});
  server.command({"DEL", key});

  // offer(3); offer(1); take(); poll(); a second client's take() on the empty queue while this
  // one offers 2; offer(5).
  PriorityBlockingQueue<std::int32_t> queue(client, key, codecs::kryo5());
  queue.offer(3);
  queue.offer(1);
  EXPECT_EQ(queue.take(), java.at("take").get<std::int32_t>());
  EXPECT_EQ(queue.poll(), java.at("poll").get<std::int32_t>());
  Client worker_client(config_for(server));
  PriorityBlockingQueue<std::int32_t> worker(worker_client, key, codecs::kryo5());
  auto taken = std::async(std::launch::async, [&] { return worker.take(); });
  ASSERT_TRUE(
      subscribers_are(server, "redisson_lock__channel:redisson_sortedset_lock:{" + key + "}", 1));
  queue.offer(2);
  EXPECT_EQ(taken.get(), java.at("worker_take").get<std::int32_t>());
  queue.offer(5);
  expect_java_layout(key);
}

}  // namespace
}  // namespace collections_priority_queue_test
