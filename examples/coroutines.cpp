// A lock from C++20 coroutines with asio::use_awaitable: an owner per task from the client, a
// bounded wait (the wait argument, or a race against a timer), how errors arrive, and where the
// coroutine resumes.  Usage: example_coroutines [redis://127.0.0.1:6379]
#include <asio/co_spawn.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/io_context.hpp>
#include <asio/redirect_error.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <chrono>
#include <exception>
#include <iostream>
#include <optional>
#include <redisson/redisson.hpp>
#include <string>
#include <system_error>

using namespace std::chrono_literals;
using namespace asio::experimental::awaitable_operators;

// Takes the lock, works, gives it back. The lock handle is taken by value: a coroutine outlives
// the statement that started it, and copies of a handle share the lock's state.
asio::awaitable<void> rebuild(redisson::Lock lock, redisson::OwnerId owner) {
  co_await lock.async_lock(owner, asio::use_awaitable);  // waits as long as it takes
  // Resumed on this coroutine's executor (the io_context below), not on the client's I/O
  // thread, so blocking here blocks only this program's own io_context.
  std::cout << "rebuilding with the lock held\n";
  co_await lock.async_unlock(owner, asio::use_awaitable);
}

asio::awaitable<void> run(redisson::Client& client) {
  auto lock = redisson::Lock(client, "orders:rebuild");

  // One owner per task, from the client: never a small integer of one's own, which could be a
  // thread's owner id in this process (a thread re-enters its own holds).
  const redisson::OwnerId owner = client.new_owner_id();
  co_await rebuild(lock, owner);

  // A bounded wait: at most 2 s, then a 10 s lease (std::nullopt: the watchdog's, renewed).
  // false when the wait ran out; nothing is held then.
  const bool acquired = co_await lock.async_try_lock(owner, 2s, 10s, asio::use_awaitable);
  if (acquired) co_await lock.async_unlock(owner, asio::use_awaitable);

  // Or race the acquisition against a timer: the loser is cancelled, and a cancelled
  // acquisition holds nothing (a grant that raced the cancel is given back).
  asio::steady_timer timer(co_await asio::this_coro::executor, 2s);
  auto first = co_await (lock.async_lock(owner, asio::use_awaitable) ||
                         timer.async_wait(asio::use_awaitable));
  if (first.index() == 0) {
    std::cout << "locked before the timer fired\n";
    co_await lock.async_unlock(owner, asio::use_awaitable);
  }

  // A failure is thrown as std::system_error (Asio's, not redisson::error) whose code() is a
  // redisson::errc error code: here not_owner, since `owner` holds nothing any more.
  try {
    co_await lock.async_unlock(owner, asio::use_awaitable);
  } catch (const std::system_error& e) {
    if (e.code() == redisson::errc::not_owner) std::cout << "not the owner: " << e.what() << "\n";
  }

  // Or without an exception: redirect_error puts the code in `ec`.
  std::error_code ec;
  co_await lock.async_unlock(owner, asio::redirect_error(asio::use_awaitable, ec));
  if (ec == redisson::errc::not_owner) std::cout << "still not the owner\n";
}

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    asio::io_context io;
    // An exception the coroutine lets out is rethrown here, out of io.run().
    asio::co_spawn(io, run(client), [](const std::exception_ptr& failure) {
      if (failure) std::rethrow_exception(failure);
    });
    io.run();
  } catch (const std::system_error& e) {  // redisson::error is a std::system_error too
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
