// The Bloom filter arithmetic against Java Redisson: the shape Redisson computes for the
// fixtures' filters (m = 7298, k = 5 for 1000 / 0.03), and the bit indexes its own code
// computed (fixtures/redisson-3.52/cases.jsonl, spec_formula_bit_indexes, for StringCodec and
// Kryo5Codec), and the count estimate.
#include "objects/bloom_math.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "redisson/error.hpp"

namespace unit_objects_bloom_math_test {

namespace {

using redisson::detail::append_bloom_indexes;
using redisson::detail::bloom_count_estimate;
using redisson::detail::bloom_shape;
using redisson::detail::highway_hash128;

std::vector<std::int64_t> indexes(const std::string& bytes, std::int64_t k = 5,
                                  std::int64_t m = 7298) {
  std::vector<std::int64_t> out;
  append_bloom_indexes(highway_hash128(bytes), k, m, out);
  return out;
}

using Indexes = std::vector<std::int64_t>;

TEST(BloomMath, ShapeIsRedissonsForTheFixtureFilters) {
  const auto shape = bloom_shape(1000, 0.03);
  EXPECT_EQ(shape.size, 7298);
  EXPECT_EQ(shape.hash_iterations, 5);
}

TEST(BloomMath, ShapeFollowsJavasArithmetic) {
  EXPECT_EQ(bloom_shape(1'000'000, 0.001).size, 14377587);
  EXPECT_EQ(bloom_shape(1'000'000, 0.001).hash_iterations, 10);
  EXPECT_EQ(bloom_shape(100, 1e-4).size, 1917);
  EXPECT_EQ(bloom_shape(100, 1e-4).hash_iterations, 13);
  EXPECT_EQ(bloom_shape(1, 0.5).size, 1);
  EXPECT_EQ(bloom_shape(1, 0.5).hash_iterations, 1);  // max(1, ...)
  // p = 0 counts as Double.MIN_VALUE.
  EXPECT_EQ(bloom_shape(1000, 0).size, 1549454);
  EXPECT_EQ(bloom_shape(1000, 0).hash_iterations, 1074);
}

TEST(BloomMath, ShapesRedissonRefusesAreInvalidArguments) {
  const auto refused = [](std::int64_t n, double p) {
    try {
      bloom_shape(n, p);
    } catch (const redisson::error& e) {
      return e.code() == redisson::errc::invalid_argument;
    }
    return false;
  };
  EXPECT_TRUE(refused(1000, 1.5));
  EXPECT_TRUE(refused(1000, -0.1));
  EXPECT_TRUE(refused(3, 0.99));  // m = 0
  EXPECT_TRUE(refused(1, 1.0));   // m = 0
  EXPECT_TRUE(refused(0, 0.03));
  EXPECT_TRUE(refused(-5, 0.03));
  EXPECT_TRUE(refused(1'000'000'000, 1e-9));  // m above 2 (2^31 - 1)
  EXPECT_TRUE(refused(1000, std::numeric_limits<double>::quiet_NaN()));
}

TEST(BloomMath, IndexesMatchTheSpecExample) {
  EXPECT_EQ(indexes("hello"), (Indexes{6595, 980, 1089, 2772, 2881}));
}

TEST(BloomMath, IndexesMatchJavaRedissonWithStringCodec) {
  EXPECT_EQ(indexes("a"), (Indexes{4440, 2613, 7053, 6038, 3180}));
  EXPECT_EQ(indexes("b"), (Indexes{5417, 7123, 5242, 6948, 5067}));
  EXPECT_EQ(indexes("c"), (Indexes{5311, 371, 6494, 1554, 379}));
}

TEST(BloomMath, IndexesMatchJavaRedissonWithKryo5Codec) {
  // Kryo5 writes a one-character String as 03 (String), 82 (length 1, UTF-8 form), the char.
  EXPECT_EQ(indexes(std::string("\x03\x82\x61", 3)), (Indexes{5580, 5290, 3572, 3282, 2376}));
  EXPECT_EQ(indexes(std::string("\x03\x82\x62", 3)), (Indexes{4546, 1293, 6651, 3398, 1458}));
  EXPECT_EQ(indexes(std::string("\x03\x82\x63", 3)), (Indexes{5414, 783, 7009, 2378, 494}));
}

TEST(BloomMath, IndexesAppendKPerValue) {
  std::vector<std::int64_t> out{42};
  append_bloom_indexes(highway_hash128("a"), 3, 7298, out);
  EXPECT_EQ(out, (Indexes{42, 4440, 2613, 7053}));
}

TEST(BloomMath, CountEstimateIsRedissonsFormula) {
  EXPECT_EQ(bloom_count_estimate(7298, 5, 0), 0);
  EXPECT_EQ(bloom_count_estimate(7298, 5, 15), 3);  // a, b, c: 15 distinct bits
  EXPECT_EQ(bloom_count_estimate(7298, 5, 7298), std::numeric_limits<std::int64_t>::max());
}

}  // namespace

}  // namespace unit_objects_bloom_math_test
