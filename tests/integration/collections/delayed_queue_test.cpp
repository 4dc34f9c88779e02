// DelayedQueue<T> against a real redis-server: elements reach the destination once due, in due
// order, moved by whichever client holds a handle; Java Redisson's delayed elements (the
// fixtures) are moved by us, and ours have Java's framing.
#include "redisson/objects/delayed_queue.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "redisson/objects/blocking_queue.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_delayed_queue_test {

using namespace std::chrono_literals;
using redisson::BlockingQueue;
using redisson::Client;
using redisson::DelayedQueue;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class DelayedQueueTest : public redisson::test::ServerTest {};

TEST_F(DelayedQueueTest, AnElementReachesTheDestinationOnceDue) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  BlockingQueue<std::string> jobs(client, "jobs", codecs::string());
  delayed.offer("later", 300ms);
  EXPECT_EQ(delayed.size(), 1);
  EXPECT_EQ(jobs.size(), 0);
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "1");
  EXPECT_EQ(jobs.poll(10s), "later");
  EXPECT_EQ(delayed.size(), 0);
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "0");
}

TEST_F(DelayedQueueTest, ElementsArriveInDueOrder) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  BlockingQueue<std::string> jobs(client, "jobs", codecs::string());
  delayed.offer("second", 800ms);
  delayed.offer("first", 200ms);  // becomes the head: its message wakes the task earlier
  delayed.offer("now", 0ms);
  EXPECT_EQ(jobs.poll(10s), "now");
  EXPECT_EQ(jobs.poll(10s), "first");
  EXPECT_EQ(jobs.poll(10s), "second");
}

TEST_F(DelayedQueueTest, AnotherClientMovesWhatAClientThatLeftOffered) {
  Client mover(config_for(server));
  DelayedQueue<std::string> watching(mover, "jobs", codecs::string());
  {
    Client offerer(config_for(server));
    DelayedQueue<std::string>(offerer, "jobs", codecs::string()).offer("orphan", 300ms);
  }
  EXPECT_EQ(BlockingQueue<std::string>(client, "jobs", codecs::string()).poll(10s), "orphan");
}

TEST_F(DelayedQueueTest, RemoveSizeDeleteAndBadInput) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  delayed.offer("a", 1h);
  delayed.offer("b", 1h);
  delayed.offer("a", 1h);
  EXPECT_EQ(delayed.size(), 3);
  EXPECT_TRUE(delayed.remove("a"));
  EXPECT_FALSE(delayed.remove("zzz"));
  EXPECT_EQ(delayed.size(), 2);
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "2");
  expect_error(errc::invalid_argument, [&] { delayed.offer("x", -1ms); });
  EXPECT_EQ(delayed.size(), 2);
  EXPECT_TRUE(delayed.delete_object());
  EXPECT_EQ(server.command(
                {"EXISTS", "redisson_delay_queue:{jobs}", "redisson_delay_queue_timeout:{jobs}"}),
            "0");
  expect_error(errc::invalid_argument,
               [&] { DelayedQueue<std::string> none(client, "", codecs::string()); });
}

TEST_F(DelayedQueueTest, OurElementsHaveRedissonsFraming) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  delayed.offer("abc", 1h);
  const auto element = to_hex(server.command({"LINDEX", "redisson_delay_queue:{jobs}", "0"}));
  // 08, 8 random bytes, the length as a little-endian unsigned long, the value's bytes.
  ASSERT_EQ(element.size(), 2u * (1 + 8 + 8 + 3));
  EXPECT_EQ(element.substr(0, 2), "08");
  EXPECT_EQ(element.substr(18), "0300000000000000616263");
  const auto score =
      std::stoll(server.command({"ZSCORE", "redisson_delay_queue_timeout:{jobs}",
                                 server.command({"LINDEX", "redisson_delay_queue:{jobs}", "0"})}));
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  EXPECT_NEAR(static_cast<double>(score), static_cast<double>(now + 3'600'000), 60'000.0);
}

