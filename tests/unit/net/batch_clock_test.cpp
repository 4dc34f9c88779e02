#include "net/batch_clock.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace unit_net_batch_clock_test {

using namespace std::chrono_literals;
using redisson::detail::BatchClock;

TEST(BatchClock, OutsideAScopeItIsTheClock) {
  const auto before = BatchClock::Clock::now();
  std::this_thread::sleep_for(2ms);
  EXPECT_GT(BatchClock::now(), before);
}

TEST(BatchClock, InsideAScopeItHoldsUntilRefreshed) {
  BatchClock::Scope scope;
  const auto held = BatchClock::now();
  std::this_thread::sleep_for(2ms);
  EXPECT_EQ(BatchClock::now(), held);
  scope.refresh();
  EXPECT_GT(BatchClock::now(), held);
}

TEST(BatchClock, NestedScopeRestoresTheOuterTimeAndTheEndRestoresTheClock) {
  const auto outer_time = [] {
    BatchClock::Scope outer;
    const auto outer_value = BatchClock::now();
    std::this_thread::sleep_for(2ms);
    {
      BatchClock::Scope inner;
      EXPECT_GT(BatchClock::now(), outer_value);
    }
    EXPECT_EQ(BatchClock::now(), outer_value);
    return outer_value;
  }();
  std::this_thread::sleep_for(2ms);
  EXPECT_GT(BatchClock::now(), outer_time);
}

TEST(BatchClock, AScopeIsPerThread) {
  BatchClock::Scope scope;
  const auto held = BatchClock::now();
  std::this_thread::sleep_for(2ms);
  BatchClock::Clock::time_point seen{};
  std::thread other([&] { seen = BatchClock::now(); });
  other.join();
  EXPECT_GT(seen, held);
}

}  // namespace unit_net_batch_clock_test
