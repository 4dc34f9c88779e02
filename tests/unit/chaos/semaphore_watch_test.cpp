// The chaos driver's SemaphoreWatch over hand-written worker logs and a made-up clock: when it
// calls the semaphore dead (and the driver puts its permit back). A wrong "dead" adds a second
// permit while someone holds the first; a missed one leaves a soak's workers waiting out a dead
// semaphore. No server, no sleep.
#include "chaos/semaphore_watch.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace unit_chaos_semaphore_watch_test {

using namespace std::chrono_literals;
using redisson::chaos::SemaphoreWatch;

class SemaphoreWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("semaphore-watch-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Appends `text` (lines with their newlines, or a line's start) to worker i's log.
  void log(int worker, const std::string& text) {
    std::ofstream out(dir_ / ("worker-" + std::to_string(worker) + ".log"), std::ios::app);
    out << text;
  }

  std::filesystem::path dir_;
  const SemaphoreWatch::Clock::time_point t0_{};
};

TEST_F(SemaphoreWatchTest, NoPermitNoHolderAndNoAcquisitionForTheSteadyTimeIsDead) {
  SemaphoreWatch watch(dir_.string(), 2);
  log(0, "A sem 1\nE sem w0:1 0 0 1 2 0 1 ok not_replicated\n");
  EXPECT_FALSE(watch.dead(0, t0_));  // the first look only starts the clock
  EXPECT_FALSE(watch.dead(0, t0_ + SemaphoreWatch::kSteadyFor - 1ms));
  EXPECT_TRUE(watch.dead(0, t0_ + SemaphoreWatch::kSteadyFor));
}

TEST_F(SemaphoreWatchTest, APermitOnTheServerIsNeverDeadAndStartsTheClockAgain) {
  SemaphoreWatch watch(dir_.string(), 1);
  EXPECT_FALSE(watch.dead(0, t0_));
  EXPECT_FALSE(watch.dead(1, t0_ + 2s));
  EXPECT_FALSE(watch.dead(0, t0_ + 4s));  // counted from here
  EXPECT_FALSE(watch.dead(0, t0_ + 4s + SemaphoreWatch::kSteadyFor - 1ms));
  EXPECT_TRUE(watch.dead(0, t0_ + 4s + SemaphoreWatch::kSteadyFor));
}

TEST_F(SemaphoreWatchTest, AHolderKeepsItAliveUntilItsSectionEnds) {
  SemaphoreWatch watch(dir_.string(), 3);
  log(2, "A sem 1\n");
  EXPECT_FALSE(watch.dead(0, t0_));
  EXPECT_FALSE(watch.dead(0, t0_ + 60s));  // a holder stopped for a minute still holds it
  log(2, "E sem w2:1 0 0 1 2 0 1 ok ok\n");
  EXPECT_FALSE(watch.dead(0, t0_ + 61s));
  EXPECT_TRUE(watch.dead(0, t0_ + 61s + SemaphoreWatch::kSteadyFor));
}

TEST_F(SemaphoreWatchTest, AnAcquisitionBetweenTwoLooksStartsTheClockAgain) {
  // The driver reads the permit count before the logs: a worker that took the permit and
  // released it between two looks leaves no holder, but its acquisition shows the semaphore
  // alive.
  SemaphoreWatch watch(dir_.string(), 1);
  EXPECT_FALSE(watch.dead(0, t0_));
  log(0, "A sem 5\nE sem w0:1 0 4 5 6 0 1 ok ok\n");
  EXPECT_FALSE(watch.dead(0, t0_ + 5s));
  EXPECT_TRUE(watch.dead(0, t0_ + 5s + SemaphoreWatch::kSteadyFor));
}

TEST_F(SemaphoreWatchTest, ALineStillBeingWrittenCountsOnceComplete) {
  SemaphoreWatch watch(dir_.string(), 1);
  log(0, "A se");
  EXPECT_FALSE(watch.dead(0, t0_));
  log(0, "m 7\n");  // the acquisition, now whole: held
  EXPECT_FALSE(watch.dead(0, t0_ + 10s));
  EXPECT_FALSE(watch.dead(0, t0_ + 20s));
}

TEST_F(SemaphoreWatchTest, ARestartedWorkerHoldsNothingAndOtherKindsDoNotCount) {
  SemaphoreWatch watch(dir_.string(), 2);
  log(0, "A sem 1\nR 2\n");
  log(1, "A lock 3\n");
  EXPECT_FALSE(watch.dead(0, t0_));
  EXPECT_TRUE(watch.dead(0, t0_ + SemaphoreWatch::kSteadyFor));
}

TEST_F(SemaphoreWatchTest, AfterARepairTheNextDeathIsCountedAfresh) {
  SemaphoreWatch watch(dir_.string(), 1);
  EXPECT_FALSE(watch.dead(0, t0_));
  EXPECT_TRUE(watch.dead(0, t0_ + SemaphoreWatch::kSteadyFor));
  watch.repaired();
  EXPECT_FALSE(watch.dead(0, t0_ + 10s));
  EXPECT_TRUE(watch.dead(0, t0_ + 10s + SemaphoreWatch::kSteadyFor));
}

}  // namespace unit_chaos_semaphore_watch_test
