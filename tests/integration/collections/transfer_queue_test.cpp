// TransferQueue against a real redis-server: producers and consumers in two clients, in Java
// Redisson's RTransferQueue layout (a RemoteService's request list and tasks hash), and the
// requests Java Redisson 3.52 stored (the services fixtures) read and written by C++.
#include "redisson/objects/transfer_queue.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/use_future.hpp>
#include <chrono>
#include <future>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "redisson/client.hpp"
#include "services/remote_wire.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace collections_transfer_queue_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::TransferQueue;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::java_service_monitor;
using redisson::test::ShutdownAtEnd;
namespace codecs = redisson::codecs;
namespace detail = redisson::detail;

namespace {

const std::string kList =
    "{{tq}:remoteService:org.redisson.RedissonTransferQueue$TransferQueueService}";
const std::string kTasks = kList + ":tasks";

class TransferQueueTest : public redisson::test::ServerTest {
 protected:
  Client consumer_client{config_for(server)};
};

TEST_F(TransferQueueTest, TransferReturnsOnceAnotherClientPolls) {
  const ShutdownAtEnd stop_consumer{consumer_client};
  TransferQueue<std::string> producer(client, "tq");
  TransferQueue<std::string> consumer(consumer_client, "tq");
  auto transferred = producer.async_transfer("x", asio::use_future);
  ASSERT_TRUE(eventually([&] { return consumer.size() == 1; })) << "queued as a remote call";
  EXPECT_EQ(server.command({"LLEN", kList}), "1");
  EXPECT_EQ(server.command({"HLEN", kTasks}), "1");
  EXPECT_EQ(transferred.wait_for(0s), std::future_status::timeout) << "no consumer yet";
  EXPECT_EQ(consumer.poll(), "x");
  transferred.get();  // answered by the consumer's poll
  EXPECT_EQ(consumer.size(), 0);
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
}

TEST_F(TransferQueueTest, TryTransferIsFalseWithNoConsumerAndLeavesNothingQueued) {
  TransferQueue<std::string> producer(client, "tq");
  EXPECT_FALSE(producer.try_transfer("z"));
  EXPECT_FALSE(producer.try_transfer("z", 50ms));
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
  EXPECT_TRUE(producer.is_empty());
}

TEST_F(TransferQueueTest, TryTransferWithAWaitIsTrueWhenAConsumerPollsWithinIt) {
  const ShutdownAtEnd stop_consumer{consumer_client};
  TransferQueue<std::string> producer(client, "tq");
  TransferQueue<std::string> consumer(consumer_client, "tq");
  auto transferred = producer.async_try_transfer("w", 30s, asio::use_future);
  EXPECT_EQ(consumer.poll(10s), "w");
  EXPECT_TRUE(transferred.get());
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
  // A consumer already waiting takes a try_transfer's element, unless it is taken back first:
  // whichever happens, it is handed over exactly once.
  auto polled = consumer.async_poll(10s, asio::use_future);
  const bool handed = producer.try_transfer("v", 10s);
  EXPECT_TRUE(handed) << "the waiting consumer took it within the wait";
  EXPECT_EQ(polled.get(), std::optional<std::string>("v"));
}

TEST_F(TransferQueueTest, ACancelledTransferIsTakenBack) {
  TransferQueue<std::string> producer(client, "tq");
  asio::cancellation_signal cancel;
  auto transferred =
      producer.async_transfer("c", asio::bind_cancellation_slot(cancel.slot(), asio::use_future));
  ASSERT_TRUE(eventually([&] { return producer.size() == 1; }));
  cancel.emit(asio::cancellation_type::terminal);
  try {
    transferred.get();
    ADD_FAILURE() << "a cancelled transfer returned";
  } catch (const std::system_error& aborted) {
    EXPECT_EQ(aborted.code(), asio::error::operation_aborted);
  }
  EXPECT_TRUE(eventually([&] { return producer.is_empty(); })) << "taken back";
  EXPECT_EQ(server.command({"HLEN", kTasks}), "0");
}

TEST_F(TransferQueueTest, AddedElementsAreReadPolledAndDrainedInOrder) {
  TransferQueue<std::string> queue(client, "tq");
  EXPECT_TRUE(queue.add("a"));
  EXPECT_TRUE(queue.offer("b"));
  queue.put("c");
  EXPECT_TRUE(queue.add_all({"d", "e"}));
  EXPECT_FALSE(queue.add_all({})) << "nothing to add";
  EXPECT_EQ(queue.size(), 5);
  EXPECT_FALSE(queue.is_empty());
  EXPECT_EQ(queue.peek(), "a");
  EXPECT_EQ(queue.read_all(), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  EXPECT_TRUE(queue.contains("c"));
  EXPECT_FALSE(queue.contains("q"));
  EXPECT_EQ(queue.remaining_capacity(), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(queue.poll(), "a");
  std::vector<std::string> into{"before"};
  EXPECT_EQ(queue.drain_to(into, 2), 2);
  EXPECT_EQ(into, (std::vector<std::string>{"before", "b", "c"}));
  EXPECT_EQ(queue.size(), 2);
  EXPECT_EQ(server.command({"HLEN", kTasks}), "2") << "drained requests gone";
  EXPECT_EQ(queue.drain_to(into), 2);
  EXPECT_EQ(into, (std::vector<std::string>{"before", "b", "c", "d", "e"}));
  EXPECT_EQ(queue.poll(), std::nullopt);
  EXPECT_EQ(queue.peek(), std::nullopt);
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
  queue.add("f");
  queue.clear();
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
  queue.add("g");
  EXPECT_TRUE(queue.delete_object());
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
  expect_error(
      errc::invalid_argument, [&] { queue.drain_to(into, 0); }, "drain_to of 0");
}

TEST_F(TransferQueueTest, TakeWaitsForAnElement) {
  const ShutdownAtEnd stop_consumer{consumer_client};
  TransferQueue<std::int32_t> consumer(consumer_client, "tq");
  auto taken = consumer.async_take(asio::use_future);
  TransferQueue<std::int32_t> producer(client, "tq");
  EXPECT_EQ(taken.wait_for(0s), std::future_status::timeout) << "nothing queued yet";
  producer.add(42);
  EXPECT_EQ(taken.get(), 42);
  EXPECT_EQ(consumer.poll(0ms), std::nullopt);
}

TEST_F(TransferQueueTest, BadInputIsAClearErrorThatChangesNothing) {
  expect_error(
      errc::invalid_argument, [&] { TransferQueue<std::string>(client, "tq", codecs::string()); },
      "the string codec cannot carry Java's request objects");
  TransferQueue<std::string> queue(client, "tq");
  expect_error(
      errc::invalid_argument, [&] { queue.try_transfer("x", -1ms); }, "a negative wait");
  expect_error(
      errc::invalid_argument, [&] { queue.poll(-1ms); }, "a negative poll wait");
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
  server.command({"SET", kList, "x"});
  expect_error(
      errc::wrong_type, [&] { queue.add("x"); }, "a string where the request list goes");
  expect_error(
      errc::wrong_type, [&] { queue.poll(); }, "poll of a string");
  expect_error(
      errc::wrong_type, [&] { queue.peek(); }, "peek of a string");
  std::vector<std::string> into;
  expect_error(
      errc::wrong_type, [&] { queue.drain_to(into); }, "drain of a string");
  EXPECT_EQ(server.command({"DBSIZE"}), "1");
  EXPECT_EQ(server.command({"GET", kList}), "x");
}

// Java's stored request of offer("y") (transferqueue_kryo's state_after), as Java left it.
struct JavaRequest {
  std::string list;
  std::string id;
  std::string bytes;
};

JavaRequest java_request() {
  const auto& stored = java_service_case("transferqueue_kryo").at("state_after");
  return JavaRequest{stored.at(0).at("key"), stored.at(0).at("content").at(0).at("text"),
                     from_hex(stored.at(1).at("content").at(0).at(1).at("hex").get<std::string>())};
}

TEST_F(TransferQueueTest, AJavaProducersElementIsReadAndTakenHere) {
  const auto java = java_request();
  const std::string name = java_service_case("transferqueue_kryo").at("key");
  ASSERT_EQ(
      java.list,
      "{{" + name + "}:remoteService:org.redisson.RedissonTransferQueue$TransferQueueService}");
  server.command({"HSET", java.list + ":tasks", java.id, java.bytes});
  server.command({"RPUSH", java.list, java.id});
  TransferQueue<std::string> queue(client, name);
  EXPECT_EQ(queue.size(), 1);
  EXPECT_EQ(queue.peek(), "y");
  EXPECT_EQ(queue.read_all(), std::vector<std::string>{"y"});
  EXPECT_TRUE(queue.contains("y"));
  EXPECT_EQ(queue.poll(), "y");
  // Answered as Java's tryExecute answers: a response on the Java producer's list.
  const auto request = detail::decode_remote_request(detail::RemoteWire::kryo5, java.bytes);
  const std::string responses = "{remote_response}:" + request.executor_id;
  EXPECT_EQ(server.command({"LLEN", responses}), "1");
  EXPECT_EQ(server.command({"EXISTS", java.list, java.list + ":tasks"}), "0");
  const auto answer = server.command({"LINDEX", responses, "0"});
  EXPECT_EQ(detail::decode_remote_reply(detail::RemoteWire::kryo5, answer),
            detail::RemoteReplyMessage(detail::RemoteResponse{request.id, {}, {}}));
  // The bytes are those of Java's consumer: its answer to transfer("x") (the MONITOR capture),
  // given that request's id.
  int compared = 0;
  for (const auto& row : java_service_monitor("transferqueue_kryo")) {
    if (!row.contains("args") || row.at("args").at(0).at("text") != "RPUSH") continue;
    ++compared;
    const auto java_answer = from_hex(row.at("args").at(2).at("hex").get<std::string>());
    const auto java_response = std::get<detail::RemoteResponse>(
        detail::decode_remote_reply(detail::RemoteWire::kryo5, java_answer));
    EXPECT_EQ(detail::encode_remote_response(detail::RemoteWire::kryo5,
                                             detail::RemoteResponse{java_response.id, {}, {}}),
              java_answer);
  }
  EXPECT_EQ(compared, 1) << "Java's consumer answered once";
}

TEST_F(TransferQueueTest, ACppElementIsStoredAsJavaStoresIt) {
  const auto java = detail::decode_remote_request(detail::RemoteWire::kryo5, java_request().bytes);
  TransferQueue<std::string> queue(client, "tq");
  queue.add("y");
  const auto id = server.command({"LINDEX", kList, "0"});
  const auto stored = server.command({"HGET", kTasks, id});
  const auto ours = detail::decode_remote_request(detail::RemoteWire::kryo5, stored);
  EXPECT_EQ(ours.id, id);
  EXPECT_EQ(ours.method_name, "invoke");
  EXPECT_EQ(ours.method_name, java.method_name);
  EXPECT_EQ(ours.signature, java.signature) << "invoke(java.lang.Object)";
  EXPECT_EQ(ours.args, java.args) << "Object[]{\"y\"} in Kryo";
  EXPECT_EQ(ours.options, java.options) << "no ack, 30 s execution timeout";
  EXPECT_NE(ours.executor_id, java.executor_id);
}

TEST_F(TransferQueueTest, RemoveAllTakesTheEqualElementsOutUnanswered) {
  TransferQueue<std::string> queue(client, "tq");
  EXPECT_TRUE(queue.add_all({"a", "b", "a", "c", "d"}));
  EXPECT_EQ(queue.remove_all({"a", "x"}), 2);
  EXPECT_EQ(queue.read_all(), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(server.command({"HLEN", kTasks}), "3") << "the removed requests' bytes gone too";
  EXPECT_EQ(queue.remove_all({"x"}), 0);
  EXPECT_EQ(queue.remove_all({}), 0) << "nothing to remove";
  EXPECT_EQ(queue.async_remove_all({"d"}, asio::use_future).get(), 1);
  // Java's removeIf: the predicate picks from read_all, remove_all takes those out.
  std::vector<std::string> picked;
  for (const auto& element : queue.read_all()) {
    if (element != "c") picked.push_back(element);
  }
  EXPECT_EQ(queue.remove_all(picked), 1);
  EXPECT_EQ(queue.read_all(), std::vector<std::string>{"c"});
  EXPECT_EQ(queue.poll(), "c");
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");

  // A request Java queued is taken out the same way.
  const auto java = java_request();
  server.command({"HSET", java.list + ":tasks", java.id, java.bytes});
  server.command({"RPUSH", java.list, java.id});
  TransferQueue<std::string> javas(client, java_service_case("transferqueue_kryo").at("key"));
  EXPECT_EQ(javas.remove_all({"y"}), 1);
  EXPECT_EQ(server.command({"EXISTS", java.list, java.list + ":tasks"}), "0");

  server.command({"SET", kList, "x"});
  expect_error(
      errc::wrong_type, [&] { queue.remove_all({"x"}); }, "remove_all of a string");
  EXPECT_EQ(server.command({"GET", kList}), "x");
}

/// How many clients the server has blocked in a command now (INFO clients).
int blocked_clients(redisson::test::RedisServer& server) {
  const auto info = server.command({"INFO", "clients"});
  const auto at = info.find("blocked_clients:");
  return at == std::string::npos ? -1 : std::stoi(info.substr(at + 16));
}

TEST_F(TransferQueueTest, ACancelledTakeOrPollEndsItsWaitAndLosesNoElement) {
  const ShutdownAtEnd stop_consumer{consumer_client};
  TransferQueue<std::string> consumer(consumer_client, "tq");
  TransferQueue<std::string> producer(client, "tq");
  asio::cancellation_signal signal;
  auto taken = consumer.async_take(asio::bind_cancellation_slot(signal.slot(), asio::use_future));
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 1; }));
  signal.emit(asio::cancellation_type::terminal);
  ASSERT_EQ(taken.wait_for(30s), std::future_status::ready) << "the cancel ended the wait";
  try {
    (void)taken.get();
    ADD_FAILURE() << "a cancelled take returned an element";
  } catch (const std::system_error& aborted) {
    EXPECT_EQ(aborted.code(), asio::error::operation_aborted);
  }
  // Its BLPOP is ended on the server: an element queued now waits for the next consumer.
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 0; }));
  producer.add("after take");
  EXPECT_EQ(producer.read_all(), std::vector<std::string>{"after take"});
  EXPECT_EQ(consumer.take(), "after take");

  asio::cancellation_signal poll_signal;
  auto polled =
      consumer.async_poll(60s, asio::bind_cancellation_slot(poll_signal.slot(), asio::use_future));
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 1; }));
  poll_signal.emit(asio::cancellation_type::terminal);
  ASSERT_EQ(polled.wait_for(30s), std::future_status::ready) << "the cancel ended the wait";
  try {
    (void)polled.get();
    ADD_FAILURE() << "a cancelled poll returned";
  } catch (const std::system_error& aborted) {
    EXPECT_EQ(aborted.code(), asio::error::operation_aborted);
  }
  ASSERT_TRUE(eventually([&] { return blocked_clients(server) == 0; }));
  auto transferred = producer.async_transfer("after poll", asio::use_future);
  EXPECT_EQ(consumer.poll(10s), "after poll") << "taken by the next consumer, not lost";
  transferred.get();  // and its producer answered
  EXPECT_EQ(server.command({"EXISTS", kList, kTasks}), "0");
}

}  // namespace

}  // namespace collections_transfer_queue_test
