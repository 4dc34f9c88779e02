// CRC16 and hash slots, checked against values from the Redis Cluster specification and from
// CLUSTER KEYSLOT on a real server.
#include "topology/key_slot.hpp"

#include <gtest/gtest.h>

namespace redisson::detail {
namespace unit_topology_key_slot_test {

TEST(KeySlot, Crc16MatchesTheSpecificationsCheckValue) {
  // The spec's reference: CRC16/XMODEM of "123456789" is 0x31C3.
  EXPECT_EQ(crc16("123456789"), 0x31C3);
  EXPECT_EQ(crc16(""), 0);
}

TEST(KeySlot, KnownSlots) {
  EXPECT_EQ(key_slot("foo"), 12182);
  EXPECT_EQ(key_slot("bar"), 5061);
  EXPECT_EQ(key_slot("hello"), 866);
  EXPECT_EQ(key_slot(""), 0);
}

TEST(KeySlot, HashTagsPutKeysInOneSlot) {
  EXPECT_EQ(key_slot("{user1000}.following"), key_slot("{user1000}.followers"));
  EXPECT_EQ(key_slot("{user1000}.following"), key_slot("user1000"));
  // Only the first '{' and the first '}' after it count.
  EXPECT_EQ(key_slot("foo{bar}{zap}"), key_slot("bar"));
  EXPECT_EQ(key_slot("foo{{bar}}zap"), key_slot("{bar"));
}

TEST(KeySlot, EmptyOrUnclosedTagsHashTheWholeKey) {
  EXPECT_EQ(key_slot("foo{}{bar}"), crc16("foo{}{bar}") % 16384);
  EXPECT_EQ(key_slot("foo{bar"), crc16("foo{bar") % 16384);
  EXPECT_EQ(key_slot("}foo{"), crc16("}foo{") % 16384);
}

TEST(KeySlot, RedissonNamesShareTheSlotOfTheLockName) {
  // P(prefix, n) and S(n, suffix) keep an object's keys and channels in n's slot
  // (docs/interop-java.md, "Names").
  EXPECT_EQ(key_slot("redisson_lock__channel:{mylock}"), key_slot("mylock"));
  EXPECT_EQ(key_slot("redisson_countdownlatch__channel__{latch}"), key_slot("latch"));
}

}  // namespace unit_topology_key_slot_test
}  // namespace redisson::detail
