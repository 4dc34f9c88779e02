// RemoteService against a real redis-server: C++ callers and C++ workers in two clients, in
// Redisson's layout (request list, tasks hash, ack keys, response lists), the timeouts, failures,
// worker counts and cancellation; and a request as Java Redisson stored it, served by C++.
#include "redisson/services/remote_service.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "services/remote_wire.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace services_remote_service_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::RemoteInterface;
using redisson::RemoteInvocationOptions;
using redisson::RemoteService;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::ShutdownAtEnd;
namespace codecs = redisson::codecs;

namespace {

constexpr const char* kCalc = "com.example.Calc";

/// What the workers of a test saw, for the assertions of the test's thread.
struct Seen {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> calls;

  void add(std::string call) {
    std::lock_guard lock(mutex);
    calls.push_back(std::move(call));
    changed.notify_all();
  }
  std::vector<std::string> wait_for(std::size_t count) {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, 10s, [&] { return calls.size() >= count; });
    return calls;
  }
};

RemoteInterface calc(Seen& seen) {
  return RemoteInterface(kCalc)
      .method("add",
              [&seen](std::int32_t a, std::int32_t b) {
                seen.add("add");
                return a + b;
              })
      .method("echo",
              [&seen](const std::string& text) {
                seen.add("echo " + text);
                return text;
              })
      .method("fire", [&seen](const std::string& text) { seen.add("fire " + text); })
      .method("fail", [](const std::string& why) -> std::int64_t {
        throw std::runtime_error("failed: " + why);
      });
}

class RemoteServiceTest : public redisson::test::ServerTest {
 protected:
  Client worker_client{config_for(server)};
};

TEST_F(RemoteServiceTest, ACallIsServedByAWorkerOfAnotherClient) {
  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  RemoteService workers(worker_client);
  EXPECT_TRUE(workers.register_service(calc(seen)));
  EXPECT_FALSE(workers.register_service(calc(seen))) << "served already: nothing changes";
  EXPECT_EQ(workers.free_workers(kCalc), 1);

  auto proxy = RemoteService(client).get(kCalc);
  auto add = proxy.method<std::int32_t(std::int32_t, std::int32_t)>("add");
  EXPECT_EQ(add(2, 3), 5);
  EXPECT_EQ(proxy.method<std::string(std::string)>("echo")("hi"), "hi");
  EXPECT_EQ(add.async(4, 5, asio::use_future).get(), 9);
  proxy.method<void(std::string)>("fire")("ff");  // waits for its ack and its (empty) result
  EXPECT_EQ(seen.wait_for(4), (std::vector<std::string>{"add", "echo hi", "add", "fire ff"}));

  // Redisson's layout: nothing left behind but the response list, which lapses.
  EXPECT_EQ(server.command({"LLEN", "{redisson_rs:com.example.Calc}"}), "0");
  EXPECT_EQ(server.command({"HLEN", "{redisson_rs:com.example.Calc}:tasks"}), "0");
  EXPECT_EQ(server.command({"KEYS", "{redisson_rs:remote}:*"}), "(empty array)")
      << "ack keys deleted";
}

TEST_F(RemoteServiceTest, FireAndForgetReturnsOnceQueued) {
  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  auto fire = RemoteService(client)
                  .get(kCalc, RemoteInvocationOptions::defaults().no_ack().no_result())
                  .method<void(std::string)>("fire");
  fire("before any worker");  // returns at once: queued
  EXPECT_EQ(RemoteService(client).pending_invocations(kCalc), 1);
  EXPECT_EQ(server.command({"LLEN", "{redisson_rs:com.example.Calc}"}), "1");
  RemoteService(worker_client).register_service(calc(seen));
  EXPECT_EQ(seen.wait_for(1), std::vector<std::string>{"fire before any worker"});
  EXPECT_TRUE(eventually([&] { return RemoteService(client).pending_invocations(kCalc) == 0; }));
}

TEST_F(RemoteServiceTest, NoWorkerMeansAnAckTimeoutAndALateWorkerSkipsTheCall) {
  auto add = RemoteService(client)
                 .get(kCalc, RemoteInvocationOptions::defaults().expect_ack_within(100ms))
                 .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  expect_error(
      errc::timeout, [&] { add(1, 2); }, "no worker: no ack");
  // The caller claimed the request's ack key: a worker that comes now skips it.
  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  RemoteService(worker_client).register_service(calc(seen));
  EXPECT_TRUE(eventually([&] { return RemoteService(client).pending_invocations(kCalc) == 0; }));
  EXPECT_EQ(add.async(3, 4, asio::use_future).get(), 7) << "the worker goes on with the next";
  EXPECT_EQ(seen.wait_for(1), std::vector<std::string>{"add"}) << "the timed-out call never ran";
}

