#include "codec/java_hash_order.hpp"

#include <algorithm>
#include <bit>

#include "codec/java_classes.hpp"
#include "codec/utf.hpp"

namespace redisson::detail {
namespace {

constexpr std::size_t kInitialCapacity = 16;
constexpr std::size_t kTreeifyCapacity = 64;  // MIN_TREEIFY_CAPACITY
constexpr std::uint32_t kTreeifyBin = 8;      // a bucket holding 8 keys gets a 9th: treeifyBin

std::uint32_t spread(std::int32_t h) noexcept {
  const auto u = static_cast<std::uint32_t>(h);
  return u ^ (u >> 16);
}

std::int32_t long_hash(std::uint64_t bits) noexcept {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits ^ (bits >> 32)));
}

std::int32_t double_hash(double x) noexcept {
  // Double.hashCode() uses doubleToLongBits: every NaN has the canonical bits.
  if (x != x) return long_hash(0x7ff8000000000000ULL);
  return long_hash(std::bit_cast<std::uint64_t>(x));
}

std::int32_t float_hash(float x) noexcept {
  if (x != x) return 0x7fc00000;
  return std::bit_cast<std::int32_t>(x);
}

// The number of buckets of the table after inserting every key.
std::size_t table_capacity(std::span<const std::int32_t> hashes) {
  // 8 keys cannot fill a bucket to 9, and stay below the threshold of 12.
  if (hashes.size() <= kTreeifyBin) return kInitialCapacity;
  std::size_t capacity = kInitialCapacity;
  std::size_t threshold = capacity * 3 / 4;
  std::vector<std::uint32_t> counts(capacity);
  const auto grow = [&](std::size_t inserted) {
    capacity *= 2;
    threshold *= 2;
    counts.assign(capacity, 0);
    for (std::size_t j = 0; j < inserted; ++j) ++counts[spread(hashes[j]) & (capacity - 1)];
  };
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    auto& bucket = counts[spread(hashes[i]) & (capacity - 1)];
    // HashMap.putVal: a 9th key in a bucket calls treeifyBin, which resizes a small table.
    const bool full_bucket = bucket >= kTreeifyBin && capacity < kTreeifyCapacity;
    ++bucket;
    if (full_bucket) grow(i + 1);
    if (i + 1 > threshold) grow(i + 1);
  }
  return capacity;
}

}  // namespace

std::optional<std::int32_t> java_hash_code(const Value& value, int depth_left) noexcept {
  if (depth_left <= 0) return std::nullopt;
  switch (value.kind()) {
    case ValueKind::null:
      return 0;
    case ValueKind::boolean:
      return value.bool_value() ? 1231 : 1237;
    case ValueKind::byte:
    case ValueKind::short_int:
    case ValueKind::character:
    case ValueKind::integer:
      return static_cast<std::int32_t>(value.int_value());
    case ValueKind::long_int:
      return long_hash(static_cast<std::uint64_t>(value.int_value()));
    case ValueKind::float_num:
      return float_hash(static_cast<float>(value.double_value()));
    case ValueKind::double_num:
      return double_hash(value.double_value());
    case ValueKind::string:
      return utf::java_string_hash(value.text());
    case ValueKind::bytes:
    case ValueKind::object:
      return std::nullopt;
    case ValueKind::list:
    case ValueKind::set:
    case ValueKind::map:
      break;
  }
  const auto* java_class = find_java_collection(value.java_class());
  if (java_class == nullptr || !java_class->content_hash) return std::nullopt;
  std::uint32_t h = value.kind() == ValueKind::list ? 1 : 0;
  if (value.kind() == ValueKind::map) {
    // AbstractMap.hashCode: the sum of the entries' key.hashCode() ^ value.hashCode().
    for (const auto& [key, entry] : value.entries()) {
      const auto kh = java_hash_code(key, depth_left - 1);
      const auto vh = java_hash_code(entry, depth_left - 1);
      if (!kh || !vh) return std::nullopt;
      h += static_cast<std::uint32_t>(*kh ^ *vh);
    }
    return static_cast<std::int32_t>(h);
  }
  for (const auto& element : value.elements()) {
    const auto eh = java_hash_code(element, depth_left - 1);
    if (!eh) return std::nullopt;
    // List: 31 * h + e.hashCode(); Set: the sum of the elements' hashCode().
    h = value.kind() == ValueKind::list ? 31 * h + static_cast<std::uint32_t>(*eh)
                                        : h + static_cast<std::uint32_t>(*eh);
  }
  return static_cast<std::int32_t>(h);
}

void java_hash_map_order(std::span<const std::int32_t> hashes, std::span<std::uint32_t> order) {
  const std::size_t mask = table_capacity(hashes) - 1;
  const auto bucket = [&](std::uint32_t i) { return spread(hashes[i]) & mask; };
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  // Stable: keys of one bucket keep their insertion order.
  if (order.size() <= 32) {
    for (std::size_t i = 1; i < order.size(); ++i) {
      const std::uint32_t moving = order[i];
      std::size_t j = i;
      for (; j > 0 && bucket(order[j - 1]) > bucket(moving); --j) order[j] = order[j - 1];
      order[j] = moving;
    }
    return;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return bucket(a) < bucket(b); });
}

JavaIterationOrder::JavaIterationOrder(const Value& container) {
  const bool is_map = container.kind() == ValueKind::map;
  const std::string_view hashed_class = is_map ? "java.util.HashMap" : "java.util.HashSet";
  const std::size_t n = is_map ? container.entries().size() : container.elements().size();
  if (n < 2 || container.java_class() != hashed_class) return;

  std::array<std::int32_t, kInline> inline_hashes{};
  std::vector<std::int32_t> heap_hashes;
  std::int32_t* hash_data = inline_hashes.data();
  if (n > kInline) {
    heap_hashes.resize(n);
    hash_data = heap_hashes.data();
  }
  const std::span<std::int32_t> hashes(hash_data, n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto h = java_hash_code(is_map ? container.entries()[i].first : container.elements()[i]);
    if (!h) return;
    hashes[i] = *h;
  }
  std::uint32_t* order = inline_.data();
  if (n > kInline) {
    heap_.resize(n);
    order = heap_.data();
  }
  java_hash_map_order(hashes, std::span<std::uint32_t>(order, n));
  data_ = order;
}

}  // namespace redisson::detail
