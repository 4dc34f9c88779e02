// The order Java's HashMap and HashSet iterate their keys in, which is the order Kryo and Jackson
// write them in: a C++ writer reproduces it so that its bytes equal Java's (Redis compares bytes:
// SREM, HGET of a map field, compare-and-set).
//
// java.util.HashMap (Java 8 to 21): a table of 16 buckets that doubles when the size exceeds
// 3/4 of it; a key goes to bucket (h ^ (h >>> 16)) & (buckets - 1) where h is its hashCode();
// iteration walks the buckets in order, each in insertion order (a resize keeps that order).
// A bucket reaching 9 keys makes a table of fewer than 64 buckets double; in a larger table it
// becomes a tree, whose order is not reproduced here (insertion order is kept): that takes 9
// keys whose spread hashes collide in their low bits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "redisson/value.hpp"

namespace redisson::detail {

/// Java's hashCode() of the value `value` stands for: String's over its UTF-16 units, the boxed
/// primitives' own, List/Set/Map.Entry by their contracts. nullopt where Java's is identity-based
/// or unknown (byte[], objects, queues), for strings that are not UTF-8 and past `depth_left`.
std::optional<std::int32_t> java_hash_code(const Value& value, int depth_left = 512) noexcept;

/// Fills `order` (as long as `hashes`) with the indices of keys whose hashCode() values are
/// `hashes`, inserted in index order into a default-constructed java.util.HashMap, in the order
/// that HashMap iterates them. The keys are taken to be distinct.
void java_hash_map_order(std::span<const std::int32_t> hashes, std::span<std::uint32_t> order);

/// The order to write a set's elements or a map's entries in: a java.util.HashSet's or
/// java.util.HashMap's iteration order; as given for every other class, and when a key has no
/// reproducible hashCode() (byte[], an object: Java uses its identity). Up to 16 indices inline.
class JavaIterationOrder {
 public:
  explicit JavaIterationOrder(const Value& container);
  JavaIterationOrder(const JavaIterationOrder&) = delete;
  JavaIterationOrder& operator=(const JavaIterationOrder&) = delete;

  /// The index of the element or entry to write `i`-th.
  std::size_t operator[](std::size_t i) const noexcept { return data_ ? data_[i] : i; }
  /// False when the container's own order is kept.
  bool reordered() const noexcept { return data_ != nullptr; }

 private:
  static constexpr std::size_t kInline = 16;
  std::array<std::uint32_t, kInline> inline_{};
  std::vector<std::uint32_t> heap_;
  const std::uint32_t* data_ = nullptr;
};

}  // namespace redisson::detail
