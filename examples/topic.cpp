// Publish/subscribe with Java Redisson's layout: a Topic's messages are its codec's bytes, so a
// Java RTopic of the same name and codec hears them, and the other way round.
// Usage: example_topic [redis://127.0.0.1:6379]
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);
    std::mutex mutex;
    std::condition_variable arrived;
    int received = 0;

    // A listener runs on the client's listener threads: it may block without stalling the client.
    redisson::Topic<std::string> news(client, "demo:news");
    const auto id = news.add_listener([&](std::string_view channel, const std::string& message) {
      std::cout << channel << ": " << message << "\n";
      std::lock_guard lock(mutex);
      ++received;
      arrived.notify_one();
    });
    const auto receivers = news.publish("hello from C++");  // PUBLISH, the Kryo bytes of a String
    std::cout << "receivers: " << receivers << "\n";

    // A pattern topic hears every channel that matches, with the channel's name.
    redisson::PatternTopic<std::string> all_news(client, "demo:*");
    const auto pattern_id =
        all_news.add_listener([&](std::string_view channel, const std::string& message) {
          std::cout << "pattern " << channel << ": " << message << "\n";
          std::lock_guard lock(mutex);
          ++received;
          arrived.notify_one();
        });
    news.publish("second");

    std::unique_lock lock(mutex);
    arrived.wait_for(lock, std::chrono::seconds(5), [&] { return received == 3; });
    lock.unlock();
    news.remove_listener(id);
    all_news.remove_listener(pattern_id);
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
