// BoundedBlockingQueue<T> against a real redis-server: the capacity bounds the list, every take
// and removal gives its place back, put waits for room a take announces, bad input and keys of
// another type change nothing, and Java Redisson's layout (the queue semaphore and its channel).
#include "redisson/objects/bounded_blocking_queue.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "redisson/batch.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace collections_bounded_blocking_queue_test {

using namespace std::chrono_literals;
using redisson::BoundedBlockingQueue;
using redisson::errc;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::ShutdownAtEnd;
using redisson::test::subscribers_are;
namespace codecs = redisson::codecs;
using Strings = std::vector<std::string>;

namespace {

class BoundedBlockingQueueTest : public redisson::test::ServerTest {
 protected:
  BoundedBlockingQueue<std::string> queue(const std::string& name) {
    return BoundedBlockingQueue<std::string>(client, name, codecs::string());
  }
  std::string capacity_left(const std::string& name) {
    return server.command({"GET", "redisson_bqs:{" + name + "}"});
  }
  Strings elements(const std::string& name) {
    auto q = queue(name);
    return q.read_all();
  }
};

TEST_F(BoundedBlockingQueueTest, HoldsAtMostItsCapacity) {
  auto q = queue("bq");
  expect_error(errc::not_initialized, [&] { q.offer("a"); });
  EXPECT_EQ(server.command({"EXISTS", "bq"}), "0");
  EXPECT_EQ(q.remaining_capacity(), 0);
  EXPECT_TRUE(q.try_set_capacity(2));
  EXPECT_FALSE(q.try_set_capacity(5));
  EXPECT_EQ(capacity_left("bq"), "2");
  EXPECT_TRUE(q.offer("a"));
  EXPECT_TRUE(q.offer("b"));
  EXPECT_FALSE(q.offer("c"));
  EXPECT_EQ(q.remaining_capacity(), 0);
  EXPECT_EQ(q.peek(), "a");
  EXPECT_EQ(q.poll(), "a");
  EXPECT_EQ(q.remaining_capacity(), 1);
  EXPECT_FALSE(q.add_all({"c", "d"}));  // only one place: none of them goes in
  EXPECT_EQ(elements("bq"), (Strings{"b"}));
  EXPECT_TRUE(q.add_all({"c"}));
  EXPECT_FALSE(q.add_all({}));
  EXPECT_EQ(elements("bq"), (Strings{"b", "c"}));
  EXPECT_EQ(q.remaining_capacity(), 0);
  EXPECT_TRUE(q.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "bq", "redisson_bqs:{bq}"}), "0");
}

TEST_F(BoundedBlockingQueueTest, PutWaitsForTheRoomATakeMakes) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(1));
  ASSERT_TRUE(q.offer("x"));
  auto put = q.async_put("y", asio::use_future);
  // The putter tried, found no room and sleeps on the capacity's channel.
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:redisson_bqs:{bq}", 1));
  EXPECT_EQ(q.take(), "x");
  ASSERT_EQ(put.wait_for(10s), std::future_status::ready);
  put.get();
  EXPECT_EQ(elements("bq"), (Strings{"y"}));
  EXPECT_EQ(q.remaining_capacity(), 0);
}

TEST_F(BoundedBlockingQueueTest, APutWaitsForACapacitySetLater) {
  auto q = queue("bq");
  auto put = q.async_put("y", asio::use_future);
  // No capacity yet is an error, not a wait (Redisson's script refuses it the same way).
  ASSERT_EQ(put.wait_for(10s), std::future_status::ready);
  expect_error(errc::not_initialized, [&] { put.get(); });
}

TEST_F(BoundedBlockingQueueTest, OfferWithAWaitGivesUpOrGetsIn) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(1));
  ASSERT_TRUE(q.offer("x"));
  EXPECT_FALSE(q.offer("z", 20ms));
  expect_error(errc::invalid_argument, [&] { q.offer("z", -1ms); });
  auto offered = q.async_offer("z", 30s, asio::use_future);
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:redisson_bqs:{bq}", 1));
  EXPECT_EQ(q.poll(), "x");
  ASSERT_EQ(offered.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(offered.get());
  EXPECT_EQ(elements("bq"), (Strings{"z"}));
}

