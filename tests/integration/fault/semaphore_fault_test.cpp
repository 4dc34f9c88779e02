// Semaphores through the fault proxy: an acquisition that ran on the server while every reply to
// it was lost. A permit has no owner and no lease, so one taken that way and never given back
// would be gone for good; the client gives it back and reports the failure.
#include <gtest/gtest.h>

#include "fault/fault_proxy.hpp"
#include "lua_scripts.hpp"
#include "redisson/permit_expirable_semaphore.hpp"
#include "redisson/redisson.hpp"
#include "redisson/semaphore.hpp"
#include "support/eventually.hpp"
#include "support/fault_config.hpp"
#include "support/redis_server.hpp"

namespace fault_semaphore_fault_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::Direction;
using redisson::test::eventually;
using redisson::test::FaultProxy;
using redisson::test::RedisServer;

namespace {

// Commands time out after 300 ms and are sent three more times: an acquisition whose replies
// are held back fails once every send timed out (the client opens a new connection after each
// timeout). Its latch lives (300 ms + retry_interval) per send, 5.2 s; the give-back, sent as
// many times, finds it once the test has let the replies through: the attempts leave the test's
// thread about a second to do so, however late the machine wakes it.
Config lossy_config(std::string_view url) {
  auto config = redisson::test::fault_config(url, 300ms);
  config.retry_attempts = 3;
  config.retry_interval = 1000ms;
  return config;
}

// Holds every reply back (the server runs the commands, the client hears nothing) while `acquire`
// runs, which must fail as a timeout or a lost connection; then lets replies through again,
// those held included (a new connection's handshake may be among them).
template <class Acquire>
void lose_the_replies_of(FaultProxy& proxy, Acquire acquire) {
  proxy.block(Direction::server_to_client);
  try {
    acquire();
    ADD_FAILURE() << "acquire succeeded with every reply held back";
  } catch (const redisson::error& e) {
    EXPECT_TRUE(e.code() == errc::timeout || e.code() == errc::connection_lost) << e.what();
  }
  proxy.heal();
}

}  // namespace

TEST(SemaphoreFault, PermitsTakenByAnAcquireWhoseRepliesWereLostAreGivenBack) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(lossy_config(proxy.url()));
  auto semaphore = redisson::Semaphore(client, "lost-reply:semaphore");
  ASSERT_TRUE(semaphore.try_set_permits(3));
  semaphore.acquire(2);  // loads the acquire script: a NOSCRIPT held back would stop it running
  semaphore.release(2);
  // The give-back is this test's first; its NOSCRIPT could be held back as well.
  server.command(
      {"SCRIPT", "LOAD", std::string(redisson::detail::lua::semaphore_give_back.source)});

  lose_the_replies_of(proxy, [&] { semaphore.acquire(2); });
  // The acquisition ran (the server took the permits), then the give-back put them back.
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "lost-reply:semaphore"}) == "3";
  })) << "permits left: "
      << server.command({"GET", "lost-reply:semaphore"});
  EXPECT_EQ(semaphore.available_permits(), 3);
  EXPECT_TRUE(semaphore.try_acquire(3));
}

TEST(SemaphoreFault, APermitTakenByAnAcquireWhoseRepliesWereLostIsReleased) {
  RedisServer server;
  FaultProxy proxy(server.host(), server.port());
  Client client(lossy_config(proxy.url()));
  auto semaphore = redisson::PermitExpirableSemaphore(client, "lost-reply:expirable");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  semaphore.release(semaphore.acquire());  // loads the acquire and release scripts

  lose_the_replies_of(proxy, [&] { (void)semaphore.acquire(); });
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "lost-reply:expirable"}) == "1" &&
           server.command({"ZCARD", "{lost-reply:expirable}:timeout"}) == "0";
  })) << "permits left: "
      << server.command({"GET", "lost-reply:expirable"});
  EXPECT_EQ(semaphore.available_permits(), 1);
}

}  // namespace fault_semaphore_fault_test
