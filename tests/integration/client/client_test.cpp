// The client core against a real redis-server: pipelining, reconnect, scripts, pub/sub,
// deadlines, authentication, shutdown.
#include "redisson/client.hpp"

#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/use_future.hpp>
#include <atomic>
#include <future>
#include <thread>

#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace client_client_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::errc;
using redisson::Reply;
using redisson::test::client_config;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;

namespace {

Config fast_config(const RedisServer& server) {
  return client_config(server.url(), {.command_timeout = 1000ms, .connect_timeout = 2000ms});
}

std::string kill_clients(const RedisServer& server, const std::string& type) {
  return server.command({"CLIENT", "KILL", "TYPE", type});
}

}  // namespace

TEST(Client, ExecuteSetAndGet) {
  RedisServer server;
  Client client(server.url());
  EXPECT_EQ(client.execute({"SET", "k", "v"}).str, "OK");
  auto reply = client.execute({"GET", "k"});
  EXPECT_EQ(reply.type, redisson::ReplyType::bulk_string);
  EXPECT_EQ(reply.str, "v");
  EXPECT_TRUE(client.execute({"GET", "missing"}).is_null());
  EXPECT_EQ(server.command({"GET", "k"}), "v");
}

TEST(Client, HundredThousandPipelinedCommandsReturnInOrder) {
  RedisServer server;
  Client client(server.url());
  constexpr int kCount = 100000;
  std::vector<std::int64_t> results(kCount, -1);
  std::atomic<int> done{0};
  std::atomic<int> failures{0};
  std::promise<void> all_done;
  for (int i = 0; i < kCount; ++i) {
    client.async_execute(Command{"INCR", "counter"}, [&, i](std::error_code ec, Reply reply) {
      if (ec) ++failures;
      results[static_cast<std::size_t>(i)] = reply.integer;
      if (++done == kCount) all_done.set_value();
    });
  }
  ASSERT_EQ(all_done.get_future().wait_for(60s), std::future_status::ready);
  EXPECT_EQ(failures.load(), 0);
  for (int i = 0; i < kCount; ++i) ASSERT_EQ(results[static_cast<std::size_t>(i)], i + 1) << i;
}

TEST(Client, ServerErrorCarriesServerText) {
  RedisServer server;
  Client client(server.url());
  client.execute({"SET", "str", "x"});
  try {
    client.execute({"LPUSH", "str", "y"});
    FAIL() << "expected WRONGTYPE";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::wrong_type);
    EXPECT_NE(std::string(e.what()).find("WRONGTYPE"), std::string::npos) << e.what();
  }
  std::error_code ec;
  auto reply = client.execute({"NOSUCHCOMMAND"}, ec);
  EXPECT_EQ(ec, errc::server_error);
  EXPECT_NE(reply.str.find("unknown command"), std::string::npos);
}

TEST(Client, ReconnectsAfterClientKill) {
  RedisServer server;
  Client client(fast_config(server));
  client.execute({"SET", "a", "1"});
  kill_clients(server, "normal");
  // The first command after the kill may fail with connection_lost (it may have been sent on
  // the dead socket); later ones succeed on the new connection.
  EXPECT_TRUE(eventually([&] {
    std::error_code ec;
    auto reply = client.execute({"GET", "a"}, ec);
    return !ec && reply.str == "1";
  }));
  EXPECT_EQ(client.execute({"INCR", "a"}).integer, 2);
}

TEST(Client, CommandsIssuedWhileServerIsDownWaitForReconnect) {
  RedisServer server;
  auto config = fast_config(server);
  config.command_timeout = 10000ms;
  Client client(config);
  server.stop();
  ASSERT_TRUE(eventually([&] { return !client.connected(); }));
  auto pending = client.async_execute(Command{"SET", "later", "yes"}, asio::use_future);
  server.start();
  ASSERT_EQ(pending.wait_for(15s), std::future_status::ready);
  EXPECT_EQ(pending.get().str, "OK");
  EXPECT_EQ(server.command({"GET", "later"}), "yes");
}

TEST(Client, CommandNotSentBeforeItsDeadlineIsNeverSent) {
  RedisServer server;
  auto config = fast_config(server);
  config.command_timeout = 300ms;
  Client client(config);
  server.stop();
  ASSERT_TRUE(eventually([&] { return !client.connected(); }));
  std::error_code ec;
  client.execute({"SET", "ghost", "1"}, ec);
  EXPECT_EQ(ec, errc::timeout);
  server.start();
  EXPECT_TRUE(eventually([&] {
    std::error_code again;
    client.execute({"PING"}, again);
    return !again;
  }));
  EXPECT_EQ(server.command({"EXISTS", "ghost"}), "0");
}

