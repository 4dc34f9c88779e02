// A Semaphore's waiters know their place (src/sync/lua/semaphore_try_acquire_in_turn.lua): a
// waiter's failed attempt writes it into an order (since when it waits) and answers how many wait
// before it and how many permits were free, and a waiter lets a release go by whose count of free
// permits cannot reach it (AcquireMachine::message; which release a waiter lets go by, and when it
// checks, is tested with a made-up clock in tests/unit/sync/acquire_machine_test.cpp). One not in
// the order yet comes after those in it; among those in it, the first to ask takes.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "fault/fault_proxy.hpp"
#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/on_io.hpp"
#include "support/redis_server.hpp"
#include "sync/own_releases.hpp"

namespace sync_semaphore_turns_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::FaultProxy;
using redisson::test::on_io;
using redisson::test::RedisServer;

namespace {

constexpr auto kGenerous = 20s;

const std::string kName = "slots";
const std::string kWaiters = "redisson_semaphore_waiters:{slots}";
const std::string kSeen = "redisson_semaphore_waiters_seen:{slots}";

// One first send of the script: `waiter` asks for one permit, having waited `waited_us`.
std::string attempt(const RedisServer& server, const std::string& waiter, long waited_us,
                    const std::string& latch = "l", const std::string& first = "1") {
  const std::string source(redisson::detail::lua::semaphore_try_acquire_in_turn.source);
  return server.command({"EVAL", source, "4", kName, "redisson_acquire_latch:{slots}:" + latch,
                         kWaiters, kSeen, "1", "20000", first, waiter, std::to_string(waited_us),
                         "10000"});
}

std::int64_t evalsha_calls(const RedisServer& server) {
  return redisson::test::command_calls(server, "evalsha");
}

// `count` waiters that never take a permit (they last tried in the far future, so they are never
// dropped) stand ahead of whoever joins next.
void waiters_ahead(const RedisServer& server, int count) {
  for (int i = 1; i <= count; ++i) {
    const auto waiter = "ahead-" + std::to_string(i);
    server.command({"ZADD", kWaiters, std::to_string(i), waiter});
    server.command({"ZADD", kSeen, "1e15", waiter});
  }
}

void publish_count(const RedisServer& server, const std::string& count) {
  server.command({"PUBLISH", "redisson_sc:{slots}", count});
}

}  // namespace

