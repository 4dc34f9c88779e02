// ExecutorService against a real redis-server: tasks submitted from one client and run by the
// workers of another (or of another process), in Redisson's layout (request list, tasks hash,
// counter, scheduler zset with its retry entries, status); delays, fixed rates and delays, cron
// schedules, cancellation, shutdown and termination, a worker that dies mid-task, and a task as
// Java Redisson stored it (left alone by C++ workers).
#include "redisson/services/executor_service.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "redisson/client.hpp"
#include "redisson/objects/atomic_long.hpp"
#include "services/remote_wire.hpp"
#include "support/child_process.hpp"
#include "support/eventually.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/server_test.hpp"

namespace services_executor_service_test {

using namespace std::chrono_literals;
using redisson::AtomicLong;
using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::CronSchedule;
using redisson::CronZone;
using redisson::errc;
using redisson::ExecutorOptions;
using redisson::ExecutorService;
using redisson::ExecutorTasks;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::from_hex;
using redisson::test::java_service_case;
using redisson::test::ShutdownAtEnd;

namespace {

constexpr const char* kQueue = "{jobs:org.redisson.executor.RemoteExecutorService}";

std::string key(const char* suffix) { return std::string(kQueue) + suffix; }

// The tasks of these tests: "sum" and "fail" answer; "mark" counts its runs in a Redis counter
// (so any process can read them).
ExecutorTasks tasks(const Client& client) {
  return ExecutorTasks()
      .task("sum", [](std::int32_t a, std::int32_t b) { return a + b; })
      .task("echo", [](const std::string& text) { return text; })
      .task("fail",
            [](const std::string& why) -> std::int32_t {
              throw std::runtime_error("failed: " + why);
            })
      .task("mark", [&client](const std::string& counter) {
        AtomicLong(client, counter).increment_and_get();
      });
}

class ExecutorServiceTest : public redisson::test::ServerTest {
 protected:
  Client worker_client{config_for(server)};
};

// `fn` fails with `code` and a message containing `part`.
template <class Fn>
void expect_failure(std::error_code code, Fn fn, const std::string& part) {
  try {
    fn();
    ADD_FAILURE() << part << ": no error";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TEST_F(ExecutorServiceTest, ATaskIsRunByAWorkerOfAnotherClientAndItsResultComesBack) {
  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService workers(worker_client, "jobs");
  EXPECT_TRUE(workers.register_workers(tasks(worker_client), 2));
  EXPECT_FALSE(workers.register_workers(tasks(worker_client))) << "registered already";
  EXPECT_EQ(workers.free_workers(), 2);
  EXPECT_TRUE(eventually([&] {
    return ExecutorService(client, "jobs").count_active_workers() == 2;
  })) << "counted by the process with the workers, over Redisson's workers channel";
  EXPECT_EQ(server.command({"KEYS", "{jobs:*workers-*"}), "(empty array)")
      << "the count's keys deleted";

  ExecutorService executor(client, "jobs");
  auto sum = executor.submit<std::int32_t>("sum", 2, 3);
  EXPECT_EQ(sum.task_id().size(), 32U);
  EXPECT_EQ(sum.get(), 5);
  EXPECT_TRUE(sum.is_done());
  EXPECT_EQ(
      executor.submit<std::string>("echo", std::string("hi")).async_get(asio::use_future).get(),
      "hi");

  auto failing = executor.submit<std::int32_t>("fail", std::string("on purpose"));
  expect_failure(
      errc::remote_failed, [&] { failing.get(); }, "failed: on purpose");
  auto unknown = executor.submit<std::int32_t>("nobody-knows", 1);
  expect_failure(
      errc::remote_failed, [&] { unknown.get(); }, "no task 'nobody-knows'");

  // Nothing left behind: counted out, the tasks hash and the schedule empty.
  EXPECT_TRUE(eventually([&] { return executor.task_count() == 0; }));
  EXPECT_EQ(server.command({"EXISTS", kQueue, key(":tasks"), key(":counter")}), "0");
  EXPECT_EQ(server.command({"ZCARD", key(":scheduler")}), "0") << "retry entries removed";
  EXPECT_TRUE(executor.task_ids().empty());
}

TEST_F(ExecutorServiceTest, AJsonExecutorCarriesItsTasksAndResultsInJson) {
  const ShutdownAtEnd stop_worker{worker_client};
  const auto json = redisson::codecs::json();
  ExecutorService(worker_client, "jobs", json).register_workers(tasks(worker_client));
  ExecutorService executor(client, "jobs", json);
  auto echo = executor.submit<std::string>("echo", std::string("über"));
  EXPECT_EQ(echo.get(), "über");
  // Not the client's codec: the results come on a response list of the executor's own.
  EXPECT_EQ(server.command({"KEYS",
                            "{remote_response}:*:org.redisson.executor."
                            "RemoteExecutorServiceAsync:jobs"}),
            "(empty array)")
      << "read and gone";
  auto queued = executor.schedule<std::int32_t>("sum", std::chrono::hours(1), 1, 2);
  const auto stored = server.command({"HGET", key(":tasks"), queued.task_id()});
  EXPECT_NE(stored.find("\"@class\":\"org.redisson.remote.RemoteServiceRequest\""),
            std::string::npos)
      << stored;
  EXPECT_NE(stored.find("\"methodName\":\"scheduleCallable\""), std::string::npos) << stored;
  EXPECT_TRUE(queued.cancel());
}

TEST_F(ExecutorServiceTest, ATaskQueuedBeforeAnyWorkerWaitsInRedissonsLayout) {
  ExecutorService executor(client, "jobs");
  auto sum = executor.submit<std::int32_t>("sum", 20, 22);
  const auto& id = sum.task_id();
  // As Java's state_queued_no_worker: the id in the list, the task in the hash, counted, and a
  // retry entry five minutes ahead.
  EXPECT_EQ(server.command({"LRANGE", kQueue, "0", "-1"}), id);
  EXPECT_EQ(server.command({"HEXISTS", key(":tasks"), id}), "1");
  EXPECT_EQ(server.command({"GET", key(":counter")}), "1");
  EXPECT_EQ(server.command({"GET", key(":retry-interval")}), "300000");
  // The retry entry is the request's own date plus the interval (no clock read here).
  const auto stored = client.execute(Command{"HGET", key(":tasks"), id}).str;
  const auto request = redisson::detail::decode_remote_request(
      redisson::detail::remote_wire_of(*redisson::codecs::kryo5()), stored);
  EXPECT_EQ(request.id, id);
  const auto retry_at = std::stoll(server.command({"ZSCORE", key(":scheduler"), "ff:" + id}));
  EXPECT_EQ(retry_at, request.date_ms + 300000);
  EXPECT_TRUE(executor.has_task(id));
  EXPECT_EQ(executor.task_count(), 1);
  EXPECT_EQ(executor.task_ids(), std::set<std::string>{id});
  // Java's own queued task has the same keys of the same types.
  const auto& java = java_service_case("executor_kryo").at("state_queued_no_worker");
  std::vector<std::string> java_keys;
  for (const auto& entry : java) java_keys.push_back(entry.at("key").get<std::string>());
  for (const auto& java_key : java_keys) {
    const auto suffix = java_key.substr(java_key.find('}') + 1);
    EXPECT_EQ(server.command({"EXISTS", kQueue + suffix}), "1") << suffix;
  }

  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs").register_workers(tasks(worker_client));
  EXPECT_EQ(sum.get(), 42);
  EXPECT_FALSE(executor.has_task(id));
}

TEST_F(ExecutorServiceTest, ExecuteQueuesWithoutAResultAndDelayedTasksWaitInTheSchedule) {
  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs").register_workers(tasks(worker_client));
  ExecutorService executor(client, "jobs");
  const auto id = executor.execute("mark", std::string("runs"));
  EXPECT_EQ(id.size(), 32U);
  EXPECT_TRUE(eventually([&] { return AtomicLong(client, "runs").get() == 1; }));

  const auto before = now_ms();
  const auto asked = std::chrono::steady_clock::now();
  auto later = executor.schedule<std::int32_t>("sum", 300ms, 1, 2);
  const auto start = server.command({"ZSCORE", key(":scheduler"), later.task_id()});
  if (!later.is_done()) {
    EXPECT_GE(std::stoll(start), before + 300);
  }
  EXPECT_EQ(later.get(), 3);
  EXPECT_GE(std::chrono::steady_clock::now() - asked, 300ms) << "not run before its delay";
  EXPECT_TRUE(eventually([&] { return executor.task_count() == 0; }));
}

TEST_F(ExecutorServiceTest, PeriodicTasksRunAgainUntilCancelled) {
  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs").register_workers(tasks(worker_client), 2);
  ExecutorService executor(client, "jobs");

  auto rate = executor.schedule_at_fixed_rate("mark", 0ms, 50ms, std::string("rate"));
  auto delay = executor.schedule_with_fixed_delay("mark", 10ms, 50ms, std::string("delay"));
  auto cron = executor.schedule("mark", CronSchedule::of("* * * * * ?", CronZone::utc()),
                                std::string("cron"));
  EXPECT_TRUE(eventually([&] { return AtomicLong(client, "rate").get() >= 3; }));
  EXPECT_TRUE(eventually([&] { return AtomicLong(client, "delay").get() >= 3; }));
  EXPECT_TRUE(eventually([&] { return AtomicLong(client, "cron").get() >= 2; }, 10s));
  // A cron run starts on a whole second.
  const auto cron_start = server.command({"ZSCORE", key(":scheduler"), cron.task_id()});
  if (!cron_start.empty() && cron_start != "(nil)") {
    EXPECT_EQ(std::stoll(cron_start) % 1000, 0);
  }

  for (const auto* task : {&rate, &delay, &cron}) {
    task->cancel();
    EXPECT_FALSE(executor.has_task(task->task_id()));
  }
  // Gone from the hash, the schedule and the list: nothing can run them again; a run that was
  // going on finishes and counts itself out.
  EXPECT_TRUE(eventually([&] { return executor.task_count() == 0; }));
  EXPECT_EQ(server.command({"EXISTS", key(":tasks"), key(":counter"), kQueue}), "0");
  EXPECT_EQ(server.command({"ZCARD", key(":scheduler")}), "0");
}

// A cancel between a worker's BLPOP (the id left the list) and its read of the bytes finds the
// task in neither the list nor the schedule: to it, the task is running, and the run that never
// starts must count it out, or the task count never falls to 0 (and a shut-down executor never
// terminates). The BLPOP is played by hand: the id is popped, the task cancelled, and the id
// given back for the workers to take.
TEST_F(ExecutorServiceTest, ATaskCancelledJustAfterAWorkerTookItsIdIsCountedOut) {
  ExecutorService executor(client, "jobs");
  auto sum = executor.submit<std::int32_t>("sum", 1, 1);
  ASSERT_EQ(server.command({"LPOP", kQueue}), sum.task_id());
  EXPECT_FALSE(executor.cancel_task(sum.task_id())) << "taken, so running to the cancel";
  EXPECT_EQ(executor.task_count(), 1);
  ASSERT_EQ(server.command({"RPUSH", kQueue, sum.task_id()}), "1");

  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs").register_workers(tasks(worker_client), 1);
  EXPECT_TRUE(eventually([&] { return executor.task_count() == 0; }));
  EXPECT_EQ(
      server.command({"EXISTS", kQueue, key(":tasks"), key(":counter"), key(":cancelled-runs")}),
      "0");
  executor.shutdown();
  EXPECT_TRUE(executor.await_termination(5s));
}

TEST_F(ExecutorServiceTest, ACancelledTaskThatHadNotStartedIsGoneAndItsFutureSaysSo) {
  ExecutorService executor(client, "jobs");
  auto sum = executor.submit<std::int32_t>("sum", 1, 1);
  auto later = executor.schedule<std::int32_t>("sum", 1h, 2, 2);
  EXPECT_EQ(executor.task_count(), 2);
  EXPECT_TRUE(sum.cancel());
  EXPECT_TRUE(executor.cancel_task(later.task_id()));
  EXPECT_FALSE(executor.cancel_task(later.task_id())) << "gone already";
  expect_failure(
      asio::error::operation_aborted, [&] { sum.get(); }, "cancelled");
  EXPECT_EQ(executor.task_count(), 0);
  EXPECT_EQ(server.command({"EXISTS", kQueue, key(":tasks"), key(":counter")}), "0");
  EXPECT_EQ(server.command({"ZCARD", key(":scheduler")}), "0");
  expect_failure(
      errc::timeout, [&] { later.get(10ms); }, "no result within 10 ms");
}

TEST_F(ExecutorServiceTest, CancellingAFutureEndsItsWaitOnTheResponseList) {
  ExecutorService executor(client, "jobs");
  auto later = executor.schedule<std::int32_t>("sum", 1h, 2, 2);
  const auto blocked = [&] {
    const auto info = server.command({"INFO", "clients"});
    const auto at = info.find("blocked_clients:") + 16;
    return info.substr(at, info.find_first_of("\r\n", at) - at);
  };
  EXPECT_TRUE(eventually([&] { return blocked() == "1"; })) << "the BLPOP for its result";
  EXPECT_TRUE(later.cancel());
  EXPECT_TRUE(eventually([&] { return blocked() == "0"; })) << "no future waits any more";
}

TEST_F(ExecutorServiceTest, AShutDownExecutorRefusesTasksAndTerminatesWhenTheLastOneEnds) {
  ExecutorService executor(client, "jobs");
  auto sum = executor.submit<std::int32_t>("sum", 3, 4);
  executor.shutdown();
  EXPECT_TRUE(executor.is_shutdown());
  EXPECT_FALSE(executor.is_terminated()) << "a task is left";
  EXPECT_FALSE(executor.await_termination(0ms));
  expect_failure(
      errc::rejected, [&] { executor.submit<std::int32_t>("sum", 1, 2); }, "shut down");
  EXPECT_EQ(executor.task_count(), 1) << "nothing queued";

  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs").register_workers(tasks(worker_client));
  EXPECT_EQ(sum.get(), 7) << "queued before the shutdown: still run";
  EXPECT_TRUE(executor.await_termination(10s));
  EXPECT_TRUE(executor.is_terminated());
  EXPECT_EQ(server.command({"GET", key(":status")}), "2");
  EXPECT_TRUE(executor.delete_object());
  EXPECT_FALSE(executor.is_shutdown());
}

// A worker process that dies while it runs a task: the task is queued again by its retry entry
// and run by a worker of another process.
REDISSON_TEST_CHILD(executor_worker_dies_mid_task) {
  Client client(config_for(args.at(0)));
  std::atomic<bool> started{false};
  ExecutorService(client, "jobs")
      .register_workers(ExecutorTasks().task("sum", [](std::int32_t, std::int32_t) -> std::int32_t {
        std::_Exit(3);  // dies mid-task, its retry entry left behind
      }));
  std::this_thread::sleep_for(30s);  // bounded: the test kills it sooner by dying
  return 1;
}

TEST_F(ExecutorServiceTest, ATaskWhoseWorkerDiedRunsAgainElsewhereAfterTheRetryInterval) {
  ExecutorOptions options;
  options.task_retry_interval = 1s;
  ExecutorService executor(client, "jobs", nullptr, options);
  auto sum = executor.submit<std::int32_t>("sum", 5, 6);
  EXPECT_EQ(server.command({"GET", key(":retry-interval")}), "1000");
  const auto child = redisson::test::spawn_child("executor_worker_dies_mid_task", {server.url()});
  EXPECT_EQ(redisson::test::wait_exit(child), 3) << "the worker took the task and died in it";
  EXPECT_EQ(server.command({"HEXISTS", key(":tasks"), sum.task_id()}), "1") << "not finished";
  EXPECT_EQ(executor.task_count(), 1);

  const ShutdownAtEnd stop_worker{worker_client};
  ExecutorService(worker_client, "jobs", nullptr, options).register_workers(tasks(worker_client));
  EXPECT_EQ(sum.get(20s), 11);
  EXPECT_TRUE(eventually([&] { return executor.task_count() == 0; }));
}

TEST_F(ExecutorServiceTest, BadInputIsRefusedAndWritesNothing) {
  ExecutorService executor(client, "jobs");
  expect_failure(
      errc::invalid_argument, [&] { executor.submit<std::int32_t>("", 1); }, "name");
  expect_failure(
      errc::invalid_argument, [&] { executor.schedule<std::int32_t>("sum", -1ms, 1, 2); },
      "negative delay");
  expect_failure(
      errc::invalid_argument, [&] { executor.schedule_at_fixed_rate("mark", 0ms, 0ms, 1); },
      "period must be positive");
  expect_failure(
      errc::invalid_argument, [&] { executor.schedule_with_fixed_delay("mark", 0ms, -5ms, 1); },
      "period must be positive");
  expect_failure(
      errc::invalid_argument,
      [&] { executor.schedule("mark", CronSchedule::of("0 0 0 1 1 ? 1999", CronZone::utc()), 1); },
      "names no time");
  expect_failure(
      errc::invalid_argument, [&] { executor.register_workers(ExecutorTasks(), 0); }, "workers");
  expect_failure(
      errc::invalid_argument, [&] { ExecutorService(client, ""); }, "name");
  expect_failure(
      errc::invalid_argument, [&] { ExecutorService(client, "jobs", redisson::codecs::string()); },
      "codec");
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
  // A key of the executor holding another type: the server's error, nothing written.
  server.command({"SET", key(":tasks"), "x"});
  expect_failure(
      errc::wrong_type, [&] { executor.submit<std::int32_t>("sum", 1, 2); }, "WRONGTYPE");
  EXPECT_EQ(server.command({"DBSIZE"}), "1");
}

TEST_F(ExecutorServiceTest, AJavaTaskIsLeftToItsRetryEntryByCppWorkers) {
  // What Java Redisson 3.52 queued for submit(new SumTask(2, 3)) with no worker (the services
  // fixtures): Java bytecode a C++ worker cannot run. It is reported and left in the tasks hash.
  const auto& stored = java_service_case("executor_kryo").at("state_queued_no_worker");
  std::string list;
  std::string id;
  std::string request;
  for (const auto& entry : stored) {
    if (entry.at("type") == "list") {
      list = entry.at("key");
      id = entry.at("content").at(0).at("text");
    }
    if (entry.at("type") == "hash") {
      request = from_hex(entry.at("content").at(0).at(1).at("hex").get<std::string>());
    }
  }
  ASSERT_FALSE(id.empty());
  server.command({"HSET", list + ":tasks", id, request});
  server.command({"RPUSH", list, id});

  std::mutex mutex;
  std::vector<std::string> reported;
  auto config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    std::lock_guard lock(mutex);
    reported.emplace_back(failure.what());
  };
  Client java_neighbour(config);
  const ShutdownAtEnd stop{java_neighbour};
  ExecutorService(java_neighbour, "fx2:executor_kryo").register_workers(tasks(java_neighbour));
  EXPECT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return !reported.empty();
  }));
  {
    std::lock_guard lock(mutex);
    EXPECT_NE(reported.front().find("cannot run (a Java task?)"), std::string::npos)
        << reported.front();
  }
  EXPECT_EQ(server.command({"HEXISTS", list + ":tasks", id}), "1") << "left for a Java worker";
}

}  // namespace services_executor_service_test
