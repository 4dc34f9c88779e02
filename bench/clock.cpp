#include "clock.hpp"

#include <thread>

namespace redisson_bench {

void sleep_until_ns(std::int64_t deadline_ns) {
  for (;;) {
    const auto left = deadline_ns - monotonic_ns();
    if (left <= 0) return;
    if (left > 200'000) {
      timespec ts{0, static_cast<long>(std::min<std::int64_t>(left - 100'000, 50'000'000))};
      nanosleep(&ts, nullptr);
    } else {
      std::this_thread::yield();
    }
  }
}

void busy_wait_ns(std::int64_t ns) {
  const auto until = monotonic_ns() + ns;
  while (monotonic_ns() < until) {
  }
}

}  // namespace redisson_bench
