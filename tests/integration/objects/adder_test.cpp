// LongAdder and DoubleAdder against a real redis-server: instances of several clients summing
// and resetting together, timeouts, failures reported, and Java Redisson 3.52's side of the
// protocol played by hand (its channel, message text, counter and semaphore keys).
#include "redisson/objects/adder.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/topic.hpp"
#include "redisson/semaphore.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_adder_test {

using redisson::Client;
using redisson::Config;
using redisson::DoubleAdder;
using redisson::errc;
using redisson::LongAdder;
using redisson::Semaphore;
using redisson::Topic;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;
using namespace std::chrono_literals;

namespace {

class AdderTest : public redisson::test::ServerTest {
 protected:
  Client other{config_for(server)};

  std::int64_t numsub(const std::string& channel) const {
    const auto text = server.command({"PUBSUB", "NUMSUB", channel});
    return std::stoll(text.substr(text.find('\n') + 1));
  }
  // The keys of the server besides the semaphores' retry latches (which expire by themselves):
  // none should be left after a call.
  std::string keys() const {
    std::string left;
    std::istringstream lines(server.command({"KEYS", "*"}));
    for (std::string key; std::getline(lines, key);) {
      if (key == "(empty array)" || key.starts_with("redisson_release_latch:") ||
          key.starts_with("redisson_acquire_latch:")) {
        continue;
      }
      left += key + "\n";
    }
    return left;
  }
};

// What Java's listener would have heard, and a way to answer like it.
struct FakeJava {
  std::mutex mutex;
  std::vector<std::string> messages;

  std::vector<std::string> heard() {
    std::lock_guard lock(mutex);
    return messages;
  }
};

TEST_F(AdderTest, InstancesOfTwoClientsAddingConcurrentlySumToTheTotal) {
  LongAdder a(client, "hits");
  LongAdder b(other, "hits");
  LongAdder a2(client, "hits");  // a second instance on the same client shares its subscription
  EXPECT_EQ(numsub("{hits}:adder-topic"), 2);

  std::vector<std::thread> threads;
  for (auto* adder : {&a, &b, &a2}) {
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([adder] {
        for (int i = 0; i < 1000; ++i) adder->increment();
        adder->add(10);
        adder->decrement();
      });
    }
  }
  for (auto& thread : threads) thread.join();

  const std::int64_t total = 3 * 2 * (1000 + 10 - 1);
  EXPECT_EQ(a.sum(), total);
  EXPECT_EQ(b.sum(5s), total);                             // counts are kept, not moved
  EXPECT_EQ(a2.async_sum(asio::use_future).get(), total);  // the async form
  EXPECT_EQ(keys(), "");                                   // no key outlives a call
}

TEST_F(AdderTest, ResetZeroesEveryInstance) {
  LongAdder a(client, "resets");
  LongAdder b(other, "resets");
  a.add(5);
  b.add(7);
  ASSERT_EQ(b.sum(), 12);

  a.reset();
  EXPECT_EQ(b.sum(), 0);
  b.add(3);
  b.async_reset(5000ms, asio::use_future).get();
  EXPECT_EQ(a.sum(), 0);
  a.add(1);
  a.reset(5s);
  EXPECT_EQ(b.sum(), 0);
  EXPECT_EQ(keys(), "");
}

TEST_F(AdderTest, DoubleAdderSumsFractions) {
  DoubleAdder a(client, "weights");
  DoubleAdder b(other, "weights");
  a.add(0.5);
  a.add(0.25);
  b.add(1.125);
  b.increment();
  a.decrement();
  EXPECT_DOUBLE_EQ(a.sum(), 0.5 + 0.25 + 1.125 + 1.0 - 1.0);
  b.add(0.1);
  EXPECT_NEAR(b.sum(), 1.975, 1e-12);
  b.reset();
  EXPECT_DOUBLE_EQ(a.sum(), 0.0);
}

TEST_F(AdderTest, SumTimesOutWhenASubscriberNeverAnswers) {
  LongAdder a(client, "stuck");
  a.add(1);
  // A subscriber of the channel that is no adder: PUBLISH counts it, it never releases.
  Topic<std::string> silent(other, "{stuck}:adder-topic", codecs::string());
  silent.add_listener([](std::string_view, std::string) {});

  try {
    a.sum(300ms);
    FAIL() << "sum() returned although a subscriber never answered";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::timeout) << e.what();
    EXPECT_NE(std::string(e.what()).find("{stuck}:adder-topic"), std::string::npos) << e.what();
  }
  auto reset = a.async_reset(200ms, asio::use_future);
  try {
    reset.get();
    FAIL() << "reset() returned although a subscriber never answered";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::timeout) << e.what();
  }
  // The call's keys are dropped after the timeout.
  EXPECT_TRUE(eventually([&] { return keys() == ""; })) << keys();

  EXPECT_THROW(a.sum(-1ms), redisson::error);
}

