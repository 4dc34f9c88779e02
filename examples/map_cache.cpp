// A map whose entries expire, shared with Java Redisson's RMapCache, and its entry events.
// Usage: example_map_cache [redis://127.0.0.1:6379]
#include <chrono>
#include <future>
#include <iostream>
#include <redisson/redisson.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::MapCache<std::string, std::string> cache(client, "example:sessions-by-user");

    // Heard from every writer, Java or C++, until removed; the callback runs on the client's
    // listener threads.
    std::promise<std::string> created;
    const redisson::ListenerId listener = cache.add_listener(
        redisson::MapCacheEventKind::created,
        [&created](const redisson::MapCacheEvent<std::string, std::string>& event) {
          created.set_value(event.key);
        });

    cache.put("ada", "session-1", 10min);  // expires in 10 minutes
    auto heard = created.get_future();
    if (heard.wait_for(10s) == std::future_status::ready) {
      std::cout << heard.get() << " was created\n";
    }
    std::cout << "ada's entry lives " << cache.remaining_time_to_live("ada").count()
              << " ms more\n";
    cache.remove_listener(listener);
    cache.delete_object();
  } catch (const redisson::error& e) {
    std::cerr << "map_cache: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