TEST(Client, ScriptSurvivesScriptFlush) {
  RedisServer server;
  Client client(server.url());
  redisson::Script script("return redis.call('incrby', KEYS[1], ARGV[1])");
  EXPECT_EQ(client.eval(script, {"n"}, {"5"}).integer, 5);
  EXPECT_EQ(server.command({"SCRIPT", "FLUSH"}), "OK");
  EXPECT_EQ(client.eval(script, {"n"}, {"2"}).integer, 7);
  EXPECT_EQ(server.command({"SCRIPT", "EXISTS", script.sha1()}), "1");
}

TEST(Client, ScriptShaMatchesServer) {
  RedisServer server;
  redisson::Script script("return 1");
  EXPECT_EQ(server.command({"SCRIPT", "LOAD", script.source()}), script.sha1());
}

TEST(Client, PubSubDeliversAndSurvivesKillOfSubscriberConnection) {
  RedisServer server;
  Client client(fast_config(server));
  std::mutex mutex;
  std::vector<std::string> received;
  std::atomic<int> resubscribed{0};
  auto subscription = client.subscribe(
      "news",
      [&](std::string_view payload) {
        std::lock_guard lock(mutex);
        received.emplace_back(payload);
      },
      [&] { ++resubscribed; });
  EXPECT_EQ(client.publish("news", "one"), 1);
  EXPECT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return received.size() == 1;
  }));
  kill_clients(server, "pubsub");
  EXPECT_TRUE(eventually([&] { return resubscribed.load() == 1; }));
  EXPECT_EQ(client.publish("news", "two"), 1);
  EXPECT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return received.size() == 2 && received[1] == "two";
  }));
  subscription.unsubscribe();
  EXPECT_TRUE(eventually([&] { return client.publish("news", "three") == 0; }));
}

// Destroying a subscription (or unsubscribe()) returns only when its callback is neither running
// nor going to run: the state it uses may be destroyed right after. A callback held up inside a
// delivery makes the old asynchronous removal return too early.
TEST(Client, UnsubscribeWaitsForADeliveryInProgressAndNothingArrivesAfter) {
  RedisServer server;
  Client client(server.url());
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  std::atomic<int> calls{0};
  auto subscription = client.subscribe("held", [&](std::string_view) {
    ++calls;
    if (started.exchange(true)) return;
    std::this_thread::sleep_for(300ms);  // the delivery is still running when unsubscribe starts
    finished = true;
  });
  server.command({"PUBLISH", "held", "first"});
  ASSERT_TRUE(eventually([&] { return started.load(); }));
  subscription.unsubscribe();
  EXPECT_TRUE(finished.load());
  const int seen = calls.load();
  for (int i = 0; i < 20; ++i) server.command({"PUBLISH", "held", "after"});
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");  // the I/O thread has handled what came
  EXPECT_EQ(calls.load(), seen);
}

// After the client shut down, unsubscribing (here: the destructor) neither hangs nor throws.
TEST(Client, SubscriptionOutlivingItsClientsShutdownEndsQuietly) {
  RedisServer server;
  Client client(server.url());
  auto subscription = client.subscribe("late", [](std::string_view) {});
  client.shutdown();
  subscription.unsubscribe();
  EXPECT_FALSE(subscription.active());
}

TEST(Client, TwoSubscriptionsOnOneChannelAreReferenceCounted) {
  RedisServer server;
  Client client(server.url());
  std::atomic<int> first{0}, second{0};
  auto a = client.subscribe("ch", [&](std::string_view) { ++first; });
  auto b = client.subscribe("ch", [&](std::string_view) { ++second; });
  EXPECT_EQ(client.publish("ch", "x"), 1);  // one server-side subscriber
  EXPECT_TRUE(eventually([&] { return first == 1 && second == 1; }));
  a.unsubscribe();
  EXPECT_EQ(client.publish("ch", "y"), 1);
  EXPECT_TRUE(eventually([&] { return second == 2; }));
  EXPECT_EQ(first.load(), 1);
  b.unsubscribe();
  EXPECT_TRUE(eventually([&] { return client.publish("ch", "z") == 0; }));
}

TEST(Client, CommandAgainstDebugSleepTimesOutAndConnectionStaysUsable) {
  RedisServer server;
  auto config = fast_config(server);
  config.command_timeout = 300ms;
  Client client(config);
  std::atomic<bool> slept{false};
  std::thread sleeper([&] {
    server.command({"DEBUG", "SLEEP", "1"});
    slept = true;
  });
  // Ping until the server is inside DEBUG SLEEP: that PING cannot be answered in time.
  std::error_code ec;
  while (!ec && !slept) client.execute({"PING"}, ec);
  sleeper.join();
  EXPECT_EQ(ec, errc::timeout);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
  EXPECT_EQ(client.execute({"SET", "after", "1"}).str, "OK");
}

TEST(Client, WrongPasswordGivesAuthError) {
  RedisServer server(RedisServerOptions{{"--requirepass", "secret"}});
  auto config = fast_config(server);
  config.server.password = "wrong";
  try {
    Client client(config);
    FAIL() << "connected with a wrong password";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::auth_failed) << e.what();
  }
  config.server.password = "secret";
  Client client(config);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

