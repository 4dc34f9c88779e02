// ReliableTopic against a real redis-server: Java Redisson 3.52's layout and bytes (services
// fixtures: the stream entries, the group, the {name}:timeout zset), delivery once and in order
// across a reconnect and a restart of the subscriber, redelivery of what a crashed subscriber
// left pending, the removal of expired subscribers and trimming, the watchdog, and bad input.
#include "redisson/objects/reliable_topic.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_reliable_topic_test {

using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::errc;
using redisson::ReliableTopic;
using redisson::Reply;
using redisson::Value;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::ShutdownAtEnd;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;
using namespace std::chrono_literals;

namespace {

class ReliableTopicTest : public redisson::test::ServerTest {
 protected:
  Reply raw(const std::vector<std::string>& args) {
    Command command{args.front()};
    for (std::size_t i = 1; i < args.size(); ++i) command.arg(args[i]);
    return client.execute(command);
  }
  // XINFO GROUPS as {name, last-delivered-id, pending} per group.
  struct Group {
    std::string name;
    std::string last_delivered;
    std::int64_t pending = 0;
  };
  std::vector<Group> groups(const std::string& stream) {
    std::vector<Group> result;
    for (const auto& group : raw({"XINFO", "GROUPS", stream}).elements) {
      Group item;
      for (std::size_t i = 0; i + 1 < group.elements.size(); i += 2) {
        const auto field = group.elements[i].text();
        const auto& value = group.elements[i + 1];
        if (field == "name") item.name = value.str;
        if (field == "last-delivered-id") item.last_delivered = value.str;
        if (field == "pending") item.pending = value.integer;
      }
      result.push_back(item);
    }
    return result;
  }
  std::int64_t xlen(const std::string& stream) { return raw({"XLEN", stream}).integer; }
};

// What a listener received, readable while more arrive.
template <class T>
struct Inbox {
  std::mutex mutex;
  std::vector<T> messages;

