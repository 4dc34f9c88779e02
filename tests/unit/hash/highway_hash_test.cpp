// HighwayHash with Redisson's key: the vectors of OBJECTS.md §1.4 and the hashes Java Redisson
// 3.52 computed in the golden fixtures (fixtures/redisson-3.52/cases.jsonl:
// hash128toBase64_of_key, hash128toArray_of_key, the bloom filters' spec_formula_bit_indexes).
#include "hash/highway_hash.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace unit_hash_highway_hash_test {

namespace {

using redisson::detail::highway_hash128;
using redisson::detail::highway_hash128_array;
using redisson::detail::highway_hash128_base64;
using redisson::detail::highway_hash64;
using redisson::detail::HighwayHash128;

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    out.push_back(kDigits[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kDigits[static_cast<unsigned char>(c) & 0xf]);
  }
  return out;
}

std::string array_hex(std::string_view bytes) {
  const auto array = highway_hash128_array(bytes);
  return hex(std::string_view(array.data(), array.size()));
}

// Kryo5 bytes of a Java String (as the fixtures' map_key_*_hex and OBJECTS.md §1.3 give them).
const std::string kKryoHello("\x03\x68\x65\x6c\x6c\xef", 6);
const std::string kKryoK1("\x03\x6b\xb1", 3);
const std::string kKryoK2("\x03\x6b\xb2", 3);
const std::string kKryoK("\x03\x82\x6b", 3);

TEST(HighwayHash, Hash128MatchesTheSpecVectors) {
  EXPECT_EQ(highway_hash128(""), (HighwayHash128{0xb7aad9c226c6a36bULL, 0xb2d4e4a63557bca6ULL}));
  EXPECT_EQ(highway_hash128("hello"),
            (HighwayHash128{0x7fd1d0bcd0c085e1ULL, 0x70f5d2de26f6a7d9ULL}));
  EXPECT_EQ(highway_hash128(kKryoHello),
            (HighwayHash128{0x5ced80902de57cd4ULL, 0x0d1d78736ed5afa3ULL}));
}

TEST(HighwayHash, Base64IsTheBigEndianArrayWithoutPadding) {
  EXPECT_EQ(highway_hash128_base64(""), "t6rZwibGo2uy1OSmNVe8pg");
  EXPECT_EQ(highway_hash128_base64("hello"), "f9HQvNDAheFw9dLeJvan2Q");
  EXPECT_EQ(highway_hash128_base64(kKryoHello), "XO2AkC3lfNQNHXhzbtWvow");
  EXPECT_EQ(array_hex("hello"), "7fd1d0bcd0c085e170f5d2de26f6a7d9");
}

TEST(HighwayHash, MatchesJavaRedissonsMultimapKeys) {
  // setmultimap_string / setmultimap_kryo: {n}:<hash128toBase64(key bytes)>.
  EXPECT_EQ(highway_hash128_base64("k1"), "9sC8KpMg8F8KBbxgHnpp1w");
  EXPECT_EQ(highway_hash128_base64("k2"), "U5ocJaYwL+fvSRY5S9mTKw");
  EXPECT_EQ(highway_hash128_base64(kKryoK1), "+TBh7Yug9wjsmfRwBCx2+A");
  EXPECT_EQ(highway_hash128_base64(kKryoK2), "jrWFtzIkmm60aowTat3Jfg");
}

TEST(HighwayHash, MatchesJavaRedissonsLocalCacheKeys) {
  // lcmap_string / lcmap_kryo: hash128toArray(key bytes).
  EXPECT_EQ(array_hex("k"), "cc6a7646751cd9c65c84c1e5cbc8aa50");
  EXPECT_EQ(array_hex("k2"), "539a1c25a6302fe7ef4916394bd9932b");
  EXPECT_EQ(array_hex(kKryoK), "3cae5eed1b2a6613c82f00bff125a0f7");
  EXPECT_EQ(array_hex(kKryoK2), "8eb585b732249a6eb46a8c136addc97e");
}

TEST(HighwayHash, LongInputsCrossPacketBoundaries) {
  // 32-byte packets then the remainder: every length up to three packets hashes differently and
  // the same input always the same.
  std::string input;
  HighwayHash128 previous = highway_hash128(input);
  for (int i = 0; i < 100; ++i) {
    input.push_back(static_cast<char>('a' + i % 26));
    const auto hash = highway_hash128(input);
    EXPECT_NE(hash, previous) << input.size();
    EXPECT_EQ(hash, highway_hash128(input));
    previous = hash;
  }
}

TEST(HighwayHash, Hash64IsStableAndDiffersFromHash128) {
  // libhighwayhash's HighwayHash64 with Redisson's key (no Java fixture uses hash64 yet).
  EXPECT_EQ(highway_hash64("hello"), 0xeb5639e78871b5bfULL);
  EXPECT_EQ(highway_hash64("hello"), highway_hash64(std::string("hel") + "lo"));
  EXPECT_NE(highway_hash64("hello"), highway_hash64("hellp"));
  EXPECT_NE(highway_hash64("hello"), highway_hash128("hello").h0);
}

}  // namespace

}  // namespace unit_hash_highway_hash_test