TEST_F(RemoteServiceTest, NoResultInTimeIsATimeoutAndAFailureIsRemoteFailed) {
  auto slow =
      RemoteService(client)
          .get(kCalc, RemoteInvocationOptions::defaults().no_ack().expect_result_within(100ms))
          .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  expect_error(
      errc::timeout, [&] { slow(1, 2); }, "no worker: no result");

  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  RemoteService(worker_client).register_service(calc(seen));
  auto fail = RemoteService(client).get(kCalc).method<std::int64_t(std::string)>("fail");
  try {
    fail("on purpose");
    ADD_FAILURE() << "a throwing method returned";
  } catch (const redisson::error& failure) {
    EXPECT_EQ(failure.code(), errc::remote_failed);
    EXPECT_NE(std::string(failure.what()).find("failed: on purpose"), std::string::npos)
        << failure.what();
  }
  // A method the worker does not serve, or a signature it does not know, is an answer too.
  auto unknown = RemoteService(client).get(kCalc).method<std::int32_t(std::int64_t)>("add");
  expect_error(
      errc::remote_failed, [&] { unknown(1); }, "add(long) is not served");
  // Free again once its answer is written (which may be just after the caller read it).
  EXPECT_TRUE(eventually([&] { return RemoteService(worker_client).free_workers(kCalc) == 1; }))
      << "the worker goes on";
}

TEST_F(RemoteServiceTest, WorkersServeThatManyCallsAtOnce) {
  const ShutdownAtEnd stop_worker{worker_client};
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0;
  bool release = false;
  RemoteService(worker_client)
      .register_service(RemoteInterface("com.example.Slow")
                            .method("hold",
                                    [&](std::int32_t n) {
                                      std::unique_lock lock(mutex);
                                      ++running;
                                      changed.notify_all();
                                      changed.wait_for(lock, 10s, [&] { return release; });
                                      return n;
                                    }),
                        2);
  auto hold =
      RemoteService(client).get("com.example.Slow").method<std::int32_t(std::int32_t)>("hold");
  auto first = hold.async(1, asio::use_future);
  auto second = hold.async(2, asio::use_future);
  {
    std::unique_lock lock(mutex);
    EXPECT_TRUE(changed.wait_for(lock, 10s, [&] { return running == 2; }))
        << "two workers: both calls run together";
  }
  EXPECT_EQ(RemoteService(worker_client).free_workers("com.example.Slow"), 0);
  {
    std::lock_guard lock(mutex);
    release = true;
  }
  changed.notify_all();
  EXPECT_EQ(first.get(), 1);
  EXPECT_EQ(second.get(), 2);
  EXPECT_TRUE(eventually(
      [&] { return RemoteService(worker_client).free_workers("com.example.Slow") == 2; }));
  EXPECT_TRUE(RemoteService(worker_client).deregister("com.example.Slow"));
  EXPECT_FALSE(RemoteService(worker_client).deregister("com.example.Slow"));
  EXPECT_EQ(RemoteService(worker_client).free_workers("com.example.Slow"), 0);
}

TEST_F(RemoteServiceTest, ACancelledCallNoWorkerTookIsTakenBack) {
  auto add = RemoteService(client)
                 .get(kCalc, RemoteInvocationOptions::defaults().no_ack())
                 .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  asio::cancellation_signal cancel;
  auto call = add.async(1, 2, asio::bind_cancellation_slot(cancel.slot(), asio::use_future));
  ASSERT_TRUE(eventually([&] { return RemoteService(client).pending_invocations(kCalc) == 1; }));
  cancel.emit(asio::cancellation_type::terminal);
  try {
    (void)call.get();
    ADD_FAILURE() << "a cancelled call returned";
  } catch (const std::system_error& aborted) {
    EXPECT_EQ(aborted.code(), asio::error::operation_aborted);
  }
  EXPECT_TRUE(eventually([&] { return RemoteService(client).pending_invocations(kCalc) == 0; }));
  EXPECT_EQ(server.command({"HLEN", "{redisson_rs:com.example.Calc}:tasks"}), "0");
}

TEST_F(RemoteServiceTest, BadInputIsRefusedAndSendsNothing) {
  expect_error(
      errc::invalid_argument, [&] { RemoteService(client, "rs", codecs::string()); },
      "the string codec cannot carry Java's request objects");
  expect_error(
      errc::invalid_argument, [&] { RemoteService(client, ""); }, "an empty name");
  Seen seen;
  expect_error(
      errc::invalid_argument, [&] { RemoteService(worker_client).register_service(calc(seen), 0); },
      "no workers");
  auto no_result = RemoteService(client)
                       .get(kCalc, RemoteInvocationOptions::defaults().no_result())
                       .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  expect_error(
      errc::invalid_argument, [&] { no_result(1, 2); }, "no_result on a non-void method");
  expect_error(
      errc::invalid_argument,
      [&] {
        RemoteService(client).get(kCalc).method<std::int32_t(std::int32_t)>("add", {"a", "b"});
      },
      "two Java names for one parameter");
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
  // A request list of another type: a clear error, nothing written.
  server.command({"SET", "{redisson_rs:com.example.Calc}", "x"});
  auto add =
      RemoteService(client).get(kCalc).method<std::int32_t(std::int32_t, std::int32_t)>("add");
  expect_error(
      errc::wrong_type, [&] { add(1, 2); }, "a string where the request list goes");
  EXPECT_EQ(server.command({"DBSIZE"}), "1");
}

