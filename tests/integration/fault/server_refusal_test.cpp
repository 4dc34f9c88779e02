// What a restarting server does to state-changing scripts: while it loads its data it answers
// LOADING (the script did not run), and a connection that dies with the old server loses the
// reply of a script that may have run. Both used to lose a Semaphore release for good (found by
// `make chaos`): a permit has no lease, so nothing gives it back.
//
// The loading server is a real one: DEBUG RELOAD with `key-load-delay` (a per-key delay meant
// for Redis's own tests) and a small `loading-process-events-interval-bytes`, so the server keeps
// answering LOADING for about a second.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <future>
#include <string>
#include <thread>

#include "fault/fault_proxy.hpp"
#include "redisson/fenced_lock.hpp"
#include "redisson/lock.hpp"
#include "redisson/read_write_lock.hpp"
#include "redisson/redisson.hpp"
#include "redisson/semaphore.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/redis_server.hpp"

namespace fault_server_refusal_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::Direction;
using redisson::test::eventually;
using redisson::test::fault_config;
using redisson::test::FaultProxy;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;

namespace {

// A server whose next DEBUG RELOAD keeps it loading for about a second (5000 keys, 200 µs
// each), answering LOADING to other clients meanwhile.
RedisServerOptions slow_loading() {
  RedisServerOptions options;
  options.extra_args = {"--loading-process-events-interval-bytes", "1024"};
  return options;
}

void prepare_slow_reload(const RedisServer& server) {
  ASSERT_EQ(server.command({"DEBUG", "POPULATE", "5000", "filler"}), "OK");
  ASSERT_EQ(server.command({"CONFIG", "SET", "key-load-delay", "200"}), "OK");
}

// How many commands the server has refused with LOADING since it started.
long loading_refusals(const RedisServer& server) {
  const auto info = server.command({"INFO", "errorstats"});
  const auto at = info.find("errorstat_LOADING:count=");
  return at == std::string::npos ? 0 : std::stol(info.substr(at + 24));
}

// Starts DEBUG RELOAD on its own connection and returns once the server answers LOADING; the
// returned future ends with the reload.
std::future<std::string> start_reload(const RedisServer& server) {
  auto reload = std::async(std::launch::async, [&server] {
    return server.command({"DEBUG", "RELOAD"});
  });
  const bool loading =
      eventually([&] { return server.command({"PING"}).starts_with("LOADING"); }, 5s, 1ms);
  EXPECT_TRUE(loading) << "the server never answered LOADING";
  return reload;
}

}  // namespace

TEST(ServerRefusal, ReleaseSentWhileTheServerLoadsRunsOnceWhenLoaded) {
  RedisServer server(slow_loading());
  prepare_slow_reload(server);
  Client client(fault_config(server.url(), 5000ms));
  redisson::Semaphore semaphore(client, "loading-sem");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  semaphore.acquire();
  const auto refused_before = loading_refusals(server);
  auto reload = start_reload(server);
  // Refused with LOADING (it did not run), then sent again until the server has loaded.
  EXPECT_NO_THROW(semaphore.release());
  EXPECT_EQ(reload.get(), "OK");
  EXPECT_GT(loading_refusals(server), refused_before + 1) << "the client never met LOADING";
  EXPECT_EQ(server.command({"GET", "loading-sem"}), "1");
  EXPECT_TRUE(semaphore.try_acquire());
}

TEST(ServerRefusal, LockTakenWhileTheServerLoadsIsHeldOnceLoaded) {
  RedisServer server(slow_loading());
  prepare_slow_reload(server);
  Client client(fault_config(server.url(), 5000ms));
  auto lock = redisson::Lock(client, "loading-lock");
  auto reload = start_reload(server);
  EXPECT_TRUE(lock.try_lock_for(4s));
  EXPECT_EQ(reload.get(), "OK");
  EXPECT_TRUE(lock.is_held_by_current_thread());
  lock.unlock();
  EXPECT_EQ(server.command({"EXISTS", "loading-lock"}), "0");
}

TEST(ServerRefusal, LoadingThatOutlastsEveryAttemptIsReportedAndNothingRuns) {
  RedisServer server(slow_loading());
  prepare_slow_reload(server);
  auto config = fault_config(server.url(), 150ms);
  config.retry_attempts = 0;  // one attempt, refused until its deadline
  Client client(config);
  redisson::Semaphore semaphore(client, "slow-sem");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  auto reload = start_reload(server);
  // A plain command is not sent again: the caller learns at once that it did not run.
  std::error_code ec;
  client.execute({"GET", "slow-sem"}, ec);
  EXPECT_EQ(ec, errc::server_busy) << ec.message();
  try {
    semaphore.release();
    FAIL() << "a release refused until its deadline succeeded";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::server_busy) << e.what();
  }
  EXPECT_EQ(reload.get(), "OK");
  // Refused, never run: the permit count is what it was.
  EXPECT_EQ(server.command({"GET", "slow-sem"}), "2");
}