TEST_F(AdderTest, DestroyTakesAnInstanceOutAndTheLastOneUnsubscribes) {
  LongAdder a(client, "leaving");
  LongAdder b(other, "leaving");
  a.add(100);
  b.add(1);
  ASSERT_EQ(b.sum(), 101);
  a.destroy();
  a.destroy();  // again: nothing
  // A sum published while the unsubscribe is on its way would count a client that no longer
  // answers (as in Java): wait until it is gone.
  ASSERT_TRUE(eventually([&] { return numsub("{leaving}:adder-topic") == 1; }));
  EXPECT_EQ(b.sum(), 1);
  EXPECT_EQ(a.sum(), 1);  // a destroyed instance still sums the others (as Java)

  {
    LongAdder c(client, "leaving");  // a new instance subscribes again
    c.add(5);
    EXPECT_EQ(b.sum(), 6);
  }  // the destructor leaves
  ASSERT_TRUE(eventually([&] { return numsub("{leaving}:adder-topic") == 1; }));
  EXPECT_EQ(b.sum(), 1);

  LongAdder moved(std::move(b));
  EXPECT_EQ(moved.sum(), 1);
}

TEST_F(AdderTest, MixingKindsOfOneNameInOneClientIsRefused) {
  LongAdder a(client, "mixed");
  try {
    DoubleAdder d(client, "mixed");
    FAIL() << "a DoubleAdder of a LongAdder's name was made";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
  DoubleAdder elsewhere(other, "mixed-too");  // another name is fine
  EXPECT_THROW(LongAdder(client, ""), redisson::error);
}

// Java's side by hand: the channel, the message text and the keys Java Redisson 3.52 uses
// (RedissonBaseAdder: suffixName(name, "adder-topic"), "1:<id>" / "0:<id>",
// suffixName(name, id + ":counter") as an RAtomicLong, suffixName(name, id + ":semaphore")
// as an RSemaphore).
TEST_F(AdderTest, AnswersJavasSumAndClearMessagesOnJavasKeys) {
  LongAdder a(client, "java-hits");
  a.add(41);
  a.increment();
  const std::string id = "0123456789abcdef0123456789abcdef";
  // Java's sumAsync(): PUBLISH, which reached our one subscriber.
  EXPECT_EQ(server.command({"PUBLISH", "{java-hits}:adder-topic", "1:" + id}), "1");
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "{java-hits}:" + id + ":semaphore"}) == "1";
  }));
  EXPECT_EQ(server.command({"GET", "{java-hits}:" + id + ":counter"}), "42");

  // Java's resetAsync().
  const std::string clear_id = "fedcba9876543210fedcba9876543210";
  EXPECT_EQ(server.command({"PUBLISH", "{java-hits}:adder-topic", "0:" + clear_id}), "1");
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "{java-hits}:" + clear_id + ":semaphore"}) == "1";
  }));
  EXPECT_EQ(a.sum(), 0);

  // A name with a hash tag keeps it (suffixName: `name:suffix`).
  DoubleAdder d(client, "{tag}weights");
  d.add(2.5);
  EXPECT_EQ(server.command({"PUBLISH", "{tag}weights:adder-topic", "1:" + id}), "1");
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "{tag}weights:" + id + ":semaphore"}) == "1";
  }));
  EXPECT_EQ(server.command({"GET", "{tag}weights:" + id + ":counter"}), "2.5");
}

// The other way round: what our sum() publishes, and that it waits for and reads what a Java
// instance writes.
TEST_F(AdderTest, SumsWhatJavaInstancesWriteOnJavasKeys) {
  LongAdder a(client, "java-sum");
  a.add(3);
  FakeJava java;
  Topic<std::string> channel(other, "{java-sum}:adder-topic", codecs::string());
  channel.add_listener([&](std::string_view, std::string message) {
    {
      std::lock_guard lock(java.mutex);
      java.messages.push_back(message);
    }
    const auto id = message.substr(2);
    if (message.starts_with("1:")) {  // Java's getAndAdd(counter.sum()) of a count of 7
      server.command({"INCRBY", "{java-sum}:" + id + ":counter", "7"});
    }
    Semaphore(other, "{java-sum}:" + id + ":semaphore").release();
  });

  EXPECT_EQ(a.sum(), 10);
  a.reset();
  const auto heard = java.heard();
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_TRUE(std::regex_match(heard[0], std::regex("1:[0-9a-f]{32}"))) << heard[0];
  EXPECT_TRUE(std::regex_match(heard[1], std::regex("0:[0-9a-f]{32}"))) << heard[1];
  EXPECT_EQ(a.sum(), 7);
  EXPECT_TRUE(eventually([&] { return keys() == ""; })) << keys();
}

TEST(AdderFailures, ACounterKeyOfAnotherTypeIsReportedAndNotReleased) {
  RedisServer server;
  std::mutex mutex;
  std::vector<std::error_code> reported;
  auto config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.push_back(failure.code());
  };
  Client client(config);
  LongAdder a(client, "typed");
  a.add(1);
  const std::string id = "00000000000000000000000000000001";
  server.command({"RPUSH", "{typed}:" + id + ":counter", "x"});
  server.command({"PUBLISH", "{typed}:adder-topic", "1:" + id});
  EXPECT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !reported.empty();
  }));
  {
    std::lock_guard lock(mutex);
    ASSERT_FALSE(reported.empty());
    EXPECT_EQ(reported.front(), errc::wrong_type);
  }
  // As Java: a count not added is not released (the caller would time out, not read a wrong sum).
  EXPECT_EQ(server.command({"EXISTS", "{typed}:" + id + ":semaphore"}), "0");
}

}  // namespace

}  // namespace objects_adder_test
