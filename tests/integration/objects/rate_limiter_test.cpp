// RateLimiter against a real redis-server: every operation, the layout and bytes Java Redisson
// 3.52 writes (the golden fixtures, random bytes and timestamps masked), limiters Java wrote
// read and drawn from, waiting (a waiter wakes when the window frees; no timing assertions),
// cancellation, time to live, the common object operations, and errors that change nothing.
#include "redisson/objects/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/io_context.hpp>
#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java352_fixtures.hpp"
#include "support/redis_server.hpp"

namespace objects_rate_limiter_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::RateLimiter;
using redisson::RateLimiterConfig;
using redisson::RateType;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::eventually;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace java = redisson::test::java352;

namespace {

/// An entry's bytes with its 16 random bytes masked ("10" + "xx" x 16 + permits), as hex.
std::string masked_entry(std::string_view hex) {
  if (hex.size() != 42) return std::string(hex);
  return std::string(hex.substr(0, 2)) + std::string(32, 'x') + std::string(hex.substr(34));
}

class RateLimiterTest : public ::testing::Test {
 protected:
  /// The permit entries of `key` (ZRANGE WITHSCORES): (member hex, score).
  std::vector<std::pair<std::string, std::int64_t>> entries(const std::string& key) {
    // Members are binary: read them one by one so that a newline byte cannot split one.
    std::vector<std::pair<std::string, std::int64_t>> out;
    const auto count = std::stoll(server.command({"ZCARD", key}));
    for (std::int64_t i = 0; i < count; ++i) {
      const auto at = std::to_string(i);
      const auto member = server.command({"ZRANGE", key, at, at});
      out.emplace_back(java::to_hex(member), std::stoll(server.command({"ZSCORE", key, member})));
    }
    return out;
  }

  RedisServer server;
  Client client{config_for(server)};
};

TEST_F(RateLimiterTest, TrySetRateWritesRedissonsConfigOnce) {
  RateLimiter limiter(client, "r");
  EXPECT_TRUE(limiter.try_set_rate(RateType::overall, 10, 1s));
  EXPECT_EQ(server.command({"HGETALL", "r"}),
            "rate\n10\ninterval\n1000\nkeepAliveTime\n0\ntype\n0");
  EXPECT_FALSE(limiter.try_set_rate(RateType::per_client, 5, 1min));
  EXPECT_EQ(limiter.get_config(), (RateLimiterConfig{RateType::overall, 10, 1000ms, 0ms}));
  EXPECT_EQ(server.command({"PTTL", "r"}), "-1");
}

TEST_F(RateLimiterTest, SetRateReplacesTheConfigAndStartsAfresh) {
  RateLimiter limiter(client, "s");
  limiter.set_rate(RateType::overall, 5, 1h);
  ASSERT_TRUE(limiter.try_acquire(5));
  EXPECT_EQ(limiter.available_permits(), 0);
  limiter.set_rate(RateType::overall, 3, 2h);
  EXPECT_EQ(limiter.get_config(), (RateLimiterConfig{RateType::overall, 3, 7'200'000ms, 0ms}));
  EXPECT_EQ(server.command({"EXISTS", "{s}:value", "{s}:permits"}), "0");
  EXPECT_EQ(limiter.available_permits(), 3);
  EXPECT_TRUE(limiter.try_acquire(3));
  EXPECT_FALSE(limiter.try_acquire());
}

TEST_F(RateLimiterTest, TryAcquireWritesJavasLayout) {
  RateLimiter limiter(client, "fx:ratelimiter_overall");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 10, 1s));
  const auto before = java::now_ms();
  ASSERT_TRUE(limiter.try_acquire(3));
  const auto after = java::now_ms();
  // The fixture's bytes: the same hash, value and entry (its 16 random bytes masked).
  EXPECT_EQ(server.command({"HGETALL", "fx:ratelimiter_overall"}),
            "rate\n10\ninterval\n1000\nkeepAliveTime\n0\ntype\n0");
  EXPECT_EQ(server.command({"GET", "{fx:ratelimiter_overall}:value"}), "7");
  const auto permits = entries("{fx:ratelimiter_overall}:permits");
  ASSERT_EQ(permits.size(), 1u);
  EXPECT_EQ(masked_entry(permits[0].first), masked_entry(java::permit_entry_hex(false)));
  EXPECT_GE(permits[0].second, before);  // scored with the client's clock
  EXPECT_LE(permits[0].second, after);
  EXPECT_EQ(server.command({"PTTL", "{fx:ratelimiter_overall}:value"}), "-1");
}

