// The arithmetic of Java Redisson's RBloomFilter, exactly: the filter's shape (bits m, hash
// iterations k) from the expected insertions and false probability, a value's bit indexes from
// its HighwayHash, and the count estimate. Java and C++ must agree on every bit, so each formula
// follows Java's order of operations and its conversions ((long) truncation, Math.round).
#pragma once

#include <cstdint>
#include <vector>

#include "hash/highway_hash.hpp"

namespace redisson::detail {

struct BloomShape {
  std::int64_t size = 0;             ///< m, the number of bits
  std::int64_t hash_iterations = 0;  ///< k, the bit indexes per value
};

/// The largest m Redisson accepts: 2 (2^31 - 1).
inline constexpr std::int64_t kBloomMaxSize = 2 * std::int64_t{2147483647};

/// m = (long)(-n ln p / (ln 2)^2) (p = 0 counts as Double.MIN_VALUE) and
/// k = max(1, (int)Math.round((double)m / n ln 2). Throws invalid_argument, as Redisson does,
/// for p outside [0, 1] and for an m of 0 or above kBloomMaxSize; and for n <= 0 (Redisson
/// would store a negative size).
BloomShape bloom_shape(std::int64_t expected_insertions, double false_probability);

/// Appends the k bit indexes of a value whose HighwayHash-128 is `hash` to `out`: h = h0, then
/// for each i: (h & Long.MAX_VALUE) mod m, h += (i even ? h1 : h0) (wrapping).
void append_bloom_indexes(const HighwayHash128& hash, std::int64_t hash_iterations,
                          std::int64_t size, std::vector<std::int64_t>& out);

/// Math.round(-m / (double)k * Math.log(1 - bits / (double)m)): the values a filter holds,
/// estimated from the bits set (Long.MAX_VALUE when every bit is set).
std::int64_t bloom_count_estimate(std::int64_t size, std::int64_t hash_iterations,
                                  std::int64_t bits_set);

}  // namespace redisson::detail
