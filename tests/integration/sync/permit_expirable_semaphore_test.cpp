// The permit-expirable semaphore against a real redis-server: permits with ids and leases in
// Redisson's layout (count key + "{n}:timeout" sorted set of 16-byte ids), expired permits
// coming back, release and lease updates by id, waking on the release message, and clear
// errors that change nothing.
#include "redisson/permit_expirable_semaphore.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/error.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>
#include <cstdio>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "lua_scripts.hpp"
#include "redisson/client.hpp"
#include "support/child_process.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"

namespace sync_permit_expirable_semaphore_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::PermitExpirableSemaphore;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::Messages;
using redisson::test::RedisServer;
using redisson::test::spawn_children;
using redisson::test::subscribers_are;
using redisson::test::wait_exit;

namespace {

constexpr const char* kNoExpiry = "922337203685477";

// The 16 bytes Redis stores for a permit id shown as 32 hex characters.
std::string id_bytes(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

bool is_lower_hex(const std::string& text) {
  return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

long long epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

constexpr int kPoolPermits = 2;

// A process of its own: 100 rounds of taking a permit of "pool" (60 s lease) and counting, in
// Redis, how many are inside at once ("violations" when more than kPoolPermits).
// args: the server's URL.
REDISSON_TEST_CHILD(use_expirable_pool_permits) {
  Client client(config_for(args.at(0)));
  redisson::PermitExpirableSemaphore semaphore(client, "pool");
  for (int i = 0; i < 100; ++i) {
    const auto id = semaphore.acquire(60s);
    const auto inside = client.execute({"INCR", "inside"}).integer;
    if (inside > kPoolPermits) client.execute({"INCR", "violations"});
    client.execute({"DECR", "inside"});
    semaphore.release(id);
  }
  return 0;
}

}  // namespace

TEST(PermitExpirableSemaphore, AcquireRecordsPermitIdsInRedissonLayout) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "pes");
  EXPECT_FALSE(semaphore.try_acquire().has_value());  // absent: no permits
  ASSERT_TRUE(semaphore.try_set_permits(2));
  EXPECT_FALSE(semaphore.try_set_permits(5));
  EXPECT_EQ(server.command({"GET", "pes"}), "2");

  const std::string forever = semaphore.acquire();
  EXPECT_EQ(forever.size(), 32u);
  EXPECT_TRUE(is_lower_hex(forever)) << forever;
  EXPECT_EQ(server.command({"GET", "pes"}), "1");
  EXPECT_EQ(server.command({"TYPE", "{pes}:timeout"}), "zset");
  // Members are the id's 16 raw bytes, scored with Redisson's "never expires" value.
  EXPECT_EQ(server.command({"ZRANGE", "{pes}:timeout", "0", "-1", "WITHSCORES"}),
            id_bytes(forever) + "\n" + kNoExpiry);

  const auto before = epoch_ms();
  const std::string leased = semaphore.acquire(10s);
  const auto after = epoch_ms();
  EXPECT_NE(leased, forever);
  EXPECT_EQ(server.command({"GET", "pes"}), "0");
  const auto expiry = std::stoll(server.command({"ZSCORE", "{pes}:timeout", id_bytes(leased)}));
  EXPECT_GE(expiry, before + 10000);
  EXPECT_LE(expiry, after + 10000);
  EXPECT_FALSE(semaphore.try_acquire().has_value());
  EXPECT_EQ(semaphore.available_permits(), 0);

  semaphore.release(forever);
  semaphore.release(leased);
  EXPECT_EQ(server.command({"GET", "pes"}), "2");
  EXPECT_EQ(server.command({"ZCARD", "{pes}:timeout"}), "0");
  EXPECT_TRUE(semaphore.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "pes", "{pes}:timeout"}), "0");
  EXPECT_FALSE(semaphore.delete_object());
}

