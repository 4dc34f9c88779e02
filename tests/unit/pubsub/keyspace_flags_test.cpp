// The notify-keyspace-events rules object listeners rely on (src/pubsub/keyspace_flags.cpp):
// which letters are missing from what CONFIG GET printed, and what CONFIG SET is then sent.
#include "pubsub/keyspace_flags.hpp"

#include <gtest/gtest.h>

namespace redisson::detail {
namespace unit_pubsub_keyspace_flags_test {

TEST(KeyspaceFlags, NothingOnMissesEveryLetterOnce) {
  EXPECT_EQ(missing_keyspace_flags("", "Eg"), "Eg");
  EXPECT_EQ(missing_keyspace_flags("", "EgEg"), "Eg");
}

TEST(KeyspaceFlags, LettersAlreadyOnAreNotMissing) {
  EXPECT_EQ(missing_keyspace_flags("gxE", "Eg"), "");
  EXPECT_EQ(missing_keyspace_flags("gxE", "El"), "l");
  EXPECT_EQ(missing_keyspace_flags("Kg", "Eg"), "E");  // keyspace channels are not keyevent ones
}

TEST(KeyspaceFlags, AStandsForEveryClassButNotNewKeysOrMisses) {
  EXPECT_EQ(missing_keyspace_flags("AE", "Eg$lshzxt"), "");
  EXPECT_EQ(missing_keyspace_flags("AE", "En"), "n");
  EXPECT_EQ(missing_keyspace_flags("AK", "Eg"), "E");
}

TEST(KeyspaceFlags, MergingAddsOnlyWhatIsMissing) {
  EXPECT_EQ(merged_keyspace_flags("", "Eg"), "Eg");
  EXPECT_EQ(merged_keyspace_flags("xE", "Eg"), "xEg");
  EXPECT_EQ(merged_keyspace_flags("AKE", "Eg"), "AKE");
  EXPECT_EQ(merged_keyspace_flags("AKE", "En"), "AKEn");
}

}  // namespace unit_pubsub_keyspace_flags_test
}  // namespace redisson::detail
