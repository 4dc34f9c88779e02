// Object listeners: hear what happens to an object's key, whoever changes it (another C++
// process, a Java Redisson service, redis-cli). The server announces it through keyspace
// notifications, which the first listener turns on (Config::keyspace_notifications).
// Usage: example_object_listeners [redis://127.0.0.1:6379]
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
    int heard = 0;
    auto count = [&](const char* what) {
      return [&, what](std::string_view key) {
        std::cout << what << ": " << key << "\n";
        std::lock_guard lock(mutex);
        ++heard;
        arrived.notify_one();
      };
    };

    // Each type hears Redisson's events for it: a set its adds and removes, every object its
    // deletion and expiry. The listener runs on the client's listener threads.
    redisson::Set<std::string> tags(client, "example:tags");
    const auto added = tags.add_listener(redisson::ObjectEvent::added, count("added to"));
    const auto deleted = tags.add_listener(redisson::ObjectEvent::deleted, count("deleted"));
    tags.add("c++");
    tags.delete_object();

    // A lock's key goes when its last hold is released: waiters elsewhere can react to that.
    redisson::Lock lock(client, "example:lock");
    const auto released = lock.add_listener(redisson::ObjectEvent::deleted, count("released"));
    lock.lock();
    lock.unlock();

    std::unique_lock wait(mutex);
    arrived.wait_for(wait, std::chrono::seconds(5), [&] { return heard == 3; });
    wait.unlock();
    tags.remove_listener(added);
    tags.remove_listener(deleted);
    lock.remove_listener(released);
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
