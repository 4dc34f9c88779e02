// Two variations on redisson::Lock with the same data layout as Java Redisson's RFairLock and
// RSpinLock: a fair lock serves waiters in arrival order, a spin lock waits without pub/sub.
// (examples/fenced_lock.cpp shows the third, fencing tokens.)
// Usage: example_lock_variants [redis://127.0.0.1:6379]
#include <chrono>
#include <iostream>
#include <mutex>
#include <redisson/fair_lock.hpp>
#include <redisson/redisson.hpp>
#include <redisson/spin_lock.hpp>
#include <string>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // First come, first served: a waiter queues, and an unlock wakes only the queue's head.
    // FairLock(client, name, redisson::non_reentrant) makes a non-re-entrant one.
    {
      auto lock = redisson::FairLock(client, "printer");
      std::lock_guard guard(lock);  // waits its turn
      std::cout << "printing, fairly\n";
    }

    // A queued waiter that stops coming back keeps its place for one wait slot (5 minutes by
    // default, as in Redisson); every process sharing the lock should use the same value.
    redisson::FairLock queue(client, "printer", std::chrono::seconds(30));
    queue.set_wait_slot(std::chrono::seconds(30));  // or later, for this handle and its copies
    std::cout << "wait slot: " << queue.wait_slot().count() << " ms\n";

    // No pub/sub: a waiter retries with backoff instead of sleeping on a channel.
    auto spin = redisson::SpinLock(client, "cache:rebuild");
    if (spin.try_lock_for(std::chrono::seconds(2))) {
      std::cout << "rebuilding the cache\n";
      spin.unlock();
    }
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