TEST_F(BoundedBlockingQueueTest, CancellingAPutAddsNothing) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(1));
  ASSERT_TRUE(q.offer("x"));
  asio::cancellation_signal signal;
  auto put = q.async_put("y", asio::bind_cancellation_slot(signal.slot(), asio::use_future));
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:redisson_bqs:{bq}", 1));
  signal.emit(asio::cancellation_type::terminal);
  ASSERT_EQ(put.wait_for(10s), std::future_status::ready);
  EXPECT_THROW(put.get(), std::system_error);
  EXPECT_EQ(q.poll(), "x");
  EXPECT_EQ(elements("bq"), Strings{});
  EXPECT_EQ(q.remaining_capacity(), 1);
}

TEST_F(BoundedBlockingQueueTest, EveryTakeGivesItsPlaceBack) {
  auto q = queue("{b}q");
  ASSERT_TRUE(q.try_set_capacity(8));
  ASSERT_TRUE(q.add_all({"1", "2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_EQ(q.take(), "1");
  EXPECT_EQ(q.remaining_capacity(), 1);
  EXPECT_EQ(q.poll(1s), "2");
  EXPECT_EQ(q.remaining_capacity(), 2);
  EXPECT_EQ(q.poll_from_any(1s, {"{b}other"}), (std::pair<std::string, std::string>{"{b}q", "3"}));
  EXPECT_EQ(q.poll_last_from_any(1s, {"{b}other"}),
            (std::pair<std::string, std::string>{"{b}q", "8"}));
  EXPECT_EQ(q.remaining_capacity(), 4);
  auto first = q.poll_first_from_any(1s, 2, {"{b}other"});
  ASSERT_TRUE(first);
  EXPECT_EQ(first->second, (Strings{"4", "5"}));
  EXPECT_EQ(q.remaining_capacity(), 6);
  EXPECT_EQ(q.take_last_and_offer_first_to("{b}dest"), "7");
  EXPECT_EQ(q.poll_last_and_offer_first_to("{b}dest", 1s), "6");
  EXPECT_EQ(q.remaining_capacity(), 8);
  EXPECT_EQ(server.command({"LRANGE", "{b}dest", "0", "-1"}), "6\n7");
  // Nothing there: nothing given back.
  EXPECT_EQ(q.poll(10ms), std::nullopt);
  EXPECT_EQ(q.poll(), std::nullopt);
  EXPECT_EQ(q.remaining_capacity(), 8);
  // An element of another queue leaves this one's capacity alone.
  server.command({"RPUSH", "{b}other", "o"});
  EXPECT_EQ(q.poll_from_any(1s, {"{b}other"}),
            (std::pair<std::string, std::string>{"{b}other", "o"}));
  EXPECT_EQ(q.remaining_capacity(), 8);
}

TEST_F(BoundedBlockingQueueTest, EveryRemovalGivesThePlacesBack) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(10));
  ASSERT_TRUE(q.add_all({"a", "b", "a", "c", "d", "e", "f", "g"}));
  EXPECT_EQ(q.remaining_capacity(), 2);
  EXPECT_TRUE(q.remove("a"));
  EXPECT_FALSE(q.remove("zz"));
  EXPECT_EQ(q.remaining_capacity(), 3);
  EXPECT_EQ(q.remove_all({"a", "b"}), 2);
  EXPECT_EQ(q.remaining_capacity(), 5);
  EXPECT_TRUE(q.retain_all({"c", "d", "e", "f"}));
  EXPECT_FALSE(q.retain_all({"c", "d", "e", "f"}));
  EXPECT_EQ(q.remaining_capacity(), 6);
  Strings drained;
  EXPECT_EQ(q.drain_to(drained, 1), 1);
  EXPECT_EQ(drained, (Strings{"c"}));
  expect_error(errc::invalid_argument, [&] { q.drain_to(drained, 0); });
  EXPECT_EQ(q.drain_to(drained), 3);
  EXPECT_EQ(drained, (Strings{"c", "d", "e", "f"}));
  EXPECT_EQ(q.remaining_capacity(), 10);
  ASSERT_TRUE(q.add_all({"x", "y"}));
  q.clear();
  EXPECT_EQ(server.command({"EXISTS", "bq"}), "0");
  EXPECT_EQ(q.remaining_capacity(), 10);
}

TEST_F(BoundedBlockingQueueTest, ItsScriptsAreQueuedInABatchAndItsWaitsRefused) {
  redisson::Batch batch(client);
  auto q = batch.get<BoundedBlockingQueue<std::string>>("bq", codecs::string());
  auto set = q.async_try_set_capacity(2, asio::use_future);
  auto offered = q.async_offer("a", asio::use_future);
  auto left = q.async_remaining_capacity(asio::use_future);
  auto polled = q.async_poll(asio::use_future);
  auto waited = q.async_offer("b", 1s, asio::use_future);
  EXPECT_EQ(server.command({"EXISTS", "redisson_bqs:{bq}"}), "0");  // nothing sent yet
  batch.execute();
  EXPECT_TRUE(set.get());
  EXPECT_TRUE(offered.get());
  EXPECT_EQ(left.get(), 1);
  EXPECT_EQ(polled.get(), "a");
  expect_error(errc::invalid_argument, [&] { waited.get(); });
  EXPECT_EQ(capacity_left("bq"), "2");
}

TEST_F(BoundedBlockingQueueTest, KeysOfAnotherTypeFailAndChangeNothing) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(3));
  server.command({"SET", "bq", "text"});
  expect_error(errc::wrong_type, [&] { q.offer("a"); });
  expect_error(errc::wrong_type, [&] { q.poll(); });
  expect_error(errc::wrong_type, [&] { q.remove("a"); });
  EXPECT_EQ(capacity_left("bq"), "3");
  EXPECT_EQ(server.command({"GET", "bq"}), "text");
  server.command({"DEL", "bq"});
  server.command({"SET", "redisson_bqs:{bq}", "many"});
  expect_error(errc::wrong_type, [&] { q.offer("a"); });
  expect_error(errc::wrong_type, [&] { q.remaining_capacity(); });
  EXPECT_EQ(server.command({"EXISTS", "bq"}), "0");
  expect_error(errc::invalid_argument, [&] { q.try_set_capacity(0); });
}

