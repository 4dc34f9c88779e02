// The sweeper's schedule against Redisson's EvictionTask: starts at the minimum delay, slows
// down by 1.5 after three empty or three falling runs (never past the maximum), speeds up by 4
// after three runs at the limit (never below the minimum), and learns nothing from a run another
// client did (-1).
#include "objects/eviction_schedule.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace unit_objects_eviction_schedule_test {

namespace {

using namespace std::chrono_literals;
using redisson::Config;
using redisson::detail::EvictionSchedule;

Config::Eviction options() {
  Config::Eviction eviction;
  eviction.min_delay = 4s;
  eviction.max_delay = 10s;
  eviction.keys_limit = 100;
  return eviction;
}

TEST(EvictionSchedule, StartsAtTheMinimum) {
  const EvictionSchedule schedule(options());
  EXPECT_EQ(schedule.delay(), 4s);
  EXPECT_EQ(schedule.keys_limit(), 100);
  EXPECT_EQ(schedule.latch_seconds(), 4);
}

TEST(EvictionSchedule, EmptyRunsSlowItDownToTheMaximum) {
  EvictionSchedule schedule(options());
  schedule.record(0);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 4s) << "two runs are not a trend yet";
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 6s);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 9s);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 10s);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 10s);
}

TEST(EvictionSchedule, FallingCountsSlowItDown) {
  EvictionSchedule schedule(options());
  schedule.record(50);
  schedule.record(20);
  schedule.record(5);
  EXPECT_EQ(schedule.delay(), 6s);
  schedule.record(30);
  EXPECT_EQ(schedule.delay(), 6s) << "a rise is no trend";
}

TEST(EvictionSchedule, RunsAtTheLimitSpeedItUpToTheMinimum) {
  EvictionSchedule schedule(options());
  for (int i = 0; i < 4; ++i) schedule.record(0);
  EXPECT_EQ(schedule.delay(), 9s);
  schedule.record(100);
  schedule.record(100);
  schedule.record(100);
  EXPECT_EQ(schedule.delay(), 4s) << "9 s / 4 is below the minimum";
}

TEST(EvictionSchedule, AnotherClientsRunTeachesNothing) {
  EvictionSchedule schedule(options());
  schedule.record(0);
  schedule.record(-1);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 4s);
  schedule.record(-1);
  schedule.record(0);
  EXPECT_EQ(schedule.delay(), 6s);
}

TEST(EvictionSchedule, TheLatchLastsTheDelayWithinOneToThirtySeconds) {
  auto eviction = options();
  eviction.min_delay = 200ms;
  EXPECT_EQ(EvictionSchedule(eviction).latch_seconds(), 1);
  eviction.min_delay = 600s;
  eviction.max_delay = 600s;
  EXPECT_EQ(EvictionSchedule(eviction).latch_seconds(), 30);
}

}  // namespace

}  // namespace unit_objects_eviction_schedule_test
