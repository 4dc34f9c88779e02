// The per-client record of recent releases that woke other clients' waiters
// (src/sync/release_yield.cpp): the window's bounds, and entries that end with their window.
#include "sync/release_yield.hpp"

#include <gtest/gtest.h>

#include <string>

namespace unit_sync_release_yield_test {

using namespace std::chrono_literals;
using redisson::detail::Clock;
using redisson::detail::ReleaseYield;

TEST(ReleaseYield, WindowIsThreeUnlockRoundTripsWithinItsBounds) {
  ReleaseYield yield;
  EXPECT_EQ(yield.window_for(1ms), 3ms);
  EXPECT_EQ(yield.window_for(10us), ReleaseYield::kMinWindow);
  EXPECT_EQ(yield.window_for(0ns), ReleaseYield::kMinWindow);
  EXPECT_EQ(yield.window_for(1s), ReleaseYield::kMaxWindow);
}

TEST(ReleaseYield, RaisedFloorAppliesAboveTheCap) {
  ReleaseYield yield;
  yield.set_min_window(2s);
  EXPECT_EQ(yield.window_for(1ms), 2s);
  EXPECT_EQ(yield.window_for(10s), 2s);
}

TEST(ReleaseYield, WindowIsOpenUntilItsEndOnlyForItsChannel) {
  ReleaseYield yield;
  const auto now = Clock::now();
  yield.released("redisson_lock__channel:{a}", now + 1ms);
  EXPECT_EQ(yield.window("redisson_lock__channel:{a}", now)->until, now + 1ms);
  EXPECT_EQ(yield.window("redisson_lock__channel:{a}", now)->others, 1);
  yield.released("redisson_lock__channel:{c}", now + 1ms, 3);  // a release that reached three
  EXPECT_EQ(yield.window("redisson_lock__channel:{c}", now)->others, 3);
  EXPECT_FALSE(yield.window("redisson_lock__channel:{b}", now).has_value());
  // At its end it is over, and forgotten.
  EXPECT_FALSE(yield.window("redisson_lock__channel:{a}", now + 1ms).has_value());
  EXPECT_FALSE(yield.window("redisson_lock__channel:{c}", now + 1ms).has_value());
  EXPECT_EQ(yield.size(), 0U);
}

TEST(ReleaseYield, ExpiredEntriesArePrunedSoTheMapStaysSmall) {
  ReleaseYield yield;
  const auto past = Clock::now() - 1s;
  for (int i = 0; i < 1000; ++i) yield.released("channel:" + std::to_string(i), past);
  EXPECT_LE(yield.size(), 20U);
  yield.released("live", Clock::now() + 1h);
  EXPECT_TRUE(yield.window("live", Clock::now()).has_value());
}

// Callers' threads ask all_closed() before sending a first attempt themselves (acquire_loop.cpp):
// it must stay false until the latest window of any channel has ended.
TEST(ReleaseYield, AllClosedOnlyOnceTheLatestWindowEnded) {
  ReleaseYield yield;
  const auto now = Clock::now();
  EXPECT_TRUE(yield.all_closed(now));
  yield.released("a", now + 5ms);
  yield.released("b", now + 2ms);  // an earlier end does not shorten the wait
  EXPECT_FALSE(yield.all_closed(now));
  EXPECT_FALSE(yield.all_closed(now + 3ms));
  EXPECT_TRUE(yield.all_closed(now + 5ms));
}

}  // namespace unit_sync_release_yield_test