TEST_F(RateLimiterTest, PerClientStateIsUnderTheClientsId) {
  RateLimiter limiter(client, "fx:ratelimiter_per_client");
  ASSERT_TRUE(limiter.try_set_rate(RateType::per_client, 10, 1s));
  ASSERT_TRUE(limiter.try_acquire(3));
  EXPECT_EQ(server.command({"HGET", "fx:ratelimiter_per_client", "type"}), "1");
  const auto value = "{fx:ratelimiter_per_client}:value:" + client.id();
  const auto permits = "{fx:ratelimiter_per_client}:permits:" + client.id();
  EXPECT_EQ(server.command({"GET", value}), "7");
  const auto entry = entries(permits);
  ASSERT_EQ(entry.size(), 1u);
  EXPECT_EQ(masked_entry(entry[0].first), masked_entry(java::permit_entry_hex(true)));
  EXPECT_EQ(server.command({"EXISTS", "{fx:ratelimiter_per_client}:value"}), "0");
}

TEST_F(RateLimiterTest, OverallBudgetIsSharedAndPerClientBudgetsAreNot) {
  Client other(config_for(server));
  RateLimiter mine(client, "overall");
  RateLimiter theirs(other, "overall");
  ASSERT_TRUE(mine.try_set_rate(RateType::overall, 4, 1h));
  EXPECT_TRUE(mine.try_acquire(3));
  EXPECT_FALSE(theirs.try_acquire(2));
  EXPECT_TRUE(theirs.try_acquire(1));
  EXPECT_EQ(mine.available_permits(), 0);

  RateLimiter mine_per(client, "per");
  RateLimiter theirs_per(other, "per");
  ASSERT_TRUE(mine_per.try_set_rate(RateType::per_client, 4, 1h));
  EXPECT_TRUE(mine_per.try_acquire(4));
  EXPECT_FALSE(mine_per.try_acquire(1));
  EXPECT_TRUE(theirs_per.try_acquire(4));
  EXPECT_EQ(theirs_per.available_permits(), 0);
}

TEST_F(RateLimiterTest, TryAcquireWithinTheWindowUntilItIsFull) {
  RateLimiter limiter(client, "w");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 10, 1h));
  EXPECT_EQ(limiter.available_permits(), 10);
  EXPECT_TRUE(limiter.try_acquire());
  EXPECT_TRUE(limiter.try_acquire(9));
  EXPECT_FALSE(limiter.try_acquire());
  EXPECT_FALSE(limiter.try_acquire(1, 0ms));  // a zero wait is one attempt
  EXPECT_EQ(limiter.available_permits(), 0);
  EXPECT_EQ(entries("{w}:permits").size(), 2u);
}

TEST_F(RateLimiterTest, ReleaseGivesPermitsBackUpToTheRate) {
  RateLimiter limiter(client, "r");
  expect_error(
      errc::not_initialized, [&] { limiter.release(1); }, "release without a rate");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 10, 1h, 1h));
  ASSERT_TRUE(limiter.try_acquire(8));
  limiter.release(3);
  EXPECT_EQ(limiter.available_permits(), 5);
  EXPECT_EQ(entries("{r}:permits").size(), 1u);  // the acquisition stays recorded, as in Redisson
  limiter.release(100);
  EXPECT_EQ(limiter.available_permits(), 10);                       // never above the rate
  EXPECT_GT(std::stoll(server.command({"PTTL", "{r}:value"})), 0);  // keepAliveTime applied
  limiter.release(0);
  expect_error(
      errc::invalid_argument, [&] { limiter.release(-1); }, "negative permits");
  EXPECT_EQ(server.command({"GET", "{r}:value"}), "10");
}

