// Topic, PatternTopic and ShardedTopic against a real redis-server: what publish and the
// listeners send (PUBLISH/SPUBLISH, SUBSCRIBE/PSUBSCRIBE/SSUBSCRIBE), the payload bytes Java
// Redisson 3.52 publishes (services fixtures), listener threads, status after a reconnect, and
// bad input.
#include "redisson/objects/topic.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_topic_test {

using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::ListenerId;
using redisson::PatternTopic;
using redisson::ShardedTopic;
using redisson::Topic;
using redisson::TopicStatus;
using redisson::Value;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::RedisServer;
using redisson::test::ShutdownAtEnd;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class TopicTest : public redisson::test::ServerTest {};

// What listeners received, readable while more arrive.
template <class T>
struct Inbox {
  std::mutex mutex;
  std::vector<std::pair<std::string, T>> messages;
  std::vector<std::thread::id> threads;

  auto listener() {
    return [this](std::string_view channel, T message) {
      std::lock_guard lock(mutex);
      messages.emplace_back(std::string(channel), std::move(message));
      threads.push_back(std::this_thread::get_id());
    };
  }
  std::size_t size() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
  std::pair<std::string, T> at(std::size_t i) {
    std::lock_guard lock(mutex);
    return messages.at(i);
  }
};

// The channel's subscriber count as the server sees it.
std::int64_t numsub(const RedisServer& server, const char* kind, const std::string& channel) {
  const auto text = server.command({"PUBSUB", kind, channel});
  return std::stoll(text.substr(text.find('\n') + 1));
}

TEST_F(TopicTest, PublishReachesListenersAndCountsReceivers) {
  Topic<std::string> topic(client, "news", codecs::string());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  const auto id = topic.add_listener(inbox.listener());
  EXPECT_NE(id, 0u);
  EXPECT_EQ(numsub(server, "NUMSUB", "news"), 1);
  EXPECT_EQ(topic.count_subscribers(), 1);
  EXPECT_EQ(topic.count_listeners(), 1);
  EXPECT_EQ(topic.channel_names(), std::vector<std::string>{"news"});

  EXPECT_EQ(topic.publish("first"), 1);
  EXPECT_EQ(topic.publish("second"), 1);
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  EXPECT_EQ(inbox.at(0), std::make_pair(std::string("news"), std::string("first")));
  EXPECT_EQ(inbox.at(1).second, "second");

  EXPECT_TRUE(topic.remove_listener(id));
  EXPECT_FALSE(topic.remove_listener(id)) << "a second remove finds nothing";
  EXPECT_EQ(topic.count_listeners(), 0);
  ASSERT_TRUE(eventually([&] { return numsub(server, "NUMSUB", "news") == 0; }))
      << "the last listener unsubscribes";
  EXPECT_EQ(topic.publish("unheard"), 0);
}

TEST_F(TopicTest, ListenersRunOffTheIoThreadInOrderOneAtATime) {
  // Kryo keeps the Java type: a Long reaches a Topic<std::int64_t> listener as one.
  Topic<std::int64_t> topic(client, "ordered", codecs::kryo5());
  std::mutex mutex;
  std::vector<std::int64_t> seen;
  std::atomic<int> running{0};
  std::atomic<bool> overlapped{false};
  std::atomic<bool> on_io{false};
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  topic.add_listener([&](std::string_view, std::int64_t n) {
    if (running.fetch_add(1) != 0) overlapped = true;
    // A blocking call from the I/O thread fails with would_deadlock: from a listener it works.
    try {
      topic.count_subscribers();
    } catch (const redisson::error& e) {
      if (e.code() == errc::would_deadlock) on_io = true;
    }
    {
      std::lock_guard lock(mutex);
      seen.push_back(n);
    }
    running.fetch_sub(1);
  });
  std::vector<std::future<std::int64_t>> published;
  for (std::int64_t i = 0; i < 200; ++i)
    published.push_back(topic.async_publish(i, asio::use_future));
  for (auto& receivers : published) EXPECT_EQ(receivers.get(), 1);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return seen.size() == 200;
  }));
  std::lock_guard lock(mutex);
  for (std::int64_t i = 0; i < 200; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)], i);
  EXPECT_FALSE(overlapped) << "one listener's calls never overlap";
  EXPECT_FALSE(on_io) << "a listener never runs on the I/O thread";
}