  auto listener() {
    return [this](std::string_view, T message) {
      std::lock_guard lock(mutex);
      messages.push_back(std::move(message));
    };
  }
  std::size_t size() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
  std::vector<T> get() {
    std::lock_guard lock(mutex);
    return messages;
  }
};

// Closes every connection of the clients named `name` (CLIENT LIST, CLIENT KILL ID).
void kill_clients_named(const redisson::test::RedisServer& server, const std::string& name) {
  const auto list = server.command({"CLIENT", "LIST"});
  std::size_t line_start = 0;
  while (line_start < list.size()) {
    auto line_end = list.find('\n', line_start);
    if (line_end == std::string::npos) line_end = list.size();
    const auto line = list.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (line.find(" name=" + name + " ") == std::string::npos) continue;
    const auto id = line.substr(3, line.find(' ') - 3);  // "id=<n> ..."
    server.command({"CLIENT", "KILL", "ID", id});
  }
}

bool is_hex32(const std::string& text) {
  return text.size() == 32 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

TEST_F(ReliableTopicTest, JavasLayoutAndBytesFromSubscribeToRemove) {
  const auto& java = java_service_case("reliabletopic_kryo");
  const std::string name = "fx2:reliabletopic_kryo";
  ReliableTopic<Value> topic(client, name, codecs::kryo5());
  Inbox<Value> inbox;
  const ShutdownAtEnd stop{client};  // before what listeners use goes
  const auto started_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
  const auto id = topic.add_listener(inbox.listener());
  const auto added_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  EXPECT_NE(id, 0u);

  // As Java left it after addListener: an empty stream with one group "<32 hex>" at 0-0, and
  // the group's deadline (now + 600000 ms) in {name}:timeout.
  EXPECT_EQ(raw({"TYPE", name}).str, "stream");
  auto after_add = groups(name);
  ASSERT_EQ(after_add.size(), 1u);
  EXPECT_TRUE(is_hex32(after_add[0].name)) << after_add[0].name;
  EXPECT_EQ(after_add[0].last_delivered, "0-0");
  const auto java_group =
      java.at("state_after_addListener").at("timeout_zset").at("content").at(0).at(0).at("text");
  EXPECT_EQ(java_group.get<std::string>().size(), after_add[0].name.size());
  const auto timeout_key = java.at("timeout_key").get<std::string>();
  EXPECT_EQ(timeout_key, "{" + name + "}:timeout");
  const auto score = std::stoll(raw({"ZSCORE", timeout_key, after_add[0].name}).str);
  // Set between the call and its return: now + the watchdog timeout (600000 ms).
  EXPECT_GE(score, started_ms + 600000);
  EXPECT_LE(score, added_ms + 600000);

  // publish: field m, Java's bytes; the answer is the subscribers (groups).
  EXPECT_EQ(topic.publish(Value::string("hello")), 1);
  EXPECT_EQ(topic.publish(Value::long_int(7)), 1);
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  EXPECT_EQ(inbox.get()[0], Value::string("hello"));
  EXPECT_EQ(inbox.get()[1], Value::long_int(7));

  // Both delivered and acknowledged: nothing pending, the stream trimmed empty (Java's
  // state_after_both_delivered), the key kept.
  ASSERT_TRUE(eventually([&] { return xlen(name) == 0; }));
  ASSERT_TRUE(eventually([&] { return groups(name).at(0).pending == 0; }));
  EXPECT_EQ(topic.size(), 0);
  EXPECT_EQ(topic.count_subscribers(), java.at("countSubscribers").get<std::int64_t>());
  EXPECT_EQ(topic.count_listeners(), java.at("countListeners").get<std::int64_t>());

  // removeAllListeners: the group and its deadline go; the empty stream stays (as Java's).
  EXPECT_EQ(topic.remove_all_listeners(), 1);
  EXPECT_TRUE(groups(name).empty());
  EXPECT_EQ(raw({"ZCARD", timeout_key}).integer, 0);
  EXPECT_EQ(raw({"TYPE", name}).str, "stream");
  EXPECT_EQ(topic.count_listeners(), 0);
  EXPECT_FALSE(topic.remove_listener(id));
  EXPECT_EQ(topic.publish(Value::string("unheard")), 0);
}

TEST_F(ReliableTopicTest, PublishWritesJavasEntryBytes) {
  const auto& java = java_service_case("reliabletopic_kryo");
  const std::string name = "fx2:reliabletopic_kryo";
  ReliableTopic<Value> topic(client, name, codecs::kryo5());
  EXPECT_EQ(topic.publish(Value::string("hello")), 0) << "no subscriber yet";
  topic.publish(Value::long_int(7));
  const auto entries = raw({"XRANGE", name, "-", "+"});
  ASSERT_EQ(entries.elements.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& fields = entries.elements[i].elements.at(1).elements;
    ASSERT_EQ(fields.size(), 2u);
    EXPECT_EQ(fields[0].str, "m");
    EXPECT_EQ(to_hex(fields[1].str), java.at("encoded_hex").at(i).get<std::string>());
  }
  EXPECT_EQ(topic.size(), 2);
  EXPECT_EQ(topic.count_subscribers(), 0);
}

TEST_F(ReliableTopicTest, JavaEntriesReachATypedListenerAndOtherTypesAreSkipped) {
  const auto& java = java_service_case("reliabletopic_kryo");
  const std::string name = "java-entries";
  ReliableTopic<std::string> topic(client, name, codecs::kryo5());
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};
  topic.add_listener(inbox.listener());
  // As Java's publish script writes them: "hello", 7L, "hello".
  for (const auto& hex : java.at("encoded_hex")) {
    raw({"XADD", name, "*", "m", from_hex(hex.get<std::string>())});
  }
  raw({"XADD", name, "*", "m", from_hex(java.at("encoded_hex").at(0).get<std::string>())});
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  EXPECT_EQ(inbox.get(), (std::vector<std::string>{"hello", "hello"}));
  ASSERT_TRUE(eventually([&] { return xlen(name) == 0; })) << "the Long is acknowledged too";
}

TEST_F(ReliableTopicTest, ARestartedSubscriberGetsWhatWasPublishedWhileItWasAwayOnceInOrder) {
  const std::string name = "restart";
  Client publisher(config_for(server));
  ReliableTopic<std::int64_t> out(publisher, name, codecs::kryo5());
  std::mutex mutex;
  std::vector<std::int64_t> seen;
  auto record = [&](std::string_view, std::int64_t n) {
    std::lock_guard lock(mutex);
    seen.push_back(n);
  };
  auto count = [&] {
    std::lock_guard lock(mutex);
    return seen.size();
  };
  {
    Client worker(config_for(server));
    const ShutdownAtEnd stop{worker};
    ReliableTopic<std::int64_t> in =
        ReliableTopic<std::int64_t>(worker, name, codecs::kryo5()).as_subscriber("worker-1");
    EXPECT_EQ(in.subscriber_id(), "worker-1");
    in.add_listener(record);
    for (std::int64_t i = 0; i < 50; ++i) out.publish(i);
    ASSERT_TRUE(eventually([&] { return count() == 50; }));
  }  // the worker shuts down; its subscriber stays registered (deadline in 10 minutes)
  EXPECT_EQ(out.count_subscribers(), 1);
  for (std::int64_t i = 50; i < 100; ++i) EXPECT_EQ(out.publish(i), 1);
  EXPECT_EQ(out.size(), 50) << "kept for the subscriber that is away";
  {
    Client worker(config_for(server));
    const ShutdownAtEnd stop{worker};
    ReliableTopic<std::int64_t>(worker, name, codecs::kryo5())
        .as_subscriber("worker-1")
        .add_listener(record);
    for (std::int64_t i = 100; i < 120; ++i) out.publish(i);
    ASSERT_TRUE(eventually([&] { return count() == 120; }));
  }
  std::lock_guard lock(mutex);
  for (std::int64_t i = 0; i < 120; ++i) ASSERT_EQ(seen[static_cast<std::size_t>(i)], i);
}

TEST_F(ReliableTopicTest, ReconnectingLosesAndRepeatsNothing) {
  const std::string name = "reconnect";
  Config config = config_for(server);
  config.client_name = "reliable-subscriber";
  Client worker(config);
  Inbox<std::int64_t> inbox;
  const ShutdownAtEnd stop{worker};
  ReliableTopic<std::int64_t>(worker, name, codecs::kryo5()).add_listener(inbox.listener());
  ReliableTopic<std::int64_t> out(client, name, codecs::kryo5());
  for (std::int64_t i = 0; i < 300; ++i) {
    out.publish(i);
    if (i % 60 == 30) kill_clients_named(server, "reliable-subscriber");
  }
  ASSERT_TRUE(eventually([&] { return inbox.size() >= 300; }, 20s));
  const auto got = inbox.get();
  ASSERT_EQ(got.size(), 300u);
  for (std::int64_t i = 0; i < 300; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], i);
}

