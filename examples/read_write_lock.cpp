// A read-write lock shared by every process on the same Redis (Java Redisson included):
// many readers at once, or one writer.
// Usage: example_read_write_lock [redis://127.0.0.1:6379]
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/use_awaitable.hpp>
#include <iostream>
#include <mutex>
#include <redisson/read_write_lock.hpp>
#include <redisson/redisson.hpp>
#include <shared_mutex>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    auto prices = redisson::ReadWriteLock(client, "prices");

    // Readers share: any number of threads and processes may hold the read lock at once.
    {
      std::shared_lock reader(prices);
      std::cout << "reading prices, lease left: " << prices.remaining_lease().count() << " ms\n";
    }

    // A writer excludes readers and other writers.
    {
      std::unique_lock writer(prices);
      std::cout << "updating prices\n";
    }

    // Wait at most 2 s for a read hold.
    if (std::shared_lock reader(prices, 2s); reader.owns_lock()) {
      std::cout << "got a read hold within 2 s\n";
    }

    // Downgrade: the writer takes a read hold, then releases the write hold and keeps reading.
    prices.lock();
    prices.lock_shared();
    prices.unlock();
    std::cout << "downgraded: still reading, others may read too\n";
    prices.unlock_shared();

    // No upgrade: a reader does not get the write lock (lock() would throw already_held).
    {
      std::shared_lock reader(prices);
      if (!prices.try_lock()) std::cout << "a reader cannot upgrade to the write lock\n";
    }

    // A fixed lease instead of the watchdog: the write hold ends after 10 s at the latest.
    auto write = prices.write_lock();
    if (write.try_lock_for(2s, 10s)) write.unlock();

    // Async: an explicit owner id, because a coroutine may resume on another thread.
    asio::io_context io;
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
          const auto owner = client.new_owner_id();
          auto read = prices.read_lock();
          co_await read.async_lock(owner, asio::use_awaitable);
          std::cout << "coroutine holds a read lock\n";
          co_await read.async_unlock(owner, asio::use_awaitable);
        },
        asio::detached);
    io.run();
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
