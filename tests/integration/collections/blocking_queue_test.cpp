// BlockingQueue<T> and BlockingDeque<T> against a real redis-server: waits that end with an
// element or with nothing, on dedicated connections (the shared one stays free), cancellation,
// a bounded pool, a server restart under a waiting consumer, shutdown, and concurrent producers
// and consumers that lose and duplicate nothing.
#include "redisson/objects/blocking_queue.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace collections_blocking_queue_test {

using namespace std::chrono_literals;
using redisson::BlockingDeque;
using redisson::BlockingQueue;
using redisson::Client;
using redisson::errc;
using redisson::ListEnd;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::ShutdownAtEnd;
namespace codecs = redisson::codecs;

namespace {

/// How many clients the server has blocked in a command now (INFO clients).
int blocked_clients(redisson::test::RedisServer& server) {
  const auto info = server.command({"INFO", "clients"});
  const auto at = info.find("blocked_clients:");
  return at == std::string::npos ? -1 : std::stoi(info.substr(at + 16));
}

class BlockingQueueTest : public redisson::test::ServerTest {
 protected:
  BlockingQueue<std::string> queue(const std::string& name) {
    return BlockingQueue<std::string>(client, name, codecs::string());
  }
};

TEST_F(BlockingQueueTest, TakeWaitsForAnElementOfferedLater) {
  auto consumer = queue("q");
  auto taken = std::async(std::launch::async, [&] { return consumer.take(); });
  EXPECT_EQ(taken.wait_for(200ms), std::future_status::timeout);
  Client producer_client(config_for(server));
  BlockingQueue<std::string>(producer_client, "q", codecs::string()).offer("job");
  EXPECT_EQ(taken.get(), "job");
  EXPECT_EQ(server.command({"EXISTS", "q"}), "0");
}

TEST_F(BlockingQueueTest, PollEndsWithNothingWhenTheWaitEnds) {
  auto q = queue("q");
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(q.poll(300ms), std::nullopt);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 250ms);
  EXPECT_EQ(q.poll(0ms), std::nullopt);
  q.offer("a");
  EXPECT_EQ(q.poll(0ms), "a");
  q.offer("b");
  EXPECT_EQ(q.poll(5s), "b");
  expect_error(errc::invalid_argument, [&] { q.poll(-1ms); });
}

TEST_F(BlockingQueueTest, AWaitingConsumerLeavesTheSharedConnectionFree) {
  auto q = queue("q");
  auto waiting = q.async_take(asio::use_future);
  // Commands on the shared connection are answered while the take blocks its own connection.
  for (int i = 0; i < 20; ++i) EXPECT_EQ(q.size(), 0);
  EXPECT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  q.offer("x");
  EXPECT_EQ(waiting.get(), "x");
}

TEST_F(BlockingQueueTest, PollFromAnyNamesTheQueue) {
  auto a = queue("{g}a");
  auto b = queue("{g}b");
  EXPECT_EQ(a.poll_from_any(100ms, {"{g}b"}), std::nullopt);
  b.offer("from-b");
  const auto got = a.poll_from_any(1s, {"{g}b", "{g}c"});
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->first, "{g}b");
  EXPECT_EQ(got->second, "from-b");
}

