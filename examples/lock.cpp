// A distributed lock shared by every process on the same Redis (Java Redisson included).
// Usage: example_lock [redis://127.0.0.1:6379]
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    // A failed unlock in a guard's destructor (unlock never throws) and a hold the watchdog
    // found gone are reported here; without a handler, as one line on stderr.
    redisson::Config config = redisson::Config::from_url(url);
    config.command_timeout = std::chrono::milliseconds(1000);
    config.lock_watchdog_timeout = std::chrono::seconds(10);
    config.error_handler = [](const redisson::error& e) {
      std::cerr << "lock: " << e.what() << "\n";
    };
    redisson::Client client(config);
    auto lock = redisson::Lock(client, "orders:rebuild");

    // Like std::mutex (Lockable, TimedLockable): std::lock_guard, std::unique_lock and
    // std::scoped_lock all work. The watchdog keeps the lease alive while we hold it.
    {
      std::unique_lock guard(lock);
      std::cout << "holding the lock, lease left: " << lock.remaining_lease().count() << " ms\n";
    }

    // Wait at most 2 s; hold for at most 10 s (no watchdog with an explicit lease).
    if (lock.try_lock_for(2s, 10s)) {
      std::cout << "got it with a 10 s lease\n";
      lock.unlock();
    }

    // Find out if the lock was lost behind our back (expired, deleted by someone else).
    lock.on_lost([](redisson::OwnerId owner) {
      std::cerr << "owner " << owner.value() << " lost the lock\n";
    });

    // Async: an explicit owner from the client, because a coroutine may resume on another
    // thread (and must not share an owner with one).
    asio::io_context io;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          const auto owner = client.new_owner_id();
          co_await lock.async_lock(owner, asio::use_awaitable);
          std::cout << "coroutine holds the lock\n";
          co_await lock.async_unlock(owner, asio::use_awaitable);
        },
        asio::detached);
    io.run();
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
