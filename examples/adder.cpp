// A hit counter split across processes (Java Redisson's RLongAdder and RDoubleAdder included):
// each instance counts in memory, sum() collects every instance's count through Redis.
// Usage: example_adder [redis://127.0.0.1:6379]
#include <asio/use_future.hpp>
#include <chrono>
#include <iostream>
#include <redisson/redisson.hpp>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    redisson::Client other_process(url);  // stands for another service

    // One instance per process (or more): add() is an atomic add in memory, nothing is sent.
    redisson::LongAdder hits(client, "example:hits");
    redisson::LongAdder hits_elsewhere(other_process, "example:hits");
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&hits] {
        for (int i = 0; i < 250; ++i) hits.increment();
      });
    }
    for (auto& thread : threads) thread.join();
    hits_elsewhere.add(500);

    // Every instance answers through Redis; waits at most 5 s for them (errc::timeout).
    std::cout << "hits: " << hits.sum(std::chrono::seconds(5)) << "\n";  // 1500
    // Zeroes every instance.
    hits.reset();
    std::cout << "after reset: " << hits_elsewhere.async_sum(asio::use_future).get() << "\n";

    redisson::DoubleAdder seconds(client, "example:busy-seconds");
    seconds.add(0.25);
    seconds.add(1.5);
    std::cout << "busy seconds: " << seconds.sum() << "\n";  // 1.75
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
