#include "topology/slot_map.hpp"

#include <gtest/gtest.h>

namespace redisson::detail {
namespace unit_topology_slot_map_test {

Reply bulk(std::string text) {
  Reply reply;
  reply.type = ReplyType::bulk_string;
  reply.str = std::move(text);
  return reply;
}

Reply integer(std::int64_t value) {
  Reply reply;
  reply.type = ReplyType::integer;
  reply.integer = value;
  return reply;
}

Reply array(std::vector<Reply> elements, ReplyType type = ReplyType::array) {
  Reply reply;
  reply.type = type;
  reply.elements = std::move(elements);
  return reply;
}

Reply shard_node(int port, const std::string& role, ReplyType map_type) {
  return array({bulk("id"), bulk("abc"), bulk("port"), integer(port), bulk("ip"), bulk("127.0.0.1"),
                bulk("endpoint"), bulk("127.0.0.1"), bulk("role"), bulk(role),
                bulk("replication-offset"), integer(1), bulk("health"), bulk("online")},
               map_type);
}

Reply shard(std::vector<std::int64_t> ranges, std::vector<Reply> nodes, ReplyType map_type) {
  std::vector<Reply> slots;
  for (auto value : ranges) slots.push_back(integer(value));
  return array({bulk("slots"), array(std::move(slots)), bulk("nodes"), array(std::move(nodes))},
               map_type);
}

class SlotMapShards : public ::testing::TestWithParam<ReplyType> {};

TEST_P(SlotMapShards, ParsesOwnersAndReplicas) {
  const auto type = GetParam();
  const Reply reply = array({
      shard({0, 5460}, {shard_node(7000, "master", type), shard_node(7003, "replica", type)}, type),
      shard({5461, 10922, 16000, 16383}, {shard_node(7001, "master", type)}, type),
      shard({10923, 15999}, {shard_node(7005, "replica", type), shard_node(7002, "master", type)},
            type),
  });
  const auto map = parse_cluster_shards(reply);
  ASSERT_TRUE(map);
  EXPECT_EQ(map->covered_slots(), kClusterSlots);
  ASSERT_EQ(map->masters.size(), 3u);
  EXPECT_EQ(map->masters[static_cast<std::size_t>(map->owner[0])].port, 7000);
  EXPECT_EQ(map->masters[static_cast<std::size_t>(map->owner[12182])].port, 7002);
  EXPECT_EQ(map->masters[static_cast<std::size_t>(map->owner[16383])].port, 7001);
  EXPECT_EQ(map->replicas[static_cast<std::size_t>(map->owner[0])].at(0).port, 7003);
}

INSTANTIATE_TEST_SUITE_P(Resp2AndResp3, SlotMapShards,
                         ::testing::Values(ReplyType::array, ReplyType::map));

TEST(SlotMap, ParsesClusterSlots) {
  const Reply reply = array({
      array({integer(0), integer(8191), array({bulk("127.0.0.1"), integer(7000), bulk("a")}),
             array({bulk("127.0.0.1"), integer(7003), bulk("d")})}),
      array({integer(8192), integer(16383), array({bulk("127.0.0.1"), integer(7001), bulk("b")})}),
  });
  const auto map = parse_cluster_slots(reply);
  ASSERT_TRUE(map);
  EXPECT_EQ(map->covered_slots(), kClusterSlots);
  EXPECT_EQ(map->masters[static_cast<std::size_t>(map->owner[8192])].port, 7001);
  EXPECT_EQ(map->replicas[0].size(), 1u);
}

TEST(SlotMap, RejectsWhatIsNotAMap) {
  EXPECT_FALSE(parse_cluster_shards(bulk("OK")));
  EXPECT_FALSE(parse_cluster_slots(array({array({integer(0)})})));
  EXPECT_FALSE(parse_cluster_slots(
      array({array({integer(5), integer(99999), array({bulk("h"), integer(1)})})})));
}

}  // namespace unit_topology_slot_map_test
}  // namespace redisson::detail