TEST(PermitExpirableSemaphore, ExpiredPermitComesBackAfterItsLease) {
  RedisServer server;
  Client holder_client(config_for(server));
  redisson::PermitExpirableSemaphore holder(holder_client, "lease");
  ASSERT_TRUE(holder.try_set_permits(1));
  const std::string id = holder.acquire(300ms);
  Client waiter_client(config_for(server));
  redisson::PermitExpirableSemaphore waiter(waiter_client, "lease");
  // No message comes when a lease runs out: the waiter must sleep until the nearest expiry
  // the server told it, not until a (here one-minute) re-check.
  waiter.set_recheck_interval(60s);
  std::promise<std::optional<std::string>> acquired;
  std::thread waiting([&] { acquired.set_value(waiter.try_acquire(50s, 60s)); });
  auto result = acquired.get_future();
  ASSERT_EQ(result.wait_for(20s), std::future_status::ready);
  waiting.join();
  const auto second = result.get();
  ASSERT_TRUE(second.has_value());
  EXPECT_NE(*second, id);
  EXPECT_EQ(server.command({"GET", "lease"}), "0");
  EXPECT_EQ(server.command({"ZCARD", "{lease}:timeout"}), "1");
  // The first holder's permit is gone: releasing it fails and changes nothing.
  expect_error(
      errc::not_owner, [&] { holder.release(id); }, "release of an expired permit");
  EXPECT_FALSE(holder.try_release(id));
  EXPECT_EQ(server.command({"GET", "lease"}), "0");
  waiter.release(*second);
  EXPECT_EQ(server.command({"GET", "lease"}), "1");
}

TEST(PermitExpirableSemaphore, CountsSetPermitsAndLeaseTime) {
  RedisServer server;
  Client client(config_for(server));
  PermitExpirableSemaphore semaphore(client, "counted");
  EXPECT_EQ(semaphore.permits(), 0);  // never set up
  semaphore.set_permits(3);
  EXPECT_EQ(server.command({"GET", "counted"}), "3");
  const std::string forever = semaphore.acquire();
  const std::string leased = semaphore.acquire(100s);
  EXPECT_EQ(semaphore.available_permits(), 1);
  EXPECT_EQ(semaphore.acquired_permits(), 2);
  EXPECT_EQ(semaphore.permits(), 3);

  EXPECT_EQ(semaphore.lease_time(forever), -1ms);
  const auto left = semaphore.lease_time(leased);
  ASSERT_TRUE(left.has_value());
  EXPECT_GT(*left, 90s);
  EXPECT_LE(*left, 100s);

  // The total moves; the held permits stay held (available may go below zero meanwhile).
  semaphore.set_permits(5);
  EXPECT_EQ(semaphore.available_permits(), 3);
  semaphore.set_permits(1);
  EXPECT_EQ(semaphore.available_permits(), -1);
  EXPECT_EQ(semaphore.async_permits(asio::use_future).get(), 1);
  semaphore.release(forever);
  EXPECT_EQ(semaphore.available_permits(), 0);

  // A lease that ran out: not held any more, and the permit is reclaimed by the call.
  server.command({"ZADD", "{counted}:timeout", "1", redisson::test::from_hex(leased)});
  EXPECT_FALSE(semaphore.lease_time(leased).has_value());
  EXPECT_EQ(semaphore.acquired_permits(), 0);
  EXPECT_EQ(semaphore.available_permits(), 1);
  EXPECT_FALSE(semaphore.lease_time("00112233445566778899aabbccddeeff").has_value());

  expect_error(
      errc::invalid_argument, [&] { semaphore.set_permits(-1); }, "negative total");
  expect_error(
      errc::invalid_argument, [&] { (void)semaphore.lease_time("not hex"); }, "bad permit id");
  EXPECT_EQ(server.command({"GET", "counted"}), "1");
  server.command({"SET", "text", "abc"});
  PermitExpirableSemaphore wrong(client, "text");
  expect_error(
      errc::wrong_type, [&] { wrong.set_permits(2); }, "set_permits on text");
  EXPECT_EQ(server.command({"GET", "text"}), "abc");
}

