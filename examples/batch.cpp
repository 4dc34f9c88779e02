// Many operations of several objects in one round trip (Java Redisson's RBatch), then the same
// as one MULTI/EXEC transaction.
// Usage: example_batch [redis://127.0.0.1:6379]
#include <asio/use_future.hpp>
#include <iostream>
#include <redisson/redisson.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // The objects are the usual types, bound to the batch: their async operations are queued.
    redisson::Batch batch(client);
    auto greeting = batch.get<redisson::Bucket<std::string>>("example:greeting");
    auto prices = batch.get<redisson::Map<std::string, double>>("example:prices");
    auto visits = batch.get<redisson::AtomicLong>("example:visits");
    auto set = greeting.async_set("hello", asio::use_future);
    auto old_price = prices.async_put("tea", 2.5, asio::use_future);
    auto count = visits.async_increment_and_get(asio::use_future);
    const auto result = batch.execute();  // everything sent now, pipelined
    set.get();
    std::cout << "previous tea price known: " << old_price.get().has_value() << "\n";
    std::cout << "visits: " << count.get() << ", replies: " << result.responses.size() << "\n";

    // All or nothing in between: MULTI ... EXEC (keys on one master).
    redisson::Batch transaction(
        client, redisson::BatchOptions{}.execution_mode(redisson::BatchMode::in_memory_atomic));
    auto counter = transaction.get<redisson::AtomicLong>("example:visits");
    auto first = counter.async_increment_and_get(asio::use_future);
    auto second = counter.async_increment_and_get(asio::use_future);
    transaction.execute();
    std::cout << "visits: " << first.get() << " then " << second.get() << "\n";

    redisson::Keys(client).delete_by_pattern("example:*");
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