TEST_F(BlockingQueueTest, PollFirstAndLastFromAnyTakeSeveralFromOneQueue) {
  auto a = queue("{q}a");
  auto b = queue("{q}b");
  b.add_all({"1", "2", "3", "4"});
  using Taken = std::pair<std::string, std::vector<std::string>>;
  EXPECT_EQ(a.poll_first_from_any(1s, 2, {"{q}b"}), (Taken{"{q}b", {"1", "2"}}));
  EXPECT_EQ(a.poll_last_from_any(1s, 5, {"{q}b"}), (Taken{"{q}b", {"4", "3"}}));
  a.add_all({"x", "y"});
  EXPECT_EQ(a.poll_last_from_any(1s, {"{q}b"}), (std::pair<std::string, std::string>{"{q}a", "y"}));
  EXPECT_EQ(a.poll_first_from_any(1s, 1, {}), (Taken{"{q}a", {"x"}}));
  // Nothing anywhere: the server's wait ends with nil.
  EXPECT_EQ(a.poll_first_from_any(50ms, 1, {"{q}b"}), std::nullopt);
  EXPECT_EQ(a.poll_last_from_any(50ms, {"{q}b"}), std::nullopt);
  // One waiting is woken by an element offered later.
  auto waiting =
      std::async(std::launch::async, [&] { return a.poll_first_from_any(10s, 3, {"{q}b"}); });
  Client producer(config_for(server));
  BlockingQueue<std::string>(producer, "{q}b", codecs::string()).add_all({"late"});
  EXPECT_EQ(waiting.get(), (Taken{"{q}b", {"late"}}));
  b.add("kept");
  expect_error(errc::invalid_argument, [&] { a.poll_first_from_any(1s, 0, {"{q}b"}); });
  expect_error(errc::invalid_argument, [&] { a.poll_last_from_any(-1ms, 1, {"{q}b"}); });
  EXPECT_EQ(b.size(), 1);
}

TEST_F(BlockingQueueTest, SubscribeOnElementsHandsEveryElementOverUntilUnsubscribed) {
  auto jobs = queue("jobs");
  std::mutex mutex;
  std::vector<std::string> seen;
  const ShutdownAtEnd stop{client};  // before what the consumer uses goes
  const auto id = jobs.subscribe_on_elements([&](std::string job) {
    std::lock_guard lock(mutex);
    seen.push_back(std::move(job));
  });
  Client producer(config_for(server));
  BlockingQueue<std::string> from_producer(producer, "jobs", codecs::string());
  for (const char* job : {"a", "b", "c"}) from_producer.offer(job);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return seen.size() == 3;
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(jobs.unsubscribe(id));
  EXPECT_FALSE(jobs.unsubscribe(id));
  // Its BLPOP is ended on the server: what comes next stays in the queue.
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 0; }));
  from_producer.offer("after");
  EXPECT_EQ(jobs.read_all(), std::vector<std::string>{"after"});
  std::lock_guard lock(mutex);
  EXPECT_EQ(seen.size(), 3u);
}

TEST_F(BlockingQueueTest, NothingIsLostOrDuplicatedWhenASubscriptionStops) {
  // Subscriptions stopped while another client offers: an element the server handed to a pop
  // in the instant its subscription stopped goes back to the end it came from, so everything
  // offered is either seen once or still in the deque.
  BlockingDeque<std::string> deque(client, "d", codecs::string());
  std::mutex mutex;
  std::multiset<std::string> seen;
  const ShutdownAtEnd stop{client};  // before what the consumers use goes
  Client producer(config_for(server));
  BlockingDeque<std::string> from_producer(producer, "d", codecs::string());
  int offered = 0;
  for (int round = 0; round < 20; ++round) {
    auto consume = [&](std::string value) {
      std::lock_guard lock(mutex);
      seen.insert(std::move(value));
    };
    const auto id = round % 2 == 0 ? deque.subscribe_on_first_elements(consume)
                                   : deque.subscribe_on_last_elements(consume);
    auto offering = std::async(std::launch::async, [&, round] {
      for (int n = 0; n < 5; ++n) {
        from_producer.offer(std::to_string(round) + ":" + std::to_string(n));
      }
    });
    if (round % 3 != 0) std::this_thread::yield();
    EXPECT_TRUE(deque.unsubscribe(id));
    offering.get();
    offered += 5;
  }
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 0; }));
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return static_cast<int>(seen.size()) + deque.size() == offered;
  })) << seen.size()
      << " seen, " << deque.size() << " left of " << offered;
  std::lock_guard lock(mutex);
  for (const auto& value : deque.read_all()) EXPECT_EQ(seen.count(value), 0u) << value;
  for (const auto& value : seen) EXPECT_EQ(seen.count(value), 1u) << value;
}