TEST(PermitExpirableSemaphore, ReleaseOfUnknownReleasedOrExpiredIdFails) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "ids");
  ASSERT_TRUE(semaphore.try_set_permits(2));
  const std::string held = semaphore.acquire();
  const std::string unknown = "0123456789abcdef0123456789abcdef";
  expect_error(
      errc::not_owner, [&] { semaphore.release(unknown); }, "unknown id");
  EXPECT_FALSE(semaphore.try_release(unknown));
  expect_error(
      errc::not_owner, [&] { semaphore.async_release(unknown, asio::use_future).get(); },
      "async unknown id");
  EXPECT_EQ(server.command({"GET", "ids"}), "1");
  EXPECT_EQ(server.command({"ZCARD", "{ids}:timeout"}), "1");

  semaphore.release(held);
  expect_error(
      errc::not_owner, [&] { semaphore.release(held); }, "released twice");
  EXPECT_EQ(server.command({"GET", "ids"}), "2");

  // An expired permit that nobody reclaimed yet is not held either; releasing it fails,
  // and it is reclaimed (as the next acquire would have done).
  const std::string brief = semaphore.acquire(50ms);
  const auto expiry = std::stoll(server.command({"ZSCORE", "{ids}:timeout", id_bytes(brief)}));
  ASSERT_TRUE(eventually([&] { return epoch_ms() > expiry; }));
  EXPECT_EQ(server.command({"GET", "ids"}), "1");
  expect_error(
      errc::not_owner, [&] { semaphore.release(brief); }, "expired id");
  EXPECT_EQ(server.command({"GET", "ids"}), "2");
  EXPECT_EQ(server.command({"ZCARD", "{ids}:timeout"}), "0");
}

TEST(PermitExpirableSemaphore, UpdateLeaseExtendsOrShortensHeldPermits) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "renew");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  const std::string id = semaphore.acquire(5s);
  const auto before = epoch_ms();
  EXPECT_TRUE(semaphore.update_lease(id, 60s));
  const auto extended = std::stoll(server.command({"ZSCORE", "{renew}:timeout", id_bytes(id)}));
  EXPECT_GE(extended, before + 60000);
  EXPECT_TRUE(semaphore.async_update_lease(id, 120s, asio::use_future).get());
  EXPECT_GE(std::stoll(server.command({"ZSCORE", "{renew}:timeout", id_bytes(id)})),
            before + 120000);
  EXPECT_FALSE(semaphore.update_lease("ffffffffffffffffffffffffffffffff", 60s));

  // Shortening works too: the permit then comes back to another client.
  EXPECT_TRUE(semaphore.update_lease(id, 200ms));
  Client other_client(config_for(server));
  redisson::PermitExpirableSemaphore other(other_client, "renew");
  const auto taken = other.try_acquire_for(30s);
  ASSERT_TRUE(taken.has_value());
  // An expired permit is not revived by a late update.
  EXPECT_FALSE(semaphore.update_lease(id, 60s));
  EXPECT_EQ(server.command({"ZCARD", "{renew}:timeout"}), "1");
  EXPECT_EQ(server.command({"ZSCORE", "{renew}:timeout", id_bytes(*taken)}), kNoExpiry);
  other.release(*taken);
}

TEST(PermitExpirableSemaphore, ReleaseWakesBlockedAcquirerByMessage) {
  RedisServer server;
  Client holder_client(config_for(server));
  redisson::PermitExpirableSemaphore holder(holder_client, "wake");
  ASSERT_TRUE(holder.try_set_permits(1));
  const std::string id = holder.acquire();  // never expires: no lease to wait for
  Client waiter_client(config_for(server));
  redisson::PermitExpirableSemaphore waiter(waiter_client, "wake");
  waiter.set_recheck_interval(60s);
  std::promise<std::optional<std::string>> acquired;
  std::thread waiting([&] { acquired.set_value(waiter.try_acquire_for(50s)); });
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{wake}", 1));
  holder.release(id);
  auto result = acquired.get_future();
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);  // 20 s << 60 s re-check
  waiting.join();
  EXPECT_TRUE(result.get().has_value());
  EXPECT_TRUE(subscribers_are(server, "redisson_sc:{wake}", 0));
}

