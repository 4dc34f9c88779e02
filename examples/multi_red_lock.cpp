// Holding several locks at once: a MultiLock takes all of its members or none; a RedLock holds
// a lock while a majority of independent Redis masters grant it.
// Usage: example_multi_red_lock [redis://127.0.0.1:6379 [second master [third master]]]
#include <chrono>
#include <iostream>
#include <mutex>
#include <redisson/multi_lock.hpp>
#include <redisson/red_lock.hpp>
#include <redisson/redisson.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // All or nothing: when one member is busy, what was taken is released and the round retried.
    {
      redisson::MultiLock both(
          {redisson::Lock(client, "order:17"), redisson::Lock(client, "sku:42")});
      std::lock_guard guard(both);  // or both.try_lock_for(2s), both.try_lock_for(2s, 30s)
      std::cout << "holding the order and the stock item\n";
    }

    // In production: three independent masters, the same lock name on each. Run with one URL,
    // all three clients reach the same server, so each member gets a name of its own.
    redisson::Client a(url);
    redisson::Client b(argc > 2 ? argv[2] : url);
    redisson::Client c(argc > 3 ? argv[3] : url);
    redisson::RedLock red(
        {redisson::Lock(a, "job:1"), redisson::Lock(b, "job:2"), redisson::Lock(c, "job:3")});
    if (auto validity = red.try_lock_for(2s, 10s)) {  // wait, lease
      // ... finish well within *validity ...
      std::cout << "a majority holds the job for " << validity->count() << " ms more\n";
      red.unlock();
    }
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
