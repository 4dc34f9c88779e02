// Which master serves each of the 16384 slots, parsed from CLUSTER SHARDS or CLUSTER SLOTS.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redisson/reply.hpp"
#include "topology/key_slot.hpp"

namespace redisson::detail {

struct ClusterNodeAddress {
  std::string host;
  int port = 0;
  bool operator==(const ClusterNodeAddress&) const = default;
};

struct SlotMap {
  /// The masters serving at least one slot.
  std::vector<ClusterNodeAddress> masters;
  /// Replicas of each master (same index as masters).
  std::vector<std::vector<ClusterNodeAddress>> replicas;
  /// Index into masters per slot, -1 where no master serves the slot.
  std::array<std::int16_t, kClusterSlots> owner{};

  SlotMap() { owner.fill(-1); }
  /// Slots served by some master.
  int covered_slots() const;
};

/// Parses a CLUSTER SHARDS reply (RESP2 arrays or RESP3 maps); nullopt if it is not one.
std::optional<SlotMap> parse_cluster_shards(const Reply& reply);
/// Parses a CLUSTER SLOTS reply; nullopt if it is not one.
std::optional<SlotMap> parse_cluster_slots(const Reply& reply);

}  // namespace redisson::detail