// A release refused until its deadline did not run, so it is sent again like one whose reply
// was lost, while attempts remain: a permit has no lease, and a release that gives up loses it
// for good (chaos on a cluster: CLUSTERDOWN met at the last deadline of a release whose earlier
// attempts timed out on a dead master).
TEST(ServerRefusal, ReleaseRefusedUntilItsDeadlineIsSentAgainWhileAttemptsRemain) {
  RedisServer server(slow_loading());
  prepare_slow_reload(server);
  auto config = fault_config(server.url(), 150ms);
  config.retry_attempts = 40;  // 41 x 150 ms: longer than the ~1 s load
  Client client(config);
  redisson::Semaphore semaphore(client, "slow-sem-retried");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  auto reload = start_reload(server);
  EXPECT_NO_THROW(semaphore.release());
  EXPECT_EQ(reload.get(), "OK");
  EXPECT_EQ(server.command({"GET", "slow-sem-retried"}), "3");  // once, not once per attempt
}

TEST(ServerRefusal, ReleaseWhoseReplyIsLostIsRetriedWithoutAddingPermitsTwice) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 3000ms));
  redisson::Semaphore semaphore(client, "lost-reply-sem");
  // Loads the release script first: a NOSCRIPT reply held by the proxy would stop the release
  // from running at all.
  ASSERT_TRUE(semaphore.try_set_permits(1));
  semaphore.acquire();
  semaphore.release();
  semaphore.acquire();
  ASSERT_EQ(server.command({"GET", "lost-reply-sem"}), "0");
  proxy.block(Direction::server_to_client);
  auto released = semaphore.async_release(1, asio::use_future);
  // The release ran; its reply is held by the proxy and then lost with the connection. The
  // client cannot know whether it ran, so it sends the same request id again.
  ASSERT_TRUE(eventually([&] { return server.command({"GET", "lost-reply-sem"}) == "1"; }));
  proxy.reset_all();
  proxy.heal();
  ASSERT_EQ(released.wait_for(20s), std::future_status::ready);
  EXPECT_NO_THROW(released.get());
  // The retry found the release latch and added nothing.
  EXPECT_EQ(server.command({"GET", "lost-reply-sem"}), "1");
  EXPECT_EQ(semaphore.available_permits(), 1);
}

TEST(ServerRefusal, AcquireWhoseReplyIsLostIsRetriedWithoutLosingThePermit) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(fault_config(proxy.url(), 3000ms));
  redisson::Semaphore semaphore(client, "lost-acquire-sem");
  // Loads the acquire script first (see above).
  ASSERT_TRUE(semaphore.try_set_permits(1));
  semaphore.acquire();
  semaphore.release();
  proxy.block(Direction::server_to_client);
  auto acquired = semaphore.async_acquire(1, std::chrono::milliseconds(20000), asio::use_future);
  // The acquire took the permit; its reply is lost with the connection. Without the latch the
  // client could only report an error, and the permit would be gone for good.
  ASSERT_TRUE(eventually([&] { return server.command({"GET", "lost-acquire-sem"}) == "0"; }));
  proxy.reset_all();
  proxy.heal();
  ASSERT_EQ(acquired.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(acquired.get()) << "the retry must find that the first send took the permit";
  EXPECT_EQ(server.command({"GET", "lost-acquire-sem"}), "0");  // taken once, not twice
  semaphore.release();
  EXPECT_EQ(semaphore.available_permits(), 1);
}

// A refusal that is not temporary (here OOM: the server is over maxmemory with noeviction) fails
// the call at once, and the exception says what the server said, not only "server error": the
// asynchronous layer completes with a code alone, so the text has to be picked up on the way.
// (Not the fair lock: Redis refuses a script's write for OOM only until the script has written
// once, and the fair lock's script starts by pruning its queue, so it runs.)
TEST(ServerRefusal, RefusedScriptsReportTheServersTextAndChangeNothing) {
  RedisServer server;
  Client client(fault_config(server.url(), 2000ms));
  auto lock = redisson::Lock(client, "oom-lock");
  auto fenced = redisson::FencedLock(client, "oom-fenced");
  auto write = redisson::ReadWriteLock(client, "oom-rw").write_lock();
  redisson::Semaphore semaphore(client, "oom-sem");
  ASSERT_EQ(server.command({"CONFIG", "SET", "maxmemory", "1"}), "OK");
  auto expect_oom = [](const char* what, auto&& call) {
    try {
      call();
      ADD_FAILURE() << what << ": no error while the server is out of memory";
    } catch (const redisson::error& e) {
      EXPECT_EQ(e.code(), errc::server_error) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find("OOM command not allowed"), std::string::npos)
          << what << ": " << e.what();
    }
  };
  expect_oom("lock", [&] { lock.lock(); });
  expect_oom("fenced try_lock", [&] { (void)fenced.try_lock_for(500ms); });
  expect_oom("write lock", [&] { write.lock(); });
  expect_oom("semaphore try_set_permits", [&] { (void)semaphore.try_set_permits(1); });
  ASSERT_EQ(server.command({"CONFIG", "SET", "maxmemory", "0"}), "OK");
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
  // And the same client works once the server has room again.
  lock.lock();
  lock.unlock();
}

}  // namespace fault_server_refusal_test