TEST_F(ReliableTopicTest, WhatACrashedSubscriberLeftPendingIsDeliveredAgain) {
  const std::string name = "crashed";
  ReliableTopic<std::string> topic(client, name, codecs::string());
  // A subscriber "crashed" after reading two entries without acknowledging them.
  raw({"XGROUP", "CREATE", name, "crashed-1", "0", "MKSTREAM"});
  raw({"ZADD", "{" + name + "}:timeout", "99999999999999", "crashed-1"});
  topic.publish("one");
  topic.publish("two");
  raw({"XREADGROUP", "GROUP", "crashed-1", "consumer", "STREAMS", name, ">"});
  topic.publish("three");
  ASSERT_EQ(groups(name).at(0).pending, 2);

  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};
  topic.as_subscriber("crashed-1").add_listener(inbox.listener());
  ASSERT_TRUE(eventually([&] { return inbox.size() == 3; }));
  EXPECT_EQ(inbox.get(), (std::vector<std::string>{"one", "two", "three"}));
  ASSERT_TRUE(eventually([&] { return groups(name).at(0).pending == 0 && xlen(name) == 0; }));
}

TEST_F(ReliableTopicTest, ExpiredSubscribersAreRemovedAndTheStreamTrimmedToTheSlowest) {
  const std::string name = "trimmed";
  const std::string timeouts = "{" + name + "}:timeout";
  ReliableTopic<std::string> topic(client, name, codecs::string());
  // A dead subscriber (deadline passed) and a slow live one, both behind.
  raw({"XGROUP", "CREATE", name, "dead", "0", "MKSTREAM"});
  raw({"ZADD", timeouts, "1", "dead"});
  raw({"XGROUP", "CREATE", name, "slow", "0"});
  raw({"ZADD", timeouts, "99999999999999", "slow"});
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{client};
  topic.add_listener(inbox.listener());
  EXPECT_EQ(topic.publish("a"), 3);
  EXPECT_EQ(topic.publish("b"), 3);
  ASSERT_TRUE(eventually([&] { return inbox.size() == 2; }));
  ASSERT_TRUE(eventually([&] { return groups(name).size() == 2; })) << "the dead one removed";
  EXPECT_EQ(raw({"ZSCORE", timeouts, "dead"}).type, redisson::ReplyType::null);
  EXPECT_EQ(xlen(name), 2) << "kept for the slow one";
  // The slow one reads one entry and acknowledges it: the next update trims that one.
  raw({"XREADGROUP", "GROUP", "slow", "consumer", "COUNT", "1", "STREAMS", name, ">"});
  EXPECT_EQ(xlen(name), 2) << "delivered but unacknowledged entries are kept";
  const auto first =
      raw({"XRANGE", name, "-", "+", "COUNT", "1"}).elements.at(0).elements.at(0).str;
  raw({"XACK", name, "slow", first});
  topic.publish("c");
  ASSERT_TRUE(eventually([&] { return inbox.size() == 3; }));
  ASSERT_TRUE(eventually([&] { return xlen(name) == 2; })) << "b and c are the slow one's";
}