TEST_F(BlockingQueueTest, ASubscriptionReportsWhatFailsAndGoesOn) {
  std::mutex mutex;
  std::vector<redisson::error> reported;
  std::vector<std::string> seen;
  auto config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.push_back(failure);
  };
  Client own(config);
  BlockingDeque<std::string> deque(own, "d", codecs::string());
  const ShutdownAtEnd stop{own};  // before what the consumer uses goes
  deque.subscribe_on_first_elements([&](std::string value) {
    if (value == "bad") throw std::runtime_error("refused");
    std::lock_guard lock(mutex);
    seen.push_back(std::move(value));
  });
  deque.add_all({"bad", "good"});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return seen.size() == 1 && reported.size() == 1;
  }));
  EXPECT_EQ(reported[0].code(), errc::listener_failed);
  // A key of another type: the pop fails, is reported, and is tried again after a second.
  server.command({"SET", "s", "text"});
  EXPECT_THROW(deque.subscribe_on_first_elements({}), redisson::error);
  BlockingQueue<std::string> other(own, "s", codecs::string());
  const auto id = other.subscribe_on_elements([](const std::string&) {});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return reported.size() >= 2;
  }));
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(reported[1].code(), errc::wrong_type);
  }
  EXPECT_TRUE(other.unsubscribe(id));
  EXPECT_EQ(server.command({"GET", "s"}), "text");
}

TEST_F(BlockingQueueTest, MovesAndDrains) {
  auto q = queue("{m}src");
  EXPECT_EQ(q.poll_last_and_offer_first_to("{m}dst", 100ms), std::nullopt);
  q.offer("1");
  q.offer("2");
  EXPECT_EQ(q.poll_last_and_offer_first_to("{m}dst", 1s), "2");
  EXPECT_EQ(q.take_last_and_offer_first_to("{m}dst"), "1");
  auto dst = queue("{m}dst");
  EXPECT_EQ(dst.range(0, -1), (std::vector<std::string>{"1", "2"}));
  std::vector<std::string> drained{"x"};
  EXPECT_EQ(dst.drain_to(drained, 10), 2);
  EXPECT_EQ(drained, (std::vector<std::string>{"x", "1", "2"}));
  EXPECT_EQ(dst.drain_to(drained, 10), 0);
}

TEST_F(BlockingQueueTest, DequeWaitsAtEitherEnd) {
  BlockingDeque<std::string> deque(client, "{d}a", codecs::string());
  EXPECT_EQ(deque.poll_last(100ms), std::nullopt);
  deque.add_all({"1", "2", "3"});
  EXPECT_EQ(deque.take_last(), "3");
  EXPECT_EQ(deque.take_first(), "1");
  EXPECT_EQ(deque.move("{d}b", ListEnd::head, ListEnd::tail, 1s), "2");
  EXPECT_EQ(deque.move("{d}b", ListEnd::head, ListEnd::tail, 50ms), std::nullopt);
  EXPECT_EQ(deque.poll_first(50ms), std::nullopt);
  EXPECT_EQ(deque.poll_last(), std::nullopt);  // the non-waiting form is still there
}

TEST_F(BlockingQueueTest, AWrongTypeKeyFailsAndIsLeftAlone) {
  server.command({"SET", "str", "x"});
  auto q = queue("str");
  expect_error(errc::wrong_type, [&] { q.take(); });
  expect_error(errc::wrong_type, [&] { q.poll(1s); });
  EXPECT_EQ(server.command({"GET", "str"}), "x");
}