TEST_F(DelayedQueueTest, ReadsWhatWaitsInOfferOrder) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  EXPECT_TRUE(delayed.empty());
  EXPECT_EQ(delayed.peek(), std::nullopt);
  EXPECT_TRUE(delayed.read_all().empty());
  delayed.offer("late", 2h);
  delayed.offer("early", 1h);  // due first, but the list keeps offer order, as Redisson's
  delayed.offer("late", 3h);
  EXPECT_FALSE(delayed.empty());
  EXPECT_EQ(delayed.peek(), "late");
  EXPECT_EQ(delayed.read_all(), (std::vector<std::string>{"late", "early", "late"}));
  std::vector<std::string> paged;
  for (const auto& value : delayed.values(2)) paged.push_back(value);
  EXPECT_EQ(paged, delayed.read_all());
  EXPECT_TRUE(delayed.contains("early"));
  EXPECT_FALSE(delayed.contains("never"));
  EXPECT_TRUE(delayed.contains_all({"early", "late", "late"}));
  EXPECT_FALSE(delayed.contains_all({"early", "never"}));
  EXPECT_TRUE(delayed.contains_all({}));
  EXPECT_EQ(delayed.size(), 3);  // reads change nothing
}

TEST_F(DelayedQueueTest, PollTakesBackFromTheHeadWithItsDueTime) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  EXPECT_EQ(delayed.poll(), std::nullopt);
  for (const char* value : {"a", "b", "c", "d"}) delayed.offer(value, 1h);
  EXPECT_EQ(delayed.poll(), "a");
  EXPECT_EQ(delayed.poll(2), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(delayed.poll(5), (std::vector<std::string>{"d"}));
  EXPECT_TRUE(delayed.poll(1).empty());
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "0");
  delayed.offer("e", 1h);
  expect_error(errc::invalid_argument, [&] { delayed.poll(0); });
  EXPECT_EQ(delayed.size(), 1);
}

TEST_F(DelayedQueueTest, PollLastAndOfferFirstToMovesTheLastValueAtOnce) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  delayed.offer("first", 1h);
  delayed.offer("last", 1h);
  server.command({"RPUSH", "urgent", "x"});
  EXPECT_EQ(delayed.poll_last_and_offer_first_to("urgent"), "last");
  EXPECT_EQ(server.command({"LRANGE", "urgent", "0", "-1"}), "last\nx");
  EXPECT_EQ(delayed.read_all(), std::vector<std::string>{"first"});
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "1");
  delayed.poll();
  EXPECT_EQ(delayed.poll_last_and_offer_first_to("urgent"), std::nullopt);
  // A destination of another type fails in the script and takes nothing back.
  delayed.offer("kept", 1h);
  server.command({"SET", "text", "v"});
  expect_error(errc::wrong_type, [&] { delayed.poll_last_and_offer_first_to("text"); });
  EXPECT_EQ(delayed.read_all(), std::vector<std::string>{"kept"});
}

TEST_F(DelayedQueueTest, RemoveAllAndRetainAllDropDueTimesToo) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  BlockingQueue<std::string> jobs(client, "jobs", codecs::string());
  for (const char* value : {"a", "b", "a", "c", "d"}) delayed.offer(value, 1h);
  server.command({"PEXPIRE", "redisson_delay_queue:{jobs}", "3600000"});
  EXPECT_EQ(delayed.remove_all({"a", "zzz"}), 2);
  EXPECT_EQ(delayed.remove_all({}), 0);
  EXPECT_EQ(delayed.read_all(), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_FALSE(delayed.retain_all({"b", "c", "d"}));
  EXPECT_TRUE(delayed.retain_all({"c"}));
  EXPECT_EQ(delayed.read_all(), std::vector<std::string>{"c"});
  EXPECT_EQ(server.command({"ZCARD", "redisson_delay_queue_timeout:{jobs}"}), "1");
  EXPECT_NE(server.command({"PTTL", "redisson_delay_queue:{jobs}"}), "-1");  // TTL kept
  // What was dropped is never delivered: make every due time past, start another client's
  // transfer (its first pass moves all that is due in one script) and see only "c" arrive.
  server.command({"EVAL",
                  "for _, e in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do "
                  "redis.call('zadd', KEYS[1], 1, e) end",
                  "1", "redisson_delay_queue_timeout:{jobs}"});
  Client mover(config_for(server));
  DelayedQueue<std::string> moving(mover, "jobs", codecs::string());
  EXPECT_EQ(jobs.poll(10s), "c");
  EXPECT_EQ(jobs.size(), 0);
  delayed.offer("z", 1h);
  EXPECT_TRUE(delayed.retain_all({}));  // none kept: both keys deleted, as Redisson
  EXPECT_EQ(server.command(
                {"EXISTS", "redisson_delay_queue:{jobs}", "redisson_delay_queue_timeout:{jobs}"}),
            "0");
}