TEST_F(RateLimiterTest, PermitsComeBackWhenTheirEntryLeavesTheWindow) {
  RateLimiter limiter(client, "back");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 10, 1s));
  ASSERT_TRUE(limiter.try_acquire(4));
  // Age the entry by hand (the window is the clients' clocks): 2 s ago it is outside.
  const auto member = server.command({"ZRANGE", "{back}:permits", "0", "0"});
  server.command({"ZADD", "{back}:permits", std::to_string(java::now_ms() - 2000), member});
  EXPECT_EQ(limiter.available_permits(), 10);
  EXPECT_EQ(server.command({"ZCARD", "{back}:permits"}), "0");
  EXPECT_TRUE(limiter.try_acquire(10));
}

TEST_F(RateLimiterTest, AWaiterIsWokenWhenTheWindowFrees) {
  RateLimiter limiter(client, "wake");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 2, 300ms));
  ASSERT_TRUE(limiter.try_acquire(2));
  const auto scripts_before = command_calls(server, "evalsha");
  EXPECT_TRUE(limiter.try_acquire(2, 30s));
  // It slept for the delay the script gave instead of polling: a few attempts at most.
  EXPECT_LE(command_calls(server, "evalsha") - scripts_before, 4);
  limiter.acquire(2);  // waits for ever, until the window frees again
  EXPECT_EQ(limiter.available_permits(), 0);
  EXPECT_EQ(entries("{wake}:permits").size(), 1u);  // the older ones left the window
}

TEST_F(RateLimiterTest, TryAcquireGivesUpWhenTheWindowStaysFull) {
  RateLimiter limiter(client, "full");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 1, 1h));
  ASSERT_TRUE(limiter.try_acquire());
  EXPECT_FALSE(limiter.try_acquire(1, 200ms));
  EXPECT_EQ(entries("{full}:permits").size(), 1u);
}

TEST_F(RateLimiterTest, ManyWaitersEachGetTheirTurn) {
  // Four waiters for 2 permits each on a rate of 2 per 200 ms: each gets in in its turn, and the
  // last one finds every earlier acquisition out of the window.
  RateLimiter limiter(client, "many");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 2, 200ms));
  std::vector<std::future<bool>> waiters;
  for (int i = 0; i < 4; ++i)
    waiters.push_back(limiter.async_try_acquire(2, 60s, asio::use_future));
  for (auto& waiter : waiters) EXPECT_TRUE(waiter.get());
  EXPECT_LE(std::stoll(server.command({"ZCARD", "{many}:permits"})), 1);
}

TEST_F(RateLimiterTest, KeepAliveExpiresEveryKeyAfterTheLastUse) {
  RateLimiter limiter(client, "ka");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_set_rate(RateType::overall, 5, 10s, 5s); },
      "keep-alive shorter than the interval");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 5, 1s, 60s));
  EXPECT_EQ(server.command({"HGET", "ka", "keepAliveTime"}), "60000");
  const auto config_ttl = std::stoll(server.command({"PTTL", "ka"}));
  EXPECT_GT(config_ttl, 0);
  EXPECT_LE(config_ttl, 60000);
  ASSERT_TRUE(limiter.try_acquire());
  EXPECT_GT(std::stoll(server.command({"PTTL", "{ka}:value"})), 0);
  EXPECT_GT(std::stoll(server.command({"PTTL", "{ka}:permits"})), 0);
  EXPECT_EQ(limiter.get_config().keep_alive, 60s);
}

TEST_F(RateLimiterTest, TheConfigsTtlIsCopiedToTheState) {
  RateLimiter limiter(client, "ttl");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 5, 1s));
  ASSERT_TRUE(limiter.expire(1h));
  ASSERT_TRUE(limiter.try_acquire());
  EXPECT_GT(std::stoll(server.command({"PTTL", "{ttl}:value"})), 0);
  EXPECT_GT(std::stoll(server.command({"PTTL", "{ttl}:permits"})), 0);
}