TEST(SemaphoreTurns, ScriptTellsEachWaiterItsPlace) {
  RedisServer server;
  server.command({"SET", kName, "0"});
  // {0, ahead, available}
  EXPECT_EQ(attempt(server, "a", 5'000), "0\n0\n0");
  EXPECT_EQ(attempt(server, "b", 1'000), "0\n1\n0");
  EXPECT_EQ(attempt(server, "c", 900'000), "0\n0\n0");  // waited longest: first
  EXPECT_EQ(server.command({"ZRANK", kWaiters, "b"}), "2");
  EXPECT_EQ(server.command({"ZCARD", kSeen}), "3");

  // Permits go to whoever asks (the order only informs); the taker leaves the order.
  server.command({"SET", kName, "1"});
  EXPECT_EQ(attempt(server, "b", 2'000, "m"), "1");
  EXPECT_EQ(server.command({"GET", kName}), "0");
  EXPECT_EQ(server.command({"ZRANK", kWaiters, "b"}), "(nil)");
  EXPECT_EQ(server.command({"ZSCORE", kSeen, "b"}), "(nil)");
  // A retry of that request finds its latch: taken once, not twice.
  server.command({"SET", kName, "1"});
  EXPECT_EQ(attempt(server, "b", 2'000, "m", "0"), "1");
  EXPECT_EQ(server.command({"GET", kName}), "1");
  // Too few for the ask: the reply says how many are free.
  const std::string source(redisson::detail::lua::semaphore_try_acquire_in_turn.source);
  EXPECT_EQ(server.command({"EVAL", source, "4", kName, "redisson_acquire_latch:{slots}:n",
                            kWaiters, kSeen, "3", "20000", "1", "d", "0", "10000"}),
            "0\n2\n1");
}

// Records, as a release of `client` would, that it published `count` on the test's channel now.
void published_now(const Client& client, std::int64_t count) {
  on_io(client, [count](redisson::detail::ClientCore& core) {
    const std::string channel = "redisson_sc:{slots}";
    const auto now = redisson::detail::Clock::now();
    core.service<redisson::detail::OwnReleases>().published(channel, count, now, now,
                                                            core.subscriber().received(channel));
    return true;
  });
}

std::uint64_t messages_received(const Client& client) {
  return on_io(client, [](redisson::detail::ClientCore& core) {
    return core.subscriber().received("redisson_sc:{slots}").messages;
  });
}

std::size_t own_releases_recorded(const Client& client) {
  return on_io(client, [](redisson::detail::ClientCore& core) {
    return core.service<redisson::detail::OwnReleases>().size();
  });
}

// A waiter that starts listening while its own client's release message is still on its way
// lets that message go by (its first attempt saw those permits already; sync/own_releases.hpp),
// and is served all the same; so is one whose own release's message came before it listened.
// (Which messages go by is AcquireMachine's, tested in acquire_machine_test.cpp:
// ASemaphoreWaiterLetsItsOwnClientsReleaseMessageGoBy. The test records the release itself and
// publishes its message when it chooses; a release's real message comes within moments. The
// record is kept a minute here, not 50 ms.)
TEST(SemaphoreTurns, AWaiterWithItsOwnClientsReleasePendingIsServed) {
  RedisServer server;
  auto config = config_for(server);
  config.subscription_linger = 60s;
  Client client(config);
  on_io(client, [](redisson::detail::ClientCore& core) {
    core.service<redisson::detail::OwnReleases>().set_remembered(60s);
    return true;
  });
  redisson::Semaphore semaphore(client, kName);
  semaphore.set_recheck_interval(60s);
  // A release is recorded (nothing listens yet, so its message cannot have come already).
  semaphore.release(1);
  EXPECT_EQ(own_releases_recorded(client), 1U);
  server.command({"SET", kName, "0"});
  EXPECT_FALSE(semaphore.try_acquire_for(100ms));  // leaves the channel subscribed
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", kWaiters}) == "0"; }));
  server.command({"SET", kName, "1"});
  waiters_ahead(server, 2);

  // Its message still on its way when the waiter starts: let go by, the next one counts.
  published_now(client, 1);
  auto waiting = semaphore.async_acquire(1, asio::use_future);
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", kWaiters}) == "3"; }));
  publish_count(server, "1");            // its own release's message
  publish_count(server, "1");            // someone else's release
  publish_count(server, "not a count");  // in the order, it takes the free permit
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(waiting.get());

  // Its message came before the waiter listened: the first one it hears counts.
  server.command({"SET", kName, "1"});
  published_now(client, 1);
  const auto heard = messages_received(client);
  publish_count(server, "1");
  ASSERT_TRUE(eventually([&] { return messages_received(client) > heard; }));
  waiting = semaphore.async_acquire(1, asio::use_future);
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", kWaiters}) == "3"; }));
  publish_count(server, "1");
  publish_count(server, "not a count");
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
}

// A waiter not in the order yet takes only the permits beyond one per waiter in it; one in it
// takes whatever is free (first come among them).
TEST(SemaphoreTurns, ScriptKeepsFreePermitsForTheWaitersInTheOrder) {
  RedisServer server;
  server.command({"SET", kName, "0"});
  EXPECT_EQ(attempt(server, "a", 5'000), "0\n0\n0");
  EXPECT_EQ(attempt(server, "b", 1'000), "0\n1\n0");
  server.command({"SET", kName, "2"});
  EXPECT_EQ(attempt(server, "new", 0, "n1"), "0\n2\n2");  // both are a's and b's; new joins
  EXPECT_EQ(server.command({"GET", kName}), "2");
  server.command({"SET", kName, "4"});
  EXPECT_EQ(attempt(server, "other", 0, "n2"), "1");  // the fourth is nobody's
  EXPECT_EQ(attempt(server, "b", 1'000, "b1"), "1");  // in the order: b need not wait for a
  EXPECT_EQ(server.command({"GET", kName}), "2");
  EXPECT_EQ(server.command({"ZRANGE", kWaiters, "0", "-1"}), "a\nnew");
}

TEST(SemaphoreTurns, ScriptDropsWaitersNotSeenForLong) {
  RedisServer server;
  server.command({"SET", kName, "0"});
  server.command({"ZADD", kWaiters, "1", "gone"});  // waited since 1970...
  server.command({"ZADD", kSeen, "1", "gone"});     // ...and last tried then
  EXPECT_EQ(attempt(server, "live", 0), "0\n0\n0");
  EXPECT_EQ(server.command({"ZCARD", kWaiters}), "1");
  EXPECT_EQ(server.command({"ZCARD", kSeen}), "1");
}

TEST(SemaphoreTurns, ScriptRefusesAKeyOfAnotherTypeAndChangesNothing) {
  RedisServer server;
  server.command({"SET", kName, "many"});
  EXPECT_NE(attempt(server, "a", 0).find("WRONGTYPE"), std::string::npos);
  EXPECT_EQ(server.command({"GET", kName}), "many");
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
}

// Five waiters in five clients, one permit released at a time: each release serves one, in the
// order. (That a release wakes only the waiters it can reach, and the next one checks a moment
// later, is AcquireMachine's: acquire_machine_test.cpp,
// ASemaphoreReleaseWakesOnlyTheWaitersItCanReach.)
TEST(SemaphoreTurns, ReleasesServeTheWaitersOneAtATime) {
  RedisServer server;
  Client releaser(config_for(server));
  redisson::Semaphore(releaser, kName).try_set_permits(0);
  std::vector<std::unique_ptr<Client>> clients;
  std::vector<std::future<bool>> waiting;
  for (int i = 0; i < 5; ++i) {
    clients.push_back(std::make_unique<Client>(config_for(server)));
    redisson::Semaphore semaphore(*clients.back(), kName);
    semaphore.set_recheck_interval(60s);  // no re-check during the test
    waiting.push_back(semaphore.async_acquire(1, asio::use_future));
    const auto joined = std::to_string(i + 1);
    ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", kWaiters}) == joined; }));
  }
  redisson::Semaphore(releaser, kName).release(1);
  int served = 0;
  ASSERT_TRUE(eventually([&] {
    served = 0;
    for (auto& one : waiting) served += one.wait_for(0s) == std::future_status::ready ? 1 : 0;
    return served == 1;
  }));
  EXPECT_TRUE(eventually([&] { return server.command({"ZCARD", kWaiters}) == "4"; }));

  // The rest are served as permits come, one at a time.
  for (int i = 0; i < 4; ++i) redisson::Semaphore(releaser, kName).release(1);
  for (auto& one : waiting) {
    ASSERT_EQ(one.wait_for(kGenerous), std::future_status::ready);
    EXPECT_TRUE(one.get());
  }
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
  EXPECT_EQ(server.command({"EXISTS", kSeen}), "0");
}

// A process that releases and asks again at once does not take the permit its release woke a
// waiter for: it gets in line behind that waiter. The waiter's commands take 3 ms longer to reach
// the server (a proxy), so without the order the releaser, which hears of its release first,
// would win every round. (The free permit is kept for the waiter ahead for 10 ms, then checked:
// a machine loaded enough to wake the waiter later than that may give the permit to the
// newcomer, so one round in five may go the other way.)
TEST(SemaphoreTurns, AWaiterIsNotOvertakenByOneThatAsksAfterIt) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  proxy.set_latency(redisson::test::Direction::client_to_server, 3ms);
  Client waiter_client(config_for(proxy.url()));
  Client holder_client(config_for(server));
  redisson::Semaphore holder(holder_client, kName);
  holder.try_set_permits(1);
  ASSERT_TRUE(holder.try_acquire());
  redisson::Semaphore waiter(waiter_client, kName);
  waiter.set_recheck_interval(60s);
  int waiter_first = 0;
  constexpr int kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    auto waiting = waiter.async_acquire(1, asio::use_future);
    ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", kWaiters}) == "1"; }));
    holder.release();
    if (holder.try_acquire_for(300ms)) {
      holder.release();  // overtaken: the waiter takes it now
    } else {
      ++waiter_first;
    }
    ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
    EXPECT_TRUE(waiting.get());
    // Turn about: the permit comes back to the holder for the next round.
    waiter.release();
    ASSERT_TRUE(holder.try_acquire_for(kGenerous));
  }
  EXPECT_GE(waiter_first, kRounds - 1);
}

// The permits kept for the waiters in the order wait for them only briefly: a newcomer passed
// over for a head that does not come (here: one that never tries) is in the order after its
// first attempt, and one permit short of its turn it checks again moments later and takes it.
// (Its re-check interval is a minute, and it listens on the channel from an earlier wait, so
// that no attempt follows a subscription: only that check can serve it within the test.)
TEST(SemaphoreTurns, PermitsKeptForAHeadThatDoesNotComeGoToTheNext) {
  RedisServer server;
  auto config = config_for(server);
  config.subscription_linger = 60s;
  Client client(config);
  redisson::Semaphore semaphore(client, kName);
  semaphore.set_recheck_interval(60s);
  semaphore.try_set_permits(0);
  EXPECT_FALSE(semaphore.try_acquire_for(100ms));  // leaves the channel subscribed
  ASSERT_TRUE(eventually([&] { return server.command({"EXISTS", kWaiters}) == "0"; }));

  server.command({"SET", kName, "1"});
  server.command({"ZADD", kWaiters, "1", "stalled"});
  server.command({"ZADD", kSeen, "1e15", "stalled"});
  const auto before = evalsha_calls(server);
  auto waiting = semaphore.async_acquire(1, asio::use_future);  // no deadline: no last attempt
  ASSERT_EQ(waiting.wait_for(kGenerous), std::future_status::ready);
  EXPECT_TRUE(waiting.get());
  EXPECT_EQ(evalsha_calls(server) - before, 2);  // passed over, then the check
  EXPECT_EQ(server.command({"GET", kName}), "0");
}

TEST(SemaphoreTurns, AWaiterThatStopsWaitingLeavesTheOrder) {
  RedisServer server;
  Client client(config_for(server));
  redisson::Semaphore semaphore(client, kName);
  semaphore.try_set_permits(0);
  EXPECT_FALSE(semaphore.try_acquire_for(300ms));
  EXPECT_TRUE(eventually([&] { return server.command({"EXISTS", kWaiters}) == "0"; }));
  EXPECT_EQ(server.command({"EXISTS", kSeen}), "0");
  // A single try never joins it.
  EXPECT_FALSE(semaphore.try_acquire(1));
  EXPECT_EQ(server.command({"EXISTS", kWaiters}), "0");
}

}  // namespace sync_semaphore_turns_test