TEST_F(TopicTest, ASlowListenerDoesNotStallTheClient) {
  Topic<std::string> topic(client, "slow", codecs::string());
  std::mutex mutex;
  std::condition_variable cv;
  bool release = false;
  std::atomic<int> calls{0};
  // Lets the stuck listener go however the test ends (a failed assertion returns early).
  const auto let_go = [&] {
    {
      std::lock_guard lock(mutex);
      release = true;
    }
    cv.notify_all();
  };
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  std::shared_ptr<void> guard(nullptr, [&](void*) { let_go(); });
  topic.add_listener([&](std::string_view, const std::string&) {
    ++calls;
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return release; });
  });
  topic.publish("one");
  ASSERT_TRUE(eventually([&] { return calls == 1; }));
  // The listener is stuck: commands, and other listeners, still go through.
  Inbox<std::string> other;
  Topic<std::string> second(client, "other", codecs::string());
  second.add_listener(other.listener());
  EXPECT_EQ(second.publish("still moving"), 1);
  ASSERT_TRUE(eventually([&] { return other.size() == 1; }));
}

TEST_F(TopicTest, JavaPayloadBytesAndTypeFilter) {
  // Java's RTopic (Kryo5Codec) published "hello" and 7L as these bytes.
  const auto& java = java_service_case("topic_kryo");
  Topic<Value> topic(client, "fx2:topic_kryo", codecs::kryo5());
  Client other(config_for(server));
  redisson::test::Messages raw;
  auto subscription = other.subscribe("fx2:topic_kryo", raw.sink());
  topic.publish(Value::string("hello"));
  topic.publish(Value::long_int(7));
  ASSERT_TRUE(eventually([&] { return raw.get().size() == 2; }));
  EXPECT_EQ(to_hex(raw.get()[0]), java.at("encoded_hex").at(0).get<std::string>());
  EXPECT_EQ(to_hex(raw.get()[1]), java.at("encoded_hex").at(1).get<std::string>());

  // Java's bytes reach a typed listener decoded; a message of another type is skipped.
  Topic<std::string> strings(client, "fx2:topic_kryo", codecs::kryo5());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  strings.add_listener(inbox.listener());
  for (const auto& hex : java.at("encoded_hex")) {
    server.command({"PUBLISH", "fx2:topic_kryo", from_hex(hex.get<std::string>())});
  }
  server.command({"PUBLISH", "fx2:topic_kryo", from_hex("0368656c6cef")});
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  EXPECT_EQ(inbox.at(0).second, "hello");
  EXPECT_EQ(inbox.at(1).second, "hello") << "the Long between them is not a String: skipped";
}

TEST_F(TopicTest, PatternTopicHearsMatchingChannelsWithTheirNames) {
  const auto& java = java_service_case("patterntopic_string");
  PatternTopic<std::string> pattern(client, "fx2:patterntopic_string.*", codecs::string());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  pattern.add_listener(inbox.listener());
  EXPECT_EQ(server.command({"PUBSUB", "NUMPAT"}), "1");
  EXPECT_EQ(pattern.pattern_names(), std::vector<std::string>{"fx2:patterntopic_string.*"});
  Topic<std::string> a(client, "fx2:patterntopic_string.a", codecs::string());
  EXPECT_EQ(a.publish("hello"), 1) << "the pattern subscriber received it";
  Topic<std::string>(client, "elsewhere", codecs::string()).publish("not matching");
  ASSERT_TRUE(eventually([&] { return inbox.size() == 1; }));
  EXPECT_EQ(inbox.at(0).first, "fx2:patterntopic_string.a");
  EXPECT_EQ(inbox.at(0).second, java.at("values").at(0).get<std::string>());
  // A listener on the same text as a plain channel is another subscription.
  Topic<std::string> literal(client, "fx2:patterntopic_string.*", codecs::string());
  EXPECT_EQ(literal.count_listeners(), 0);
  EXPECT_EQ(pattern.count_listeners(), 1);
  EXPECT_EQ(pattern.remove_all_listeners(), 1);
  ASSERT_TRUE(eventually([&] { return server.command({"PUBSUB", "NUMPAT"}) == "0"; }));
}

TEST_F(TopicTest, PatternTopicListsActiveTopics) {
  Topic<std::string> a(client, "act.a", codecs::string());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  a.add_listener(inbox.listener());
  PatternTopic<std::string> pattern(client, "act.*", codecs::string());
  EXPECT_EQ(pattern.active_topics(), std::vector<std::string>{"act.a"});
}

