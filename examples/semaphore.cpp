// Semaphores and a count-down latch shared through Redis.
//
//   semaphore [redis://127.0.0.1:6379]
//
// Five worker threads wait for a start signal (a CountDownLatch), then share the two permits of
// a Semaphore, so at most two of them "print" at once -- counting every process, C++ or Java
// Redisson, that uses the same names on the same Redis. Then a PermitExpirableSemaphore hands
// out a license with a lease: had its holder died, the license would come back by itself.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/count_down_latch.hpp>
#include <redisson/permit_expirable_semaphore.hpp>
#include <redisson/semaphore.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // Two printers for everyone. try_set_permits only sets the count if it has none yet
    // (the demo deletes leftovers of an earlier run first).
    redisson::Semaphore printers(client, "example:printers");
    printers.delete_object();
    printers.try_set_permits(2);  // only if it has no count yet

    redisson::CountDownLatch start(client, "example:start");
    start.try_set_count(1);

    std::atomic<int> busy{0};
    std::atomic<int> most_busy{0};
    std::vector<std::thread> workers;
    for (int worker = 0; worker < 5; ++worker) {
      workers.emplace_back([&, worker] {
        start.await();       // sleeps on pub/sub until the count reaches 0
        printers.acquire();  // sleeps on pub/sub until a permit is released
        // At most two workers here, across every process.
        const int now = ++busy;
        int seen = most_busy.load();
        while (now > seen && !most_busy.compare_exchange_weak(seen, now)) {
        }
        std::printf("worker %d prints (%d printing)\n", worker, now);
        std::this_thread::sleep_for(100ms);
        --busy;
        printers.release();  // publishes the new count: a waiter wakes at once
      });
    }
    start.count_down();  // 1 -> 0: every awaiter, in every process, is released
    for (auto& thread : workers) thread.join();
    std::printf("at most %d workers printed at once\n", most_busy.load());

    // One license, held for at most 30 s unless renewed with update_lease.
    redisson::PermitExpirableSemaphore licenses(client, "example:licenses");
    licenses.delete_object();
    licenses.try_set_permits(1);
    const std::string license = licenses.acquire(30s);  // comes back by itself after 30 s
    std::printf("got license %s for 30 s\n", license.c_str());
    if (!licenses.try_acquire()) std::printf("no second license while it is held\n");
    licenses.update_lease(license, 60s);  // still working: extend it
    licenses.release(license);            // errc::not_owner if it had run out
    std::printf("licenses available again: %lld\n",
                static_cast<long long>(licenses.available_permits()));

    printers.delete_object();
    licenses.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
