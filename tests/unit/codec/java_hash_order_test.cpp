// java_hash_order: Java's hashCode() of values and HashMap's iteration order, checked against
// orders derived by hand from java.util.HashMap's algorithm (see the comments).
#include "codec/java_hash_order.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace unit_codec_java_hash_order_test {

namespace {

using redisson::Value;
using redisson::detail::java_hash_code;
using redisson::detail::java_hash_map_order;
using redisson::detail::JavaIterationOrder;

std::vector<std::uint32_t> order_of(const std::vector<std::int32_t>& hashes) {
  std::vector<std::uint32_t> order(hashes.size());
  java_hash_map_order(hashes, order);
  return order;
}

std::vector<std::int32_t> string_hashes(std::initializer_list<const char*> keys) {
  std::vector<std::int32_t> hashes;
  for (const char* k : keys) hashes.push_back(*java_hash_code(Value::string(k)));
  return hashes;
}

TEST(JavaHashCode, MatchesJavasHashCodeOfEachType) {
  EXPECT_EQ(java_hash_code(Value::string("hello")), 99162322);
  EXPECT_EQ(java_hash_code(Value::string("k1")), 3366);  // 'k' * 31 + '1'
  EXPECT_EQ(java_hash_code(Value::string("")), 0);
  // U+1F600 is the units D83D DE00: 0xD83D * 31 + 0xDE00.
  EXPECT_EQ(java_hash_code(Value::string("\xF0\x9F\x98\x80")), 1772899);
  EXPECT_EQ(java_hash_code(Value::integer(-7)), -7);
  EXPECT_EQ(java_hash_code(Value::long_int(1700000000000)), -807048821);  // (int)(v ^ v >>> 32)
  EXPECT_EQ(java_hash_code(Value::long_int(-1)), 0);
  EXPECT_EQ(java_hash_code(Value::double_num(1.5)), 1073217536);  // 0x3FF80000
  EXPECT_EQ(java_hash_code(Value::boolean(true)), 1231);
  EXPECT_EQ(java_hash_code(Value::boolean(false)), 1237);
  EXPECT_EQ(java_hash_code(Value::character(u'a')), 97);
  EXPECT_EQ(java_hash_code(Value{}), 0);
  // List: 31 * (31 * 1 + 'a') + 'b'; Set: 'a' + 'b'; Map: 'k' ^ 'v'.
  EXPECT_EQ(java_hash_code(Value::list({Value::string("a"), Value::string("b")})), 4066);
  EXPECT_EQ(java_hash_code(Value::set({Value::string("a"), Value::string("b")})), 195);
  EXPECT_EQ(java_hash_code(Value::map({{Value::string("k"), Value::string("v")}})), 29);
}

TEST(JavaHashCode, IdentityHashedValuesHaveNone) {
  EXPECT_FALSE(java_hash_code(Value::bytes_from("x")));
  EXPECT_FALSE(java_hash_code(Value::object("com.x.Y", {})));
  EXPECT_FALSE(java_hash_code(Value::list({}, "java.util.ArrayDeque")));
  EXPECT_FALSE(java_hash_code(Value::list({Value::bytes_from("x")})));
  EXPECT_FALSE(java_hash_code(Value::string("\xff")));
}

TEST(JavaHashMapOrder, KeysInDifferentBucketsGoInBucketOrder) {
  // "k1", "k2", "k3": 3366, 3367, 3368 -> buckets 6, 7, 8 of 16.
  EXPECT_EQ(order_of(string_hashes({"k1", "k2", "k3"})), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(order_of(string_hashes({"k3", "k1", "k2"})), (std::vector<std::uint32_t>{1, 2, 0}));
  // "b" (98) is bucket 2, "a" (97) bucket 1.
  EXPECT_EQ(order_of(string_hashes({"b", "a"})), (std::vector<std::uint32_t>{1, 0}));
}

TEST(JavaHashMapOrder, KeysOfOneBucketKeepTheirInsertionOrder) {
  // Integers 33, 1, 17 are all bucket 1 of 16; 0 is bucket 0.
  EXPECT_EQ(order_of({33, 1, 17}), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(order_of({33, 1, 0, 17}), (std::vector<std::uint32_t>{2, 0, 1, 3}));
}

TEST(JavaHashMapOrder, TheHashIsSpreadByItsHighBits) {
  // 65536 ^ (65536 >>> 16) = 65537: bucket 1, not 0.
  EXPECT_EQ(order_of({65536, 0}), (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(order_of({1, 65536}), (std::vector<std::uint32_t>{0, 1}));
}

TEST(JavaHashMapOrder, TheTableDoublesPastThreeQuartersFull) {
  // 12 keys (16, 0, 1..10): 16 buckets (12 <= 12), 16 and 0 share bucket 0 in insertion order.
  std::vector<std::int32_t> twelve{16, 0};
  for (int i = 1; i <= 10; ++i) twelve.push_back(i);
  std::vector<std::uint32_t> expected{0, 1};
  for (std::uint32_t i = 2; i < 12; ++i) expected.push_back(i);
  EXPECT_EQ(order_of(twelve), expected);
  // A 13th key (11): 32 buckets, 16 moves to bucket 16, after 0..11.
  twelve.push_back(11);
  expected = {1};
  for (std::uint32_t i = 2; i < 13; ++i) expected.push_back(i);
  expected.push_back(0);
  EXPECT_EQ(order_of(twelve), expected);
}

TEST(JavaHashMapOrder, ANinthKeyInOneBucketDoublesASmallTable) {
  // 0, 16, ..., 128: nine keys in bucket 0 of 16. The ninth makes treeifyBin resize to 32
  // buckets: 0, 32, 64, 96, 128 stay in bucket 0, 16, 48, 80, 112 go to bucket 16.
  std::vector<std::int32_t> keys;
  for (int k = 0; k <= 128; k += 16) keys.push_back(k);
  EXPECT_EQ(order_of(keys), (std::vector<std::uint32_t>{0, 2, 4, 6, 8, 1, 3, 5, 7}));
  // Eight keys: no resize, insertion order.
  keys.pop_back();
  EXPECT_EQ(order_of(keys), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(JavaHashMapOrder, TheFinalTableDependsOnTheInsertOrder) {
  // 1..5 and nine multiples of 32 (bucket 0 of 16 and of 32). Inserted in that order, the 13th
  // key (224) doubles the table to 32 buckets, and the ninth in bucket 0 (256) then doubles it to
  // 64, where the odd multiples of 32 go to bucket 32.
  std::vector<std::int32_t> keys{1, 2, 3, 4, 5};
  for (int k = 0; k <= 256; k += 32) keys.push_back(k);
  EXPECT_EQ(order_of(keys),
            (std::vector<std::uint32_t>{5, 7, 9, 11, 13, 0, 1, 2, 3, 4, 6, 8, 10, 12}));
  // The multiples first: the ninth doubles the table to 32 and the 14 keys stay below its 24.
  std::vector<std::int32_t> multiples_first(keys.begin() + 5, keys.end());
  multiples_first.insert(multiples_first.end(), keys.begin(), keys.begin() + 5);
  std::vector<std::uint32_t> as_inserted(14);
  for (std::uint32_t i = 0; i < 14; ++i) as_inserted[i] = i;
  EXPECT_EQ(order_of(multiples_first), as_inserted);
}

TEST(JavaHashMapOrder, ManyKeysEndInBucketOrderOfTheFinalTable) {
  // 100 integer keys inserted backwards: 256 buckets, so ascending order.
  std::vector<std::int32_t> keys;
  for (int k = 99; k >= 0; --k) keys.push_back(k);
  const auto order = order_of(keys);
  for (std::uint32_t i = 0; i < 100; ++i) EXPECT_EQ(order[i], 99 - i);
}

TEST(JavaIterationOrder, OnlyHashMapAndHashSetAreReordered) {
  const Value hash_set = Value::set({Value::string("b"), Value::string("a")});
  const JavaIterationOrder set_order(hash_set);
  EXPECT_TRUE(set_order.reordered());
  EXPECT_EQ(set_order[0], 1U);
  EXPECT_EQ(set_order[1], 0U);
  const Value linked =
      Value::set({Value::string("b"), Value::string("a")}, "java.util.LinkedHashSet");
  EXPECT_FALSE(JavaIterationOrder(linked).reordered());
  const Value list = Value::list({Value::string("b"), Value::string("a")});
  EXPECT_FALSE(JavaIterationOrder(list).reordered());
  // A byte[] key: Java hashes it by identity, so the given order stays.
  const Value bytes_key =
      Value::map({{Value::string("b"), Value{}}, {Value::bytes_from("a"), Value{}}});
  EXPECT_FALSE(JavaIterationOrder(bytes_key).reordered());
}

TEST(JavaIterationOrder, LargeMapsUseTheHeap) {
  Value::Entries entries;
  for (int k = 39; k >= 0; --k) entries.emplace_back(Value::integer(k), Value{});
  const Value map = Value::map(std::move(entries));
  const JavaIterationOrder order(map);
  for (std::size_t i = 0; i < 40; ++i) EXPECT_EQ(order[i], 39 - i);
}

}  // namespace

}  // namespace unit_codec_java_hash_order_test
