#include "objects/bloom_math.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {
namespace {

// Java's (long) of a double: NaN is 0, out-of-range values saturate.
std::int64_t java_long(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9223372036854775807.0) return std::numeric_limits<std::int64_t>::max();
  if (x <= -9223372036854775808.0) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(x);
}

// Java's Math.round(double): round half up, saturating (llround rounds half away from zero,
// which differs only below zero).
std::int64_t java_round(double x) {
  if (std::isnan(x)) return 0;
  if (x < 0) return java_long(std::floor(x + 0.5));
  if (x >= 9223372036854775807.0) return std::numeric_limits<std::int64_t>::max();
  return std::llround(x);
}

}  // namespace

BloomShape bloom_shape(std::int64_t expected_insertions, double false_probability) {
  if (expected_insertions <= 0) {
    throw_invalid_argument("Bloom filter expected insertions must be positive");
  }
  if (false_probability > 1) {
    throw_invalid_argument("Bloom filter false probability can't be greater than 1");
  }
  if (false_probability < 0) {
    throw_invalid_argument("Bloom filter false probability can't be negative");
  }
  const double p =
      false_probability == 0 ? std::numeric_limits<double>::denorm_min() : false_probability;
  const double ln2 = std::log(2.0);
  const double n = static_cast<double>(expected_insertions);
  BloomShape shape;
  shape.size = java_long(-n * std::log(p) / (ln2 * ln2));
  if (shape.size == 0) throw_invalid_argument("Bloom filter calculated size is 0");
  if (shape.size > kBloomMaxSize) {
    throw_invalid_argument("Bloom filter size can't be greater than " +
                           std::to_string(kBloomMaxSize) + ". But calculated size is " +
                           std::to_string(shape.size));
  }
  // (int) of Math.round's long: k stays far below 2^31 (m / n <= 1550 even at p = MIN_VALUE).
  const auto k = static_cast<std::int32_t>(java_round(static_cast<double>(shape.size) / n * ln2));
  shape.hash_iterations = k < 1 ? 1 : k;
  return shape;
}

void append_bloom_indexes(const HighwayHash128& hash, std::int64_t hash_iterations,
                          std::int64_t size, std::vector<std::int64_t>& out) {
  // Java's long arithmetic wraps: unsigned arithmetic gives the same bits without UB.
  std::uint64_t h = hash.h0;
  const auto m = static_cast<std::uint64_t>(size);
  for (std::int64_t i = 0; i < hash_iterations; ++i) {
    out.push_back(static_cast<std::int64_t>((h & 0x7fffffffffffffffULL) % m));
    h += (i % 2 == 0) ? hash.h1 : hash.h0;
  }
}

std::int64_t bloom_count_estimate(std::int64_t size, std::int64_t hash_iterations,
                                  std::int64_t bits_set) {
  const double m = static_cast<double>(size);
  return java_round(-m / static_cast<double>(hash_iterations) *
                    std::log(1 - static_cast<double>(bits_set) / m));
}

}  // namespace redisson::detail