TEST(PermitExpirableSemaphore, HoldersNeverExceedPermitsAcrossProcesses) {
  RedisServer server;
  constexpr int kProcesses = 4;
  {
    Client client(config_for(server));
    ASSERT_TRUE(redisson::PermitExpirableSemaphore(client, "pool").try_set_permits(kPoolPermits));
  }
  const auto children = spawn_children("use_expirable_pool_permits", kProcesses, {server.url()});
  for (auto pid : children) EXPECT_EQ(wait_exit(pid), 0);
  EXPECT_EQ(server.command({"GET", "violations"}), "(nil)");
  EXPECT_EQ(server.command({"GET", "pool"}), std::to_string(kPoolPermits));
  EXPECT_EQ(server.command({"ZCARD", "{pool}:timeout"}), "0");
}

TEST(PermitExpirableSemaphore, RetriedAcquireWithTheSameIdTakesOnePermit) {
  RedisServer server;
  server.command({"SET", "retry", "2"});
  // The exact acquire, sent twice with one id: as when the first reply is lost and the
  // client resends.
  const std::string source(redisson::detail::lua::expirable_semaphore_try_acquire.source);
  const std::string id = id_bytes("00112233445566778899aabbccddeeff");
  const auto now = std::to_string(epoch_ms());
  auto send = [&] {
    return server.command({"EVAL", source, "3", "retry", "{retry}:timeout", "redisson_sc:{retry}",
                           id, kNoExpiry, now, kNoExpiry, "publish"});
  };
  EXPECT_EQ(send(), id);
  EXPECT_EQ(send(), id);
  EXPECT_EQ(server.command({"GET", "retry"}), "1");
  EXPECT_EQ(server.command({"ZCARD", "{retry}:timeout"}), "1");
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore(client, "retry").release("00112233445566778899aabbccddeeff");
  EXPECT_EQ(server.command({"GET", "retry"}), "2");
}

