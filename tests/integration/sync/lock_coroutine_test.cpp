// The coroutine path of docs/coroutines.md (examples/coroutines.cpp) against a real server: a
// lock taken and released with asio::use_awaitable by an owner from the client, the coroutine
// resuming on its own executor, a bounded wait that runs out, a race against a timer, and a
// failure thrown as std::system_error carrying a redisson::errc code.
#include <gtest/gtest.h>

#include <asio/co_spawn.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/use_future.hpp>
#include <cstdint>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "redisson/redisson.hpp"
#include "support/eventually.hpp"
#include "support/server_test.hpp"

namespace sync_lock_coroutine_test {

using namespace std::chrono_literals;
using namespace asio::experimental::awaitable_operators;
using redisson::errc;
using redisson::Lock;
using redisson::OwnerId;
using redisson::test::eventually;

namespace {

class LockCoroutineTest : public redisson::test::ServerTest {
 protected:
  // Runs `body` to its end on an io_context driven by this thread; rethrows what it let out.
  void run(asio::awaitable<void> body) {
    asio::io_context io;
    std::exception_ptr failure;
    bool finished = false;
    asio::co_spawn(io, std::move(body), [&](const std::exception_ptr& e) {
      failure = e;
      finished = true;
    });
    io.run();
    ASSERT_TRUE(finished);
    if (failure) std::rethrow_exception(failure);
  }
};

TEST_F(LockCoroutineTest, AcquiresAndReleasesAndResumesOnItsOwnExecutor) {
  auto lock = Lock(client, "co:lock");
  const OwnerId owner = client.new_owner_id();
  const auto runner = std::this_thread::get_id();
  std::optional<std::thread::id> resumed_on;
  std::int64_t held = 0;
  run([&]() -> asio::awaitable<void> {
    co_await lock.async_lock(owner, asio::use_awaitable);
    resumed_on = std::this_thread::get_id();
    held = co_await lock.async_hold_count(owner, asio::use_awaitable);
    co_await lock.async_unlock(owner, asio::use_awaitable);
  }());
  EXPECT_EQ(held, 1);
  ASSERT_TRUE(resumed_on.has_value());
  EXPECT_EQ(*resumed_on, runner);  // the io_context's thread, not the client's I/O thread
  EXPECT_FALSE(lock.is_locked());
}

TEST_F(LockCoroutineTest, BoundedWaitRunsOutWhileAnotherOwnerHolds) {
  auto lock = Lock(client, "co:busy");
  lock.lock();  // this thread's owner holds it throughout
  const OwnerId owner = client.new_owner_id();
  std::optional<bool> acquired;
  run([&]() -> asio::awaitable<void> {
    acquired = co_await lock.async_try_lock(owner, 100ms, std::nullopt, asio::use_awaitable);
  }());
  ASSERT_TRUE(acquired.has_value());
  EXPECT_FALSE(*acquired);
  EXPECT_EQ(lock.hold_count(), 1);  // still ours
  lock.unlock();
}

TEST_F(LockCoroutineTest, TimerThatWinsTheRaceLeavesNothingHeld) {
  auto lock = Lock(client, "co:race");
  lock.lock();
  const OwnerId owner = client.new_owner_id();
  std::optional<std::size_t> winner;
  run([&]() -> asio::awaitable<void> {
    asio::steady_timer timer(co_await asio::this_coro::executor, 100ms);
    auto first = co_await (lock.async_lock(owner, asio::use_awaitable) ||
                           timer.async_wait(asio::use_awaitable));
    winner = first.index();
  }());
  ASSERT_TRUE(winner.has_value());
  EXPECT_EQ(*winner, 1U);  // the lock stays held by this thread, so only the timer can win
  lock.unlock();
  // The cancelled acquisition must not take the lock once it is free.
  EXPECT_TRUE(eventually([&] { return !lock.is_locked(); }));
  EXPECT_EQ(lock.async_hold_count(owner, asio::use_future).get(), 0);
}

TEST_F(LockCoroutineTest, FailureIsThrownAsSystemErrorWithRedissonCode) {
  auto lock = Lock(client, "co:error");
  const OwnerId owner = client.new_owner_id();
  std::optional<std::error_code> caught;
  bool was_redisson_error = false;
  run([&]() -> asio::awaitable<void> {
    try {
      co_await lock.async_unlock(owner, asio::use_awaitable);  // holds nothing
    } catch (const std::system_error& e) {
      caught = e.code();
      was_redisson_error = dynamic_cast<const redisson::error*>(&e) != nullptr;
    }
  }());
  ASSERT_TRUE(caught.has_value());
  EXPECT_EQ(*caught, errc::not_owner);
  EXPECT_EQ(caught->category(), redisson::category());
  // Asio throws its own std::system_error: `catch (const redisson::error&)` would miss it.
  EXPECT_FALSE(was_redisson_error);
}

TEST_F(LockCoroutineTest, UncaughtFailureLeavesTheCoroutine) {
  auto lock = Lock(client, "co:uncaught");
  const OwnerId owner = client.new_owner_id();
  try {
    run([&]() -> asio::awaitable<void> {
      co_await lock.async_unlock(owner, asio::use_awaitable);
    }());
    FAIL() << "the unlock by a non-owner did not throw";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), errc::not_owner);
  }
}

}  // namespace

}  // namespace sync_lock_coroutine_test
