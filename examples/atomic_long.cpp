// A counter and an id generator shared by every process on the same Redis (Java Redisson's
// RAtomicLong and RIdGenerator included), and the keys they left behind.
// Usage: example_atomic_long [redis://127.0.0.1:6379]
#include <asio/use_future.hpp>
#include <iostream>
#include <redisson/redisson.hpp>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // Like std::atomic<std::int64_t>, across processes: every call is atomic on the server.
    redisson::AtomicLong visits(client, "example:visits");
    visits.set(0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&visits] {
        for (int i = 0; i < 250; ++i) visits.increment_and_get();
      });
    }
    for (auto& thread : threads) thread.join();
    std::cout << "visits: " << visits.get() << "\n";  // 1000: no update lost
    if (visits.compare_and_set(1000, 0)) std::cout << "reset to 0\n";

    // Async: the same operations with any Asio completion token.
    auto pending = visits.async_add_and_get(5, asio::use_future);
    std::cout << "after +5: " << pending.get() << "\n";

    // Unique ids in blocks of 100: one script per block, the other 99 ids cost no round trip.
    redisson::IdGenerator order_ids(client, "example:order-ids");
    order_ids.try_init(1000, 100);  // only if new
    std::cout << "order ids: " << order_ids.next_id() << ", " << order_ids.next_id() << "\n";

    // The keys they use, found with SCAN (never KEYS), then removed.
    redisson::Keys keys(client);
    for (const auto& key : keys.scan({.pattern = "*example:*", .count = 100})) {
      std::cout << "key: " << key << "\n";
    }
    std::cout << "deleted " << keys.delete_by_pattern("*example:*") << " keys\n";
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
