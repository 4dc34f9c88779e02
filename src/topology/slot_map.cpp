#include "topology/slot_map.hpp"

#include <algorithm>
#include <string_view>

namespace redisson::detail {
namespace {

// RESP2 renders a map as a flat array of key, value pairs; RESP3 as a map with the same layout.
const Reply* field(const Reply& map, std::string_view name) {
  if (!map.is_aggregate()) return nullptr;
  for (std::size_t i = 0; i + 1 < map.elements.size(); i += 2) {
    if (map.elements[i].str == name) return &map.elements[i + 1];
  }
  return nullptr;
}

std::int64_t as_integer(const Reply& reply) {
  if (reply.is_integer()) return reply.integer;
  try {
    return std::stoll(reply.str);
  } catch (...) {
    return -1;
  }
}

int index_of(SlotMap& map, const ClusterNodeAddress& address) {
  for (std::size_t i = 0; i < map.masters.size(); ++i) {
    if (map.masters[i] == address) return static_cast<int>(i);
  }
  map.masters.push_back(address);
  map.replicas.emplace_back();
  return static_cast<int>(map.masters.size() - 1);
}

bool assign(SlotMap& map, std::int64_t first, std::int64_t last, int master) {
  if (first < 0 || last >= kClusterSlots || first > last) return false;
  for (auto slot = first; slot <= last; ++slot) {
    map.owner[static_cast<std::size_t>(slot)] = static_cast<std::int16_t>(master);
  }
  return true;
}

// Prefer the IP: "endpoint" may be a hostname or "?" depending on cluster-preferred-endpoint-type.
std::optional<ClusterNodeAddress> shard_node_address(const Reply& node) {
  const Reply* port = field(node, "port");
  const Reply* ip = field(node, "ip");
  const Reply* endpoint = field(node, "endpoint");
  if (!port) return std::nullopt;
  std::string host;
  if (ip && !ip->str.empty()) {
    host = ip->str;
  } else if (endpoint && !endpoint->str.empty() && endpoint->str != "?") {
    host = endpoint->str;
  } else {
    return std::nullopt;
  }
  return ClusterNodeAddress{host, static_cast<int>(as_integer(*port))};
}

}  // namespace

int SlotMap::covered_slots() const {
  int covered = 0;
  for (const auto index : owner) covered += index >= 0 ? 1 : 0;
  return covered;
}

std::optional<SlotMap> parse_cluster_shards(const Reply& reply) {
  if (!reply.is_aggregate()) return std::nullopt;
  SlotMap map;
  for (const auto& shard : reply.elements) {
    const Reply* slots = field(shard, "slots");
    const Reply* nodes = field(shard, "nodes");
    if (!slots || !nodes) return std::nullopt;
    if (slots->elements.empty()) continue;  // a shard without slots serves nothing
    std::optional<ClusterNodeAddress> master;
    std::vector<ClusterNodeAddress> replicas;
    for (const auto& node : nodes->elements) {
      const auto address = shard_node_address(node);
      const Reply* role = field(node, "role");
      const Reply* health = field(node, "health");
      if (!address || !role) continue;
      if (role->str == "master") {
        master = address;
      } else if (!health || health->str == "online") {
        replicas.push_back(*address);
      }
    }
    if (!master) continue;
    const int index = index_of(map, *master);
    map.replicas[static_cast<std::size_t>(index)] = std::move(replicas);
    for (std::size_t i = 0; i + 1 < slots->elements.size(); i += 2) {
      if (!assign(map, as_integer(slots->elements[i]), as_integer(slots->elements[i + 1]), index)) {
        return std::nullopt;
      }
    }
  }
  return map;
}

std::optional<SlotMap> parse_cluster_slots(const Reply& reply) {
  if (!reply.is_aggregate()) return std::nullopt;
  SlotMap map;
  // Each entry: [first, last, [ip, port, id, ...], [replica ip, port, id, ...], ...]
  for (const auto& range : reply.elements) {
    if (range.elements.size() < 3) return std::nullopt;
    auto address_of = [](const Reply& node) -> std::optional<ClusterNodeAddress> {
      if (node.elements.size() < 2 || node.elements[0].str.empty()) return std::nullopt;
      return ClusterNodeAddress{node.elements[0].str,
                                static_cast<int>(as_integer(node.elements[1]))};
    };
    const auto master = address_of(range.elements[2]);
    if (!master) return std::nullopt;
    const int index = index_of(map, *master);
    auto& replicas = map.replicas[static_cast<std::size_t>(index)];
    for (std::size_t i = 3; i < range.elements.size(); ++i) {
      const auto replica = address_of(range.elements[i]);
      if (replica && std::find(replicas.begin(), replicas.end(), *replica) == replicas.end()) {
        replicas.push_back(*replica);
      }
    }
    if (!assign(map, as_integer(range.elements[0]), as_integer(range.elements[1]), index)) {
      return std::nullopt;
    }
  }
  return map;
}

}  // namespace redisson::detail
