// The per-client record of the semaphore releases it published moments ago
// (src/sync/own_releases.cpp): when a waiter that starts listening has its own client's release
// message still to hear.
#include "sync/own_releases.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace std::chrono_literals;
using redisson::detail::Clock;
using redisson::detail::OwnReleases;

namespace {
const std::string kChannel = "redisson_sc:{slots}";
}

TEST(OwnReleases, PendingWhileNoMessageCameSinceTheReleaseBeforeTheWait) {
  OwnReleases releases;
  const auto at = Clock::now();
  releases.published(kChannel, 3, at, 7);
  const auto pending = releases.pending(kChannel, at + 1ms, at + 2ms, 7);
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(pending->count, 3);
  EXPECT_EQ(pending->until, at + OwnReleases::kRemembered);
  EXPECT_TRUE(releases.pending(kChannel, at, at, 7).has_value());  // began with the reply
  // A message came since (perhaps that one), another channel, a wait that began before the
  // release, or too long after it: nothing to let go by.
  EXPECT_FALSE(releases.pending(kChannel, at + 1ms, at + 2ms, 8).has_value());
  EXPECT_FALSE(releases.pending("redisson_sc:{other}", at + 1ms, at + 2ms, 7).has_value());
  EXPECT_FALSE(releases.pending(kChannel, at - 1ms, at + 2ms, 7).has_value());
  EXPECT_FALSE(
      releases.pending(kChannel, at + 1ms, at + OwnReleases::kRemembered + 1ms, 7).has_value());
}

TEST(OwnReleases, TheLatestReleaseOfAChannelCounts) {
  OwnReleases releases;
  const auto at = Clock::now();
  releases.published(kChannel, 1, at, 0);
  releases.published(kChannel, 2, at + 1ms, 0);
  EXPECT_EQ(releases.pending(kChannel, at + 2ms, at + 2ms, 0)->count, 2);
}

TEST(OwnReleases, RememberedLongerWhenATestAsks) {
  OwnReleases releases;
  releases.set_remembered(1h);
  const auto at = Clock::now();
  releases.published(kChannel, 1, at, 0);
  EXPECT_TRUE(releases.pending(kChannel, at, at + 1min, 0).has_value());
}

TEST(OwnReleases, OldEntriesArePrunedSoTheMapStaysSmall) {
  OwnReleases releases;
  const auto start = Clock::now();
  for (int i = 0; i < 1000; ++i) {
    releases.published("channel:" + std::to_string(i), 1, start + i * OwnReleases::kRemembered, 0);
  }
  EXPECT_LE(releases.size(), 20U);
}
