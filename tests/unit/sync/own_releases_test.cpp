// The per-client record of the semaphore releases it published moments ago
// (src/sync/own_releases.cpp): when a waiter that starts listening has its own client's release
// message still to hear.
#include "sync/own_releases.hpp"

#include <gtest/gtest.h>

#include <string>

namespace unit_sync_own_releases_test {

using namespace std::chrono_literals;
using redisson::detail::Clock;
using redisson::detail::OwnReleases;
using redisson::detail::Received;

namespace {
const std::string kChannel = "redisson_sc:{slots}";
}

TEST(OwnReleases, PendingWhileNoMessageCameSinceTheReleaseWasSent) {
  OwnReleases releases;
  const auto sent = Clock::now();
  const auto at = sent + 1ms;
  const Received before{7, sent - 1ms};  // the last message came before the release was sent
  releases.published(kChannel, 3, sent, at, before);
  const auto pending = releases.pending(kChannel, at + 1ms, at + 2ms, before);
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(pending->count, 3);
  EXPECT_EQ(pending->until, at + OwnReleases::kRemembered);
  EXPECT_TRUE(releases.pending(kChannel, at, at, before).has_value());  // began with the reply
  // A message came since (perhaps that one), another channel, a wait that began before the
  // release, or too long after it: nothing to let go by.
  EXPECT_FALSE(releases.pending(kChannel, at + 1ms, at + 2ms, {8, at + 1ms}).has_value());
  EXPECT_FALSE(releases.pending("redisson_sc:{other}", at + 1ms, at + 2ms, before).has_value());
  EXPECT_FALSE(releases.pending(kChannel, at - 1ms, at + 2ms, before).has_value());
  EXPECT_FALSE(releases.pending(kChannel, at + 1ms, at + OwnReleases::kRemembered + 1ms, before)
                   .has_value());
}

TEST(OwnReleases, AReleaseWhoseMessageMayHaveComeIsNotRecorded) {
  OwnReleases releases;
  const auto sent = Clock::now();
  releases.published(kChannel, 1, sent, sent + 1ms, {0, {}});
  ASSERT_EQ(releases.size(), 1U);
  // A message came after the next release was sent: it may have been that release's own. The
  // earlier record goes too.
  releases.published(kChannel, 2, sent + 2ms, sent + 3ms, {1, sent + 2ms});
  EXPECT_EQ(releases.size(), 0U);
  EXPECT_FALSE(releases.pending(kChannel, sent + 4ms, sent + 4ms, {1, sent + 2ms}).has_value());
}

TEST(OwnReleases, TheLatestReleaseOfAChannelCounts) {
  OwnReleases releases;
  const auto at = Clock::now();
  releases.published(kChannel, 1, at, at, {});
  releases.published(kChannel, 2, at + 1ms, at + 1ms, {});
  EXPECT_EQ(releases.pending(kChannel, at + 2ms, at + 2ms, {})->count, 2);
}

TEST(OwnReleases, RememberedLongerWhenATestAsks) {
  OwnReleases releases;
  releases.set_remembered(1h);
  const auto at = Clock::now();
  releases.published(kChannel, 1, at, at, {});
  EXPECT_TRUE(releases.pending(kChannel, at, at + 1min, {}).has_value());
}

TEST(OwnReleases, OldEntriesArePrunedSoTheMapStaysSmall) {
  OwnReleases releases;
  const auto start = Clock::now();
  for (int i = 0; i < 1000; ++i) {
    const auto at = start + i * OwnReleases::kRemembered;
    releases.published("channel:" + std::to_string(i), 1, at, at, {});
  }
  EXPECT_LE(releases.size(), 20U);
}

}  // namespace unit_sync_own_releases_test
