// The program README.md shows: connect, take a lock shared by every process on the same Redis,
// and update a Map and a Bucket while holding it.  Usage: example_readme [redis://127.0.0.1:6379]
#include <cstdint>
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>
#include <string>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::Lock lock(client, "example:stock:lock");  // Java Redisson's RLock of that name
    redisson::Map<std::string, std::int64_t> stock(client, "example:stock");
    redisson::Bucket<std::string> last_sold(client, "example:stock:last");

    {
      std::lock_guard guard(lock);  // waits; the watchdog renews the lease while it is held
      const std::int64_t apples = stock.get("apples").value_or(10);
      stock.fast_put("apples", apples - 1);
      last_sold.set("apple");
    }
    std::cout << "apples left: " << *stock.get("apples") << ", last sold: " << *last_sold.get()
              << "\n";

    stock.delete_object();
    last_sold.delete_object();
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