TEST_F(RateLimiterTest, AsyncFormsCompleteWithTheResult) {
  RateLimiter limiter(client, "async");
  EXPECT_TRUE(limiter.async_try_set_rate(RateType::overall, 3, 1h, asio::use_future).get());
  limiter.async_set_rate(RateType::overall, 3, 1h, 2h, asio::use_future).get();
  EXPECT_TRUE(limiter.async_try_acquire(1, asio::use_future).get());
  EXPECT_TRUE(limiter.async_try_acquire(1, 1s, asio::use_future).get());
  limiter.async_acquire(1, asio::use_future).get();
  EXPECT_EQ(limiter.async_available_permits(asio::use_future).get(), 0);
  EXPECT_EQ(limiter.async_get_config(asio::use_future).get(),
            (RateLimiterConfig{RateType::overall, 3, 1h, 2h}));
}

// A cancelled wait stops at once, completes with operation_aborted and holds no permits.
TEST_F(RateLimiterTest, CancelledWaitTakesNothingAndReportsAborted) {
  RateLimiter limiter(client, "cancel");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 1, 1h));
  ASSERT_TRUE(limiter.try_acquire());
  const auto scripts_before = command_calls(server, "evalsha");
  asio::cancellation_signal cancel;
  std::promise<std::pair<std::error_code, bool>> outcome;
  limiter.async_try_acquire(
      1, 1h, asio::bind_cancellation_slot(cancel.slot(), [&](std::error_code ec, bool acquired) {
        outcome.set_value({ec, acquired});
      }));
  ASSERT_TRUE(eventually([&] { return command_calls(server, "evalsha") > scripts_before; }));
  cancel.emit(asio::cancellation_type::terminal);
  auto done = outcome.get_future();
  ASSERT_EQ(done.wait_for(10s), std::future_status::ready) << "the cancel did not stop the wait";
  const auto [ec, acquired] = done.get();
  EXPECT_EQ(ec, std::error_code(asio::error::operation_aborted)) << ec.message();
  EXPECT_FALSE(acquired);
  EXPECT_EQ(entries("{cancel}:permits").size(), 1u);
  EXPECT_EQ(server.command({"GET", "{cancel}:value"}), "0");
}

// The script grants the permits, then the caller cancels before its handler ran (its executor
// is idle until then): the completion reports operation_aborted and the permits go back.
TEST_F(RateLimiterTest, GrantThatRacesTheCancelIsGivenBack) {
  RateLimiter limiter(client, "raced");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 5, 1h));
  ASSERT_TRUE(limiter.try_acquire(1));
  asio::io_context caller;
  asio::cancellation_signal cancel;
  std::optional<std::pair<std::error_code, bool>> outcome;
  limiter.async_try_acquire(
      3, 1h,
      asio::bind_cancellation_slot(cancel.slot(),
                                   asio::bind_executor(caller, [&](std::error_code ec, bool got) {
                                     outcome.emplace(ec, got);
                                   })));
  ASSERT_TRUE(eventually([&] { return server.command({"GET", "{raced}:value"}) == "1"; }));
  cancel.emit(asio::cancellation_type::terminal);
  caller.run();  // returns once the handler ran
  ASSERT_TRUE(outcome.has_value());
  EXPECT_EQ(outcome->first, std::error_code(asio::error::operation_aborted))
      << outcome->first.message();
  EXPECT_FALSE(outcome->second);
  EXPECT_TRUE(eventually([&] {
    return server.command({"GET", "{raced}:value"}) == "4";
  })) << server.command({"GET", "{raced}:value"});
  EXPECT_EQ(entries("{raced}:permits").size(), 1u);  // only the first acquisition's entry
}

