// A reliable topic (Java Redisson's RReliableTopic): messages kept in a Redis stream, so a
// subscriber that restarts with the same subscriber id gets what was published while it was away.
// Usage: example_reliable_topic [redis://127.0.0.1:6379]
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    std::mutex mutex;  // before the clients: their listener threads end first
    std::condition_variable arrived;
    std::int64_t total = 0;
    auto count = [&](std::string_view, std::int64_t amount) {
      std::lock_guard lock(mutex);
      total += amount;
      arrived.notify_one();
    };
    auto wait_for_total = [&](std::int64_t expected) {
      std::unique_lock lock(mutex);
      return arrived.wait_for(lock, std::chrono::seconds(5), [&] { return total == expected; });
    };

    redisson::Client publisher(url);
    redisson::ReliableTopic<std::int64_t> payments(publisher, "demo:payments");
    {
      // A worker that names its subscriber: a restart with the same id goes on where it stopped.
      redisson::Client worker(url);
      redisson::ReliableTopic<std::int64_t>(worker, "demo:payments")
          .as_subscriber("billing-1")
          .add_listener(count);
      payments.publish(10);  // XADD demo:payments * m <Kryo bytes of a Long>
      payments.publish(20);
      wait_for_total(30);
    }  // the worker stops; its subscriber stays registered for the watchdog timeout (10 min)

    payments.publish(5);  // kept in the stream for billing-1 while it is away
    std::cout << "kept while the worker was away: " << payments.size() << "\n";

    redisson::Client worker(url);
    redisson::ReliableTopic<std::int64_t> topic =
        redisson::ReliableTopic<std::int64_t>(worker, "demo:payments").as_subscriber("billing-1");
    topic.add_listener(count);  // gets the 5 published while it was away
    const bool all = wait_for_total(35);
    std::cout << "total " << total << (all ? "" : " (not all arrived)") << "\n";
    topic.remove_all_listeners();  // billing-1 leaves: its group and deadline go
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