TEST_F(RemoteServiceTest, TryExecuteRunsOneQueuedCallHere) {
  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  RemoteService here(worker_client);
  EXPECT_FALSE(here.try_execute(calc(seen), 0ms)) << "nothing queued";
  EXPECT_FALSE(here.try_execute(calc(seen), 50ms)) << "nothing came";
  auto add = RemoteService(client)
                 .get(kCalc, RemoteInvocationOptions::defaults().no_ack())
                 .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  auto sum = add.async(20, 22, asio::use_future);
  EXPECT_TRUE(here.try_execute(calc(seen), 10s)) << "a call queued within the wait";
  EXPECT_EQ(sum.get(), 42) << "answered as a registered worker would";
  auto fire = RemoteService(client)
                  .get(kCalc, RemoteInvocationOptions::defaults().no_ack().no_result())
                  .method<void(std::string)>("fire");
  fire("one");
  fire("two");
  EXPECT_TRUE(here.try_execute(calc(seen), 0ms));
  EXPECT_EQ(seen.wait_for(2), (std::vector<std::string>{"add", "fire one"})) << "one call only";
  EXPECT_EQ(here.pending_invocations(kCalc), 1);
  EXPECT_EQ(here.free_workers(kCalc), 0) << "try_execute registers nothing";
  expect_error(
      errc::invalid_argument, [&] { here.try_execute(calc(seen), -1ms); }, "-1 ms");
}

TEST_F(RemoteServiceTest, AJavaCallersRequestIsServedHere) {
  // What Java Redisson 3.52 stored for fire("queued") with noAck().noResult() before any worker
  // was registered (the services fixtures): served by a C++ worker of the same interface.
  const auto& java = java_service_case("remote_kryo");
  const auto& stored = java.at("state_queued_no_worker");
  const std::string list = stored.at(0).at("key");
  const std::string id = stored.at(0).at("content").at(0).at("text");
  const std::string request =
      from_hex(stored.at(1).at("content").at(0).at(1).at("hex").get<std::string>());
  ASSERT_EQ(list, "{fx2:remote_kryo:ServiceFixtures$Calc}");
  server.command({"HSET", list + ":tasks", id, request});
  server.command({"RPUSH", list, id});
  Seen seen;
  const ShutdownAtEnd stop_worker{worker_client};
  RemoteService(worker_client, "fx2:remote_kryo")
      .register_service(
          RemoteInterface("ServiceFixtures$Calc").method("fire", [&](std::string text) {
            seen.add("fire " + text);
          }));
  EXPECT_EQ(seen.wait_for(1), std::vector<std::string>{"fire queued"});
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", list, list + ":tasks"}) == "0"; }));
}

TEST_F(RemoteServiceTest, AJavaWorkersAnswersReachACppCaller) {
  // A Java worker's ack and response, as Redisson 3.52 wrote them for add(2,3) (the fixtures'
  // samples for the id 0123...cdef), given this call's id: the C++ caller reads 5 from them.
  const auto& samples = java_service_case("remote_kryo").at("encoding_samples");
  const std::string sample_id = java_service_case("remote_kryo").at("sample_id");
  const auto java_bytes = [&](const char* sample, const std::string& id) {
    std::string bytes = from_hex(samples.at(sample).get<std::string>());
    const auto at = bytes.find(sample_id.substr(0, 31));  // Kryo marks the last character
    bytes.replace(at, 31, id.substr(0, 31));
    bytes[at + 31] = static_cast<char>(id[31] | 0x80);
    return bytes;
  };
  auto add = RemoteService(client, "fx2:remote_kryo")
                 .get("ServiceFixtures$Calc")
                 .method<std::int32_t(std::int32_t, std::int32_t)>("add");
  auto call = add.async(2, 3, asio::use_future);
  // The "Java worker": BLPOP, HGET, then Java's bytes on the caller's response list.
  const std::string list = "{fx2:remote_kryo:ServiceFixtures$Calc}";
  Client java_side(config_for(server));
  const auto popped = java_side.execute(redisson::Command{"BLPOP", list, "5"});
  ASSERT_EQ(popped.elements.size(), 2U);
  const std::string id = popped.elements[1].str;
  const auto stored = java_side.execute(redisson::Command{"HGET", list + ":tasks", id});
  const auto request =
      redisson::detail::decode_remote_request(redisson::detail::RemoteWire::kryo5, stored.str);
  EXPECT_EQ(request.method_name, "add");
  const auto signature =
      java_service_case("remote_kryo").at("method_signatures").at("add(int,int)");
  EXPECT_EQ(request.signature[0], signature.at(0).get<std::int64_t>()) << "Java's method hash";
  EXPECT_EQ(request.signature[1], signature.at(1).get<std::int64_t>());
  const std::string responses = "{remote_response}:" + request.executor_id;
  java_side.execute(redisson::Command{"RPUSH", responses, java_bytes("RemoteServiceAck(sid)", id)});
  java_side.execute(
      redisson::Command{"RPUSH", responses, java_bytes("RemoteServiceResponse(sid, 5)", id)});
  EXPECT_EQ(call.get(), 5);
}

}  // namespace

}  // namespace services_remote_service_test