TEST_F(RateLimiterTest, NotInitialisedIsItsOwnError) {
  RateLimiter limiter(client, "none");
  expect_error(
      errc::not_initialized, [&] { limiter.try_acquire(); }, "try_acquire");
  expect_error(
      errc::not_initialized, [&] { limiter.try_acquire(1, 5s); }, "try_acquire with a wait");
  expect_error(
      errc::not_initialized, [&] { limiter.acquire(); }, "acquire");
  expect_error(
      errc::not_initialized, [&] { limiter.available_permits(); }, "available_permits");
  expect_error(
      errc::not_initialized, [&] { limiter.get_config(); }, "get_config");
  EXPECT_EQ(server.command({"EXISTS", "none", "{none}:value", "{none}:permits"}), "0");
}

TEST_F(RateLimiterTest, MorePermitsThanTheRateIsInvalid) {
  RateLimiter limiter(client, "big");
  ASSERT_TRUE(limiter.try_set_rate(RateType::overall, 5, 1s));
  try {
    limiter.try_acquire(6);
    ADD_FAILURE() << "6 of 5: no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("Requested permits amount cannot exceed defined rate"),
              std::string::npos)
        << e.what();
  }
  expect_error(
      errc::invalid_argument, [&] { limiter.acquire(6); }, "acquire 6 of 5");
  EXPECT_EQ(server.command({"EXISTS", "{big}:value", "{big}:permits"}), "0");
}

TEST_F(RateLimiterTest, BadArgumentsSendNothing) {
  EXPECT_THROW(RateLimiter(client, ""), redisson::error);
  RateLimiter limiter(client, "bad");
  const auto scripts_before = command_calls(server, "evalsha") + command_calls(server, "eval");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_set_rate(RateType::overall, 0, 1s); }, "rate 0");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_set_rate(RateType::overall, -1, 1s); },
      "negative rate");
  expect_error(
      errc::invalid_argument, [&] { limiter.set_rate(RateType::overall, 5, 0ms); }, "interval 0");
  expect_error(
      errc::invalid_argument, [&] { limiter.set_rate(RateType::overall, 5, 1s, -1ms); },
      "negative keep-alive");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_acquire(-1); }, "negative permits");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_acquire(1, -1s); }, "negative wait");
  expect_error(
      errc::invalid_argument, [&] { limiter.acquire(-2); }, "acquire negative permits");
  expect_error(
      errc::invalid_argument, [&] { limiter.try_acquire(std::int64_t{1} << 32); },
      "permits beyond 32 bits");
  EXPECT_EQ(command_calls(server, "evalsha") + command_calls(server, "eval"), scripts_before);
  EXPECT_EQ(server.command({"EXISTS", "bad"}), "0");
}

TEST_F(RateLimiterTest, WrongTypeKeysFailAndChangeNothing) {
  server.command({"SET", "str", "x"});
  RateLimiter limiter(client, "str");
  expect_error(
      errc::wrong_type, [&] { limiter.try_set_rate(RateType::overall, 5, 1s); }, "try_set_rate");
  expect_error(
      errc::wrong_type, [&] { limiter.try_acquire(); }, "try_acquire");
  expect_error(
      errc::wrong_type, [&] { limiter.get_config(); }, "get_config");
  EXPECT_EQ(server.command({"GET", "str"}), "x");

  RateLimiter bad_state(client, "state");
  ASSERT_TRUE(bad_state.try_set_rate(RateType::overall, 5, 1s));
  server.command({"SET", "{state}:value", "5"});
  server.command({"SET", "{state}:permits", "not a zset"});
  expect_error(
      errc::wrong_type, [&] { bad_state.try_acquire(); }, "permits of another type");
  EXPECT_EQ(server.command({"GET", "{state}:value"}), "5");
}