TEST_F(BlockingQueueTest, CancellingATakeEndsItOnTheServerAndLosesNothing) {
  auto q = queue("q");
  asio::cancellation_signal signal;
  auto taken = q.async_take(asio::bind_cancellation_slot(signal.slot(), asio::use_future));
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  signal.emit(asio::cancellation_type::terminal);
  try {
    taken.get();
    FAIL() << "a cancelled take returned an element";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), asio::error::operation_aborted);
  }
  // Nothing is blocked any more, so an element offered now stays for the next consumer.
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 0; }));
  q.offer("kept");
  EXPECT_EQ(server.command({"LRANGE", "q", "0", "-1"}), "kept");
}

TEST_F(BlockingQueueTest, ABusyPoolMakesTheNextCallWaitThenSaySo) {
  auto config = config_for(server);
  config.blocking_connections = 1;
  config.command_timeout = 500ms;
  Client small(config);
  BlockingQueue<std::string> q(small, "q", codecs::string());
  auto first = q.async_poll(3s, asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  // The second waits for the one connection, longer than its own wait: the pool was the
  // bottleneck, and the error says so.
  expect_error(errc::timeout, [&] { q.poll(100ms); });
  // A third that can wait gets the connection once the first is answered.
  auto third = q.async_poll(10s, asio::use_future);
  q.offer("a");
  q.offer("b");
  EXPECT_EQ(first.get(), "a");
  EXPECT_EQ(third.get(), "b");
  auto bad = config_for(server);
  bad.blocking_connections = 0;
  expect_error(errc::invalid_argument, [&] { Client refused(bad); });
}

TEST_F(BlockingQueueTest, ATakeSurvivesAServerRestart) {
  auto q = queue("q");
  auto taken = q.async_take(asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  server.stop();
  std::this_thread::sleep_for(300ms);
  server.start();
  // The take is sent again on a new connection once the server is back.
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  server.command({"RPUSH", "q", "after-restart"});
  ASSERT_EQ(taken.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(taken.get(), "after-restart");
}

TEST_F(BlockingQueueTest, ShutdownEndsAWaitingTake) {
  auto own = std::make_unique<Client>(config_for(server));
  BlockingQueue<std::string> q(*own, "q", codecs::string());
  auto taken = q.async_take(asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  own.reset();
  ASSERT_EQ(taken.wait_for(5s), std::future_status::ready);
  try {
    taken.get();
    FAIL() << "a take ended by shutdown returned an element";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), redisson::make_error_code(errc::shutdown));
  }
}

TEST_F(BlockingQueueTest, ProducersAndConsumersLoseAndDuplicateNothing) {
  constexpr int kProducers = 3;
  constexpr int kConsumers = 4;
  constexpr int kEach = 300;
  std::vector<std::unique_ptr<Client>> clients;
  for (int i = 0; i < kProducers + kConsumers; ++i) {
    clients.push_back(std::make_unique<Client>(config_for(server)));
  }
  std::mutex mutex;
  std::multiset<std::string> received;
  std::atomic<int> left{kProducers * kEach};
  std::vector<std::thread> threads;
  for (int c = 0; c < kConsumers; ++c) {
    threads.emplace_back([&, c] {
      BlockingQueue<std::string> q(*clients[kProducers + c], "work", codecs::string());
      while (left.load() > 0) {
        if (auto job = q.poll(100ms)) {
          std::lock_guard lock(mutex);
          received.insert(*job);
          --left;
        }
      }
    });
  }
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      BlockingQueue<std::string> q(*clients[p], "work", codecs::string());
      for (int i = 0; i < kEach; ++i) q.offer(std::to_string(p) + ":" + std::to_string(i));
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(received.size(), static_cast<std::size_t>(kProducers * kEach));
  for (int p = 0; p < kProducers; ++p) {
    for (int i = 0; i < kEach; ++i) {
      EXPECT_EQ(received.count(std::to_string(p) + ":" + std::to_string(i)), 1U);
    }
  }
}

}  // namespace

}  // namespace collections_blocking_queue_test