TEST(PermitExpirableSemaphore, ReclaimsExpiredPermitsOfOtherClientsAndPublishes) {
  RedisServer server;
  // Another client (a Java Redisson one, say) holds the only permit, and its lease is over.
  const std::string foreign = id_bytes("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  server.command({"SET", "shared", "0"});
  server.command({"ZADD", "{shared}:timeout", std::to_string(epoch_ms() - 1000), foreign});
  Client client(config_for(server));
  Messages messages;
  auto subscription = client.subscribe("redisson_sc:{shared}", messages.sink());
  redisson::PermitExpirableSemaphore semaphore(client, "shared");
  const auto id = semaphore.try_acquire();
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(server.command({"GET", "shared"}), "0");
  EXPECT_EQ(server.command({"ZRANGE", "{shared}:timeout", "0", "-1", "WITHSCORES"}),
            id_bytes(*id) + "\n" + kNoExpiry);
  // The reclaim published the count it restored.
  EXPECT_TRUE(eventually([&] { return messages.get() == std::vector<std::string>{"1"}; }))
      << ::testing::PrintToString(messages.get());

  // available_permits reclaims too.
  server.command({"ZADD", "{shared}:timeout", std::to_string(epoch_ms() - 1000), foreign});
  EXPECT_EQ(semaphore.available_permits(), 1);
  EXPECT_EQ(server.command({"GET", "shared"}), "1");
}

TEST(PermitExpirableSemaphore, AsyncTwinsWork) {
  RedisServer server;
  Client client(config_for(server));
  redisson::PermitExpirableSemaphore semaphore(client, "async");
  EXPECT_TRUE(semaphore.async_try_set_permits(1, asio::use_future).get());
  const auto id = semaphore.async_acquire(0ms, 30s, asio::use_future).get();
  ASSERT_TRUE(id.has_value());
  EXPECT_FALSE(semaphore.async_acquire(0ms, std::nullopt, asio::use_future).get().has_value());
  EXPECT_EQ(semaphore.async_available_permits(asio::use_future).get(), 0);
  auto waiting = semaphore.async_acquire(std::nullopt, std::nullopt, asio::use_future);
  EXPECT_TRUE(semaphore.async_try_release(*id, asio::use_future).get());
  ASSERT_EQ(waiting.wait_for(20s), std::future_status::ready);
  const auto next = waiting.get();
  ASSERT_TRUE(next.has_value());
  EXPECT_FALSE(semaphore.async_try_release(*id, asio::use_future).get());
  semaphore.async_release(*next, asio::use_future).get();
  semaphore.async_add_permits(2, asio::use_future).get();
  EXPECT_EQ(server.command({"GET", "async"}), "3");
  EXPECT_TRUE(semaphore.async_delete_object(asio::use_future).get());
}

TEST(PermitExpirableSemaphore, BadArgumentsAndWrongTypeGiveClearErrorsAndChangeNothing) {
  RedisServer server;
  Client client(config_for(server));
  expect_error(
      errc::invalid_argument, [&] { redisson::PermitExpirableSemaphore(client, ""); },
      "empty name");
  redisson::PermitExpirableSemaphore semaphore(client, "args");
  const std::string valid = "0123456789abcdef0123456789abcdef";
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_set_permits(-1); }, "set(-1)");
  expect_error(
      errc::invalid_argument, [&] { semaphore.acquire(0ms); }, "lease 0");
  expect_error(
      errc::invalid_argument, [&] { semaphore.acquire(-1s); }, "lease -1s");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_acquire(-1ms, 1s); }, "wait -1ms");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_acquire_for(1s, 0s); }, "lease 0s");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_acquire_for(-1s); }, "wait -1s");
  expect_error(
      errc::invalid_argument, [&] { semaphore.update_lease(valid, 0ms); }, "update 0");
  expect_error(
      errc::invalid_argument, [&] { semaphore.release(""); }, "empty id");
  expect_error(
      errc::invalid_argument, [&] { semaphore.release("xyz"); }, "short id");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_release(valid + valid); }, "long id");
  expect_error(
      errc::invalid_argument, [&] { semaphore.try_release("0123456789abcdef0123456789abcdeg"); },
      "non-hex id");
  expect_error(
      errc::invalid_argument, [&] { semaphore.async_acquire(0ms, -1ms, asio::use_future).get(); },
      "async lease");
  expect_error(
      errc::invalid_argument, [&] { semaphore.async_release("nope", asio::use_future).get(); },
      "async bad id");
  expect_error(
      errc::invalid_argument, [&] { semaphore.set_recheck_interval(-1s); }, "recheck");
  EXPECT_EQ(server.command({"EXISTS", "args", "{args}:timeout"}), "0");

  server.command({"HSET", "hashed", "field", "value"});
  redisson::PermitExpirableSemaphore wrong(client, "hashed");
  expect_error(
      errc::wrong_type, [&] { wrong.acquire(); }, "acquire");
  expect_error(
      errc::wrong_type, [&] { wrong.try_acquire(); }, "try_acquire");
  expect_error(
      errc::wrong_type, [&] { wrong.release(valid); }, "release");
  expect_error(
      errc::wrong_type, [&] { wrong.update_lease(valid, 1s); }, "update_lease");
  expect_error(
      errc::wrong_type, [&] { wrong.try_set_permits(1); }, "try_set_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.add_permits(1); }, "add_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.available_permits(); }, "available_permits");
  expect_error(
      errc::wrong_type, [&] { wrong.delete_object(); }, "delete_object");
  EXPECT_EQ(server.command({"HGETALL", "hashed"}), "field\nvalue");
  EXPECT_EQ(server.command({"EXISTS", "{hashed}:timeout"}), "0");

  // A permit set of the wrong type fails before the count is touched.
  server.command({"SET", "split", "3"});
  server.command({"HSET", "{split}:timeout", "field", "value"});
  redisson::PermitExpirableSemaphore split(client, "split");
  expect_error(
      errc::wrong_type, [&] { split.try_acquire(); }, "split try_acquire");
  expect_error(
      errc::wrong_type, [&] { split.release(valid); }, "split release");
  expect_error(
      errc::wrong_type, [&] { split.available_permits(); }, "split available");
  expect_error(
      errc::wrong_type, [&] { split.delete_object(); }, "split delete");
  EXPECT_EQ(server.command({"GET", "split"}), "3");
  EXPECT_EQ(server.command({"HGETALL", "{split}:timeout"}), "field\nvalue");
}