TEST_F(RateLimiterTest, CommonObjectOperationsCoverEveryKey) {
  RateLimiter overall(client, "o");
  ASSERT_TRUE(overall.try_set_rate(RateType::overall, 5, 1h));
  ASSERT_TRUE(overall.try_acquire());
  EXPECT_TRUE(overall.expire(1h));
  EXPECT_GT(std::stoll(server.command({"PTTL", "{o}:value"})), 0);
  EXPECT_GT(std::stoll(server.command({"PTTL", "{o}:permits"})), 0);
  EXPECT_TRUE(overall.clear_expire());
  EXPECT_EQ(server.command({"PTTL", "{o}:permits"}), "-1");
  EXPECT_TRUE(overall.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "o", "{o}:value", "{o}:permits"}), "0");

  RateLimiter per_client(client, "p");
  ASSERT_TRUE(per_client.try_set_rate(RateType::per_client, 5, 1h));
  ASSERT_TRUE(per_client.try_acquire());
  EXPECT_TRUE(per_client.delete_object());
  EXPECT_EQ(
      server.command({"EXISTS", "p", "{p}:value:" + client.id(), "{p}:permits:" + client.id()}),
      "0");
  EXPECT_FALSE(per_client.delete_object());
}

// ---- limiters Java Redisson wrote (fixtures/redisson-3.52, scores shifted to now) ----------

/// The score a loaded Java acquisition gets: "now" as the fixtures' --shift-scores-to-now makes
/// it, plus a margin, so that a slow test run cannot see it leave the 1 s window too early.
std::int64_t in_window() { return java::now_ms() + 5000; }

TEST_F(RateLimiterTest, ReadsAndDrawsFromAnOverallLimiterJavaWrote) {
  java::load_rate_limiter(server, "fx:ratelimiter_overall", false, "", in_window());
  RateLimiter limiter(client, "fx:ratelimiter_overall");
  EXPECT_EQ(limiter.get_config(), (RateLimiterConfig{RateType::overall, 10, 1000ms, 0ms}));
  EXPECT_EQ(limiter.available_permits(), 7);  // Java took 3 of 10
  EXPECT_FALSE(limiter.try_set_rate(RateType::overall, 99, 1h));
  EXPECT_FALSE(limiter.try_acquire(8));
  EXPECT_TRUE(limiter.try_acquire(7));  // the rest of the same budget
  EXPECT_FALSE(limiter.try_acquire());
  const auto permits = entries("{fx:ratelimiter_overall}:permits");
  ASSERT_EQ(permits.size(), 2u);
  for (const auto& [member, score] : permits) {
    EXPECT_EQ(member.substr(0, 2), "10");
    EXPECT_EQ(member.size(), 42u);
  }
  // Once the acquisitions leave the window their permits come back.
  EXPECT_TRUE(limiter.try_acquire(3, 30s));
}

TEST_F(RateLimiterTest, ReadsAPerClientLimiterJavaWrote) {
  java::load_rate_limiter(server, "fx:ratelimiter_per_client", true, java::writer_client_id(),
                          in_window());
  RateLimiter limiter(client, "fx:ratelimiter_per_client");
  EXPECT_EQ(limiter.get_config(), (RateLimiterConfig{RateType::per_client, 10, 1000ms, 0ms}));
  // This client has a budget of its own; the Java client's state is left alone.
  EXPECT_EQ(limiter.available_permits(), 10);
  EXPECT_TRUE(limiter.try_acquire(10));
  EXPECT_EQ(
      server.command({"GET", "{fx:ratelimiter_per_client}:value:" + java::writer_client_id()}),
      "7");
  // The same bytes under this client's id read as Java's state: 7 left.
  RateLimiter again(client, "fx2");
  java::load_rate_limiter(server, "fx2", true, client.id(), in_window());
  EXPECT_EQ(again.available_permits(), 7);
  EXPECT_FALSE(again.try_acquire(8));
  EXPECT_TRUE(again.try_acquire(7));
}

TEST_F(RateLimiterTest, JavasOldAcquisitionsGiveTheirPermitsBack) {
  java::load_rate_limiter(server, "old", false, "", java::now_ms() - 5000);
  RateLimiter limiter(client, "old");
  EXPECT_TRUE(limiter.try_acquire(10));  // Java's 3 left the window
  EXPECT_EQ(entries("{old}:permits").size(), 1u);
  EXPECT_EQ(server.command({"GET", "{old}:value"}), "0");
}

}  // namespace

}  // namespace objects_rate_limiter_test