TEST_F(BoundedBlockingQueueTest, SubscribedTakesGiveThePlacesBack) {
  auto q = queue("bq");
  ASSERT_TRUE(q.try_set_capacity(3));
  std::mutex mutex;
  Strings seen;
  ShutdownAtEnd stop(client);
  const auto id = q.subscribe_on_elements([&](std::string element) {
    std::lock_guard lock(mutex);
    seen.push_back(std::move(element));
  });
  ASSERT_TRUE(q.add_all({"a", "b", "c"}));
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return seen.size() == 3;
  }));
  ASSERT_TRUE(eventually([&] { return q.remaining_capacity() == 3; }));
  EXPECT_TRUE(q.unsubscribe(id));
  EXPECT_EQ(seen, (Strings{"a", "b", "c"}));
}

// Java Redisson's side, as its scripts leave the keys: the capacity left in
// `redisson_bqs:{name}` as decimal text, changes published on its semaphore channel (a Java
// putter waits there). A queue Java filled is read and refilled here within its capacity.
TEST_F(BoundedBlockingQueueTest, SharesJavaRedissonsLayout) {
  // Java's queue of capacity 1, full: its offer took the one place (DECRBY) and pushed.
  server.command({"SET", "redisson_bqs:{jq}", "0"});
  server.command({"RPUSH", "jq", "from-java"});
  auto q = queue("jq");
  EXPECT_FALSE(q.offer("full"));
  redisson::test::Messages messages;
  auto subscription = client.subscribe("redisson_sc:redisson_bqs:{jq}", messages.sink());
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:redisson_bqs:{jq}", 1));
  EXPECT_EQ(q.take(), "from-java");
  EXPECT_EQ(capacity_left("jq"), "1");
  ASSERT_TRUE(eventually([&] { return messages.get() == Strings{"1"}; }));
  EXPECT_TRUE(q.offer("from-cpp"));
  EXPECT_EQ(capacity_left("jq"), "0");
  EXPECT_EQ(server.command({"LRANGE", "jq", "0", "-1"}), "from-cpp");
}

}  // namespace

}  // namespace collections_bounded_blocking_queue_test