TEST_F(ReliableTopicTest, TheWatchdogRenewsAndASubscriberFoundRemovedIsReportedAndGoesOn) {
  std::mutex mutex;
  std::vector<redisson::error> reported;
  Config config = config_for(server);
  config.reliable_topic_watchdog_timeout = 900ms;  // renewed every 300 ms
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.push_back(failure);
  };
  Client worker(config);
  const std::string name = "watched";
  const std::string timeouts = "{" + name + "}:timeout";
  Inbox<std::string> inbox;
  const ShutdownAtEnd stop{worker};
  ReliableTopic<std::string>(worker, name, codecs::string()).add_listener(inbox.listener());
  const auto group = groups(name).at(0).name;
  const auto first = std::stoll(raw({"ZSCORE", timeouts, group}).str);
  ASSERT_TRUE(eventually([&] {
    return std::stoll(raw({"ZSCORE", timeouts, group}).str) > first;
  })) << "renewed";

  // Another subscriber removed it (as after a long partition): reported, registered again.
  raw({"XGROUP", "DESTROY", name, group});
  raw({"ZREM", timeouts, group});
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !reported.empty();
  }));
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(reported[0].code(), errc::subscriber_expired) << reported[0].what();
    EXPECT_NE(std::string(reported[0].what()).find(name), std::string::npos);
  }
  ASSERT_TRUE(eventually([&] { return groups(name).size() == 1; }));
  ReliableTopic<std::string>(client, name, codecs::string()).publish("after");
  ASSERT_TRUE(eventually([&] { return inbox.size() == 1; }));
}

TEST_F(ReliableTopicTest, ListenersOfOneClientShareOneSubscriberAndAThrowIsReported) {
  std::mutex mutex;
  std::vector<std::string> reported;
  Config config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.emplace_back(failure.what());
  };
  Client worker(config);
  Inbox<std::string> first;
  std::atomic<int> calls{0};
  const ShutdownAtEnd stop{worker};
  ReliableTopic<std::string> topic(worker, "shared", codecs::string());
  const auto a = topic.add_listener(first.listener());
  const auto b = topic.add_listener([&](std::string_view, const std::string& message) {
    ++calls;
    if (message == "bad") throw std::runtime_error("refused");
  });
  EXPECT_EQ(topic.count_listeners(), 2);
  EXPECT_EQ(topic.count_subscribers(), 1) << "one subscriber per client and topic";
  topic.publish("bad");
  topic.publish("good");
  ASSERT_TRUE(eventually([&] { return first.size() == 2 && calls == 2; }));
  {
    std::lock_guard lock(mutex);
    ASSERT_EQ(reported.size(), 1u);
    EXPECT_NE(reported[0].find("refused"), std::string::npos) << reported[0];
  }
  EXPECT_TRUE(topic.remove_listener(b));
  EXPECT_EQ(topic.count_subscribers(), 1) << "a listener is left";
  EXPECT_TRUE(topic.remove_listener(a));
  EXPECT_EQ(topic.count_subscribers(), 0) << "the last listener removes the subscriber";
}

TEST_F(ReliableTopicTest, TwoClientsEachGetEveryMessage) {
  Client other(config_for(server));
  Inbox<std::string> here;
  Inbox<std::string> there;
  const ShutdownAtEnd stop_here{client};
  const ShutdownAtEnd stop_there{other};
  ReliableTopic<std::string>(client, "both", codecs::string()).add_listener(here.listener());
  ReliableTopic<std::string>(other, "both", codecs::string()).add_listener(there.listener());
  ReliableTopic<std::string> topic(client, "both", codecs::string());
  for (int i = 0; i < 20; ++i) EXPECT_EQ(topic.publish(std::to_string(i)), 2);
  ASSERT_TRUE(eventually([&] { return here.size() == 20 && there.size() == 20; }));
  EXPECT_EQ(here.get(), there.get());
}

TEST_F(ReliableTopicTest, AKeyOfAnotherTypeIsRefusedAndLeftAlone) {
  raw({"SET", "taken", "value"});
  ReliableTopic<std::string> topic(client, "taken", codecs::string());
  try {
    topic.add_listener([](std::string_view, const std::string&) {});
    FAIL() << "a string key was taken as a stream";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type) << e.what();
  }
  EXPECT_EQ(topic.count_listeners(), 0);
  EXPECT_EQ(raw({"EXISTS", "{taken}:timeout"}).integer, 0) << "nothing registered";
  EXPECT_THROW(topic.publish("x"), redisson::error);
  EXPECT_EQ(raw({"GET", "taken"}).str, "value");
}

TEST(ReliableTopicConfig, WatchdogTimeoutMustBePositive) {
  Config config;
  config.reliable_topic_watchdog_timeout = 0ms;
  try {
    Client client(config);
    FAIL() << "a zero watchdog timeout was accepted";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
}

}  // namespace objects_reliable_topic_test