TEST(Client, PasswordNeverAppearsInErrors) {
  RedisServer server(RedisServerOptions{{"--requirepass", "right-one"}});
  try {
    Client client("redis://:hunter2@127.0.0.1:" + std::to_string(server.port()));
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
  }
}

TEST(Client, ServerDownGivesConnectErrorWithinConnectTimeout) {
  const int port = redisson::test::free_port();
  auto config = Config::from_url("redis://127.0.0.1:" + std::to_string(port));
  config.connect_timeout = 500ms;
  try {
    Client client(config);
    FAIL() << "connected to a closed port";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  }
}

TEST(Client, ShutdownFailsCommandsInFlight) {
  RedisServer server;
  Client client(server.url());
  client.execute({"PING"});
  server.pause();  // SIGSTOP: the commands below are sent but can never be answered
  std::vector<std::future<Reply>> futures;
  for (int i = 0; i < 100; ++i) {
    futures.push_back(client.async_execute(Command{"INCR", "x"}, asio::use_future));
  }
  client.shutdown();
  int failed = 0;
  for (auto& future : futures) {
    ASSERT_EQ(future.wait_for(5s), std::future_status::ready);
    try {
      future.get();
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code(), errc::shutdown);
      ++failed;
    }
  }
  server.resume();
  EXPECT_EQ(failed, 100);
  std::error_code ec;
  client.execute({"PING"}, ec);
  EXPECT_EQ(ec, errc::shutdown);
}

TEST(Client, Resp2FallbackAndDatabaseSelection) {
  RedisServer server;
  auto config = Config::from_url(server.url() + "/3");
  config.resp3 = false;
  Client client(config);
  client.execute({"SET", "in3", "yes"});
  EXPECT_EQ(server.command({"EXISTS", "in3"}), "0");  // db 0 untouched
  auto map_like = client.execute({"HELLO"});          // RESP2 shows maps as arrays
  EXPECT_EQ(map_like.type, redisson::ReplyType::array);
}

TEST(Client, Resp3GivesMaps) {
  RedisServer server;
  Client client(server.url());
  client.execute({"HSET", "h", "f", "v"});
  auto reply = client.execute({"HGETALL", "h"});
  EXPECT_EQ(reply.type, redisson::ReplyType::map);
  ASSERT_EQ(reply.elements.size(), 2u);
  EXPECT_EQ(reply.elements[1].str, "v");
}

TEST(Client, CoroutineCompletionToken) {
  RedisServer server;
  Client client(server.url());
  asio::io_context user_io;
  std::string got;
  asio::co_spawn(
      user_io,
      [&]() -> asio::awaitable<void> {
        // (GCC 12 miscompiles braced string lists inside co_await: build commands first.)
        Command set = Command().arg("SET").arg("co").arg("routine");
        Command get = Command().arg("GET").arg("co");
        co_await client.async_execute(std::move(set), asio::use_awaitable);
        auto reply = co_await client.async_execute(std::move(get), asio::use_awaitable);
        got = reply.str;
      },
      asio::detached);
  user_io.run_for(5s);
  EXPECT_EQ(got, "routine");
}

TEST(Client, BlockingCallOnIoThreadIsRefused) {
  RedisServer server;
  Client client(server.url());
  std::promise<std::error_code> result;
  client.async_execute(Command{"PING"}, [&](std::error_code, Reply) {
    std::error_code ec;
    client.execute({"PING"}, ec);
    result.set_value(ec);
  });
  EXPECT_EQ(result.get_future().get(), errc::would_deadlock);
}

TEST(Client, UrlParsing) {
  auto address = redisson::ServerAddress::from_url("redis://user:p%40ss@10.1.2.3:7000/2");
  EXPECT_EQ(address.username, "user");
  EXPECT_EQ(address.password, "p@ss");
  EXPECT_EQ(address.host, "10.1.2.3");
  EXPECT_EQ(address.port, 7000);
  EXPECT_EQ(address.database, 2);
  EXPECT_EQ(address.to_safe_url(), "redis://user:***@10.1.2.3:7000/2");
  EXPECT_TRUE(redisson::ServerAddress::from_url("rediss://h").tls);
  EXPECT_THROW(redisson::ServerAddress::from_url("http://h"), redisson::error);
  EXPECT_THROW(redisson::ServerAddress::from_url("redis://h:99999"), redisson::error);
  // An unescaped '/' in the password: the error says how to write it and never shows it.
  try {
    (void)redisson::ServerAddress::from_url("redis://user:se/cret@h:7000/1");
    FAIL();
  } catch (const redisson::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("%2F"), std::string::npos) << what;
    EXPECT_EQ(what.find("cret"), std::string::npos) << what;
  }
  EXPECT_EQ(redisson::ServerAddress::from_url("redis://user:se%2Fcret@h:7000/1").password,
            "se/cret");
  try {
    Client client("rediss://127.0.0.1:1");  // TLS is supported: nothing listens there
    FAIL();
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  }
}

}  // namespace client_client_test