TEST_F(TopicTest, ShardedTopicUsesSpublishAndSsubscribe) {
  const auto& java = java_service_case("shardedtopic_kryo");
  ShardedTopic<Value> topic(client, "fx2:shardedtopic_kryo", codecs::kryo5());
  Inbox<Value> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  topic.add_listener(inbox.listener());
  EXPECT_EQ(numsub(server, "SHARDNUMSUB", "fx2:shardedtopic_kryo"), 1);
  EXPECT_EQ(numsub(server, "NUMSUB", "fx2:shardedtopic_kryo"), 0) << "not a plain SUBSCRIBE";
  EXPECT_EQ(topic.count_subscribers(), 1);
  EXPECT_EQ(topic.publish(Value::string("hello")), 1);
  // Java's SPUBLISH bytes, received as Java wrote them.
  server.command({"SPUBLISH", "fx2:shardedtopic_kryo",
                  from_hex(java.at("encoded_hex").at(1).get<std::string>())});
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  EXPECT_EQ(inbox.at(0).second, Value::string("hello"));
  EXPECT_EQ(inbox.at(1).second, Value::long_int(7));
  // A plain PUBLISH on the same name does not reach a sharded subscriber.
  Topic<Value>(client, "fx2:shardedtopic_kryo", codecs::kryo5()).publish(Value::string("plain"));
  EXPECT_EQ(topic.publish(Value::string("last")), 1);
  ASSERT_TRUE(eventually([&] { return inbox.size() == 3; }));
  EXPECT_EQ(inbox.at(2).second, Value::string("last"));
}

TEST_F(TopicTest, StatusListenerHearsTheSubscriptionAndAReconnect) {
  Topic<std::string> topic(client, "watched", codecs::string());
  std::mutex mutex;
  std::vector<TopicStatus> statuses;
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  topic.add_status_listener([&](TopicStatus status, std::string_view channel) {
    EXPECT_EQ(channel, "watched");
    std::lock_guard lock(mutex);
    statuses.push_back(status);
  });
  topic.add_listener(inbox.listener());
  EXPECT_EQ(topic.count_listeners(), 2) << "a status listener counts";
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return statuses == std::vector<TopicStatus>{TopicStatus::subscribed};
  }));
  // The server drops the subscriber connection: the listener resumes on the new one.
  server.command({"CLIENT", "KILL", "TYPE", "pubsub"});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return statuses.size() == 3;
  }));
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(statuses[1], TopicStatus::interrupted);
    EXPECT_EQ(statuses[2], TopicStatus::resubscribed);
  }
  EXPECT_EQ(topic.publish("after"), 1);
  ASSERT_TRUE(eventually([&] { return inbox.size() == 1; }));
}

TEST_F(TopicTest, AThrowingListenerIsReportedAndKeepsListening) {
  std::mutex mutex;
  std::vector<std::string> reported;
  Config config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.emplace_back(failure.what());
    EXPECT_EQ(failure.code(), errc::listener_failed);
  };
  Client own(config);
  Topic<std::string> topic(own, "throwing", codecs::string());
  std::atomic<int> calls{0};
  const ShutdownAtEnd stop{own};  // before what listeners use goes
  topic.add_listener([&](std::string_view, const std::string& message) {
    ++calls;
    if (message == "bad") throw std::runtime_error("refused");
  });
  topic.publish("bad");
  topic.publish("good");
  ASSERT_TRUE(eventually([&] { return calls == 2; }));
  std::lock_guard lock(mutex);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].find("throwing"), std::string::npos) << reported[0];
  EXPECT_NE(reported[0].find("refused"), std::string::npos) << reported[0];
}

TEST_F(TopicTest, RemoveAllListenersLeavesOtherChannelsAndLockChannelsAlone) {
  Topic<std::string> a(client, "ra", codecs::string());
  Topic<std::string> b(client, "rb", codecs::string());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  a.add_listener(inbox.listener());
  a.add_listener(inbox.listener());
  b.add_listener(inbox.listener());
  EXPECT_EQ(a.count_listeners(), 2);
  EXPECT_EQ(a.remove_all_listeners(), 2);
  EXPECT_EQ(a.count_listeners(), 0);
  EXPECT_EQ(b.count_listeners(), 1);
  EXPECT_EQ(b.publish("x"), 1);
  ASSERT_TRUE(eventually([&] { return numsub(server, "NUMSUB", "ra") == 0; }));
}

TEST_F(TopicTest, AfterShutdownListenerCallsFailWithShutdown) {
  Client own(config_for(server));
  Topic<std::string> topic(own, "closed", codecs::string());
  own.shutdown();
  EXPECT_THROW(
      {
        try {
          topic.add_listener([](std::string_view, const std::string&) {});
        } catch (const redisson::error& e) {
          EXPECT_EQ(e.code(), errc::shutdown);
          throw;
        }
      },
      redisson::error);
}

TEST(TopicConfig, ListenerThreadsMustBePositive) {
  RedisServer server;
  Config config = config_for(server);
  config.listener_threads = 0;
  try {
    Client client(config);
    FAIL() << "listener_threads = 0 was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
}

}  // namespace
}  // namespace objects_topic_test