// A cancelled acquire (Asio per-operation cancellation) stops waiting at once, completes with
// operation_aborted, and leaves nothing behind that could take a permit later.
TEST(PermitExpirableSemaphore, CancelledAcquireTakesNothingAndReportsAborted) {
  RedisServer server;
  std::promise<std::pair<std::error_code, std::optional<std::string>>> outcome;
  asio::cancellation_signal cancel;
  Client client(config_for(server));
  PermitExpirableSemaphore semaphore(client, "cancelled");
  semaphore.set_recheck_interval(60s);  // only a message or the cancel ends the wait
  semaphore.async_acquire(
      std::nullopt, std::nullopt,
      asio::bind_cancellation_slot(cancel.slot(),
                                   [&](std::error_code ec, std::optional<std::string> permit) {
                                     outcome.set_value({ec, std::move(permit)});
                                   }));
  ASSERT_TRUE(subscribers_are(server, "redisson_sc:{cancelled}", 1));  // it waits
  cancel.emit(asio::cancellation_type::terminal);
  auto done = outcome.get_future();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready) << "the cancel did not stop the wait";
  const auto [ec, permit] = done.get();
  EXPECT_EQ(ec, std::error_code(asio::error::operation_aborted)) << ec.message();
  EXPECT_FALSE(permit.has_value());
  // A waiter left behind would take the permit on the release message.
  semaphore.add_permits(1);
  Client other(config_for(server));
  EXPECT_TRUE(PermitExpirableSemaphore(other, "cancelled").try_acquire_for(5s).has_value());
}

// The server grants a permit, then the caller cancels before its handler ran (its executor is
// idle until then): the completion reports operation_aborted and the permit id is released.
TEST(PermitExpirableSemaphore, GrantThatRacesTheCancelIsGivenBack) {
  RedisServer server;
  asio::io_context caller;
  asio::cancellation_signal cancel;
  std::optional<std::pair<std::error_code, std::optional<std::string>>> outcome;
  Client client(config_for(server));
  PermitExpirableSemaphore semaphore(client, "raced");
  ASSERT_TRUE(semaphore.try_set_permits(1));
  semaphore.async_acquire(
      std::nullopt, std::nullopt,
      asio::bind_cancellation_slot(
          cancel.slot(),
          asio::bind_executor(caller, [&](std::error_code ec, std::optional<std::string> permit) {
            outcome.emplace(ec, std::move(permit));
          })));
  ASSERT_TRUE(eventually([&] { return server.command({"ZCARD", "{raced}:timeout"}) == "1"; }));
  cancel.emit(asio::cancellation_type::terminal);
  caller.run();  // returns once the handler ran
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->first, std::error_code(asio::error::operation_aborted))
      << outcome->first.message();
  EXPECT_FALSE(outcome->second.has_value());
  EXPECT_TRUE(eventually([&] { return server.command({"ZCARD", "{raced}:timeout"}) == "0"; }));
  EXPECT_EQ(server.command({"GET", "raced"}), "1");
}

}  // namespace sync_permit_expirable_semaphore_test