TEST_F(DelayedQueueTest, AnElementWithoutRedissonsFramingIsACodecError) {
  DelayedQueue<std::string> delayed(client, "jobs", codecs::string());
  server.command({"RPUSH", "redisson_delay_queue:{jobs}", "not framed"});
  expect_error(errc::codec_error, [&] { delayed.peek(); });
  expect_error(errc::codec_error, [&] { delayed.read_all(); });
  EXPECT_EQ(delayed.size(), 1);
  server.command({"DEL", "redisson_delay_queue:{jobs}"});
  server.command({"SET", "redisson_delay_queue:{jobs}", "text"});
  expect_error(errc::wrong_type, [&] { delayed.read_all(); });
  expect_error(errc::wrong_type, [&] { delayed.contains("a"); });
}

class JavaDelayedQueueTest : public redisson::test::ServerTest {
 protected:
  void SetUp() override { redisson::test::load_java_fixtures(server); }
};

TEST_F(JavaDelayedQueueTest, MovesJavasDelayedElementsWhenDue) {
  for (const char* name : {"delayedqueue_kryo", "delayedqueue_string"}) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const std::string destination = fixture["key"];
    const auto codec = redisson::test::codec_of_case(fixture);
    const auto timeouts = "redisson_delay_queue_timeout:{" + destination + "}";
    // Java filed "a" an hour ahead; make it due now, as an hour passing would.
    const auto element =
        server.command({"LINDEX", "redisson_delay_queue:{" + destination + "}", "0"});
    server.command({"ZADD", timeouts, "XX", "1", element});
    DelayedQueue<std::string> delayed(client, destination, codec);
    EXPECT_EQ(BlockingQueue<std::string>(client, destination, codec).poll(10s), "a");
    EXPECT_EQ(delayed.size(), 0);
    // And an element we file has Java's framing around the same value bytes.
    delayed.offer("a", 1h);
    const auto ours =
        to_hex(server.command({"LINDEX", "redisson_delay_queue:{" + destination + "}", "0"}));
    const auto& java = redisson::test::java_dump_entry("redisson_delay_queue:{" + destination +
                                                       "}")["content"][0]["hex"]
                           .get<std::string>();
    EXPECT_EQ(ours.substr(0, 2), java.substr(0, 2));
    EXPECT_EQ(ours.substr(18), java.substr(18));
  }
}

TEST_F(JavaDelayedQueueTest, ReadsAndTakesBackJavasWaitingElements) {
  for (const char* name : {"delayedqueue_kryo", "delayedqueue_string"}) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const std::string destination = fixture["key"];
    // Java filed "a" an hour after the fixtures were made: keep it waiting, whatever the date.
    const auto timeouts = "redisson_delay_queue_timeout:{" + destination + "}";
    server.command({"ZADD", timeouts, "XX", "32503680000000",
                    server.command({"LINDEX", "redisson_delay_queue:{" + destination + "}", "0"})});
    DelayedQueue<std::string> delayed(client, destination, redisson::test::codec_of_case(fixture));
    EXPECT_EQ(delayed.peek(), "a");
    EXPECT_EQ(delayed.read_all(), std::vector<std::string>{"a"});
    EXPECT_TRUE(delayed.contains("a"));
    EXPECT_EQ(delayed.poll(), "a");
    EXPECT_EQ(server.command({"ZCARD", timeouts}), "0");
  }
}

}  // namespace

}  // namespace collections_delayed_queue_test
