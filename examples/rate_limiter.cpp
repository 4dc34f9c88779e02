// A rate limiter and a Bloom filter shared through Redis.
//
//   rate_limiter [redis://127.0.0.1:6379]
//
// Four worker threads call an "API" that allows 5 calls per second, counting every process (C++
// or Java Redisson) that uses the same limiter name on the same Redis: the workers wait for
// their turn instead of being refused. Then a Bloom filter remembers which users were already
// greeted, in a few hundred bytes however many users there are.
#include <chrono>
#include <cstdio>
#include <redisson/client.hpp>
#include <redisson/objects/bloom_filter.hpp>
#include <redisson/objects/rate_limiter.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace std::chrono_literals;

int main(int argc, char** argv) {
  const std::string url = argc > 1 ? argv[1] : "redis://127.0.0.1:6379";
  try {
    redisson::Client client(url);

    // 5 calls per second for everyone. try_set_rate only sets the rate if there is none yet
    // (the demo deletes leftovers of an earlier run first).
    redisson::RateLimiter api(client, "example:api-rate");
    api.delete_object();
    api.try_set_rate(redisson::RateType::overall, 5, 1s);

    const auto started = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int worker = 0; worker < 4; ++worker) {
      workers.emplace_back([&, worker] {
        for (int call = 0; call < 3; ++call) {
          api.acquire();  // sleeps until the window has a permit: no polling
          const auto at = std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::steady_clock::now() - started);
          std::printf("worker %d calls the API at %5lld ms\n", worker,
                      static_cast<long long>(at.count()));
        }
      });
    }
    for (auto& thread : workers) thread.join();

    // Or don't wait: one attempt, or a bounded wait.
    if (!api.try_acquire()) std::printf("over the rate right now\n");
    if (api.try_acquire(1, 2s)) std::printf("got a permit within 2 s\n");

    // Greet each user once: a Bloom filter for 10,000 users at a 1 % false-positive rate
    // (Java's RBloomFilter with StringCodec reads and writes the same bits).
    redisson::BloomFilter<std::string> greeted(client, "example:greeted",
                                               redisson::codecs::string());
    greeted.delete_object();
    greeted.try_init(10'000, 0.01);
    for (const std::string user : {"ada", "alan", "ada", "grace"}) {
      if (greeted.add(user)) {
        std::printf("hello, %s\n", user.c_str());
      } else {
        std::printf("(%s was already greeted, or probably was)\n", user.c_str());
      }
    }
    std::printf("about %lld users greeted (%lld bits, %lld of them per user)\n",
                static_cast<long long>(greeted.count()), static_cast<long long>(greeted.size()),
                static_cast<long long>(greeted.hash_iterations()));

    api.delete_object();
    greeted.delete_object();
  } catch (const redisson::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
