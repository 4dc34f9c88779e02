#include "client/replica_ack.hpp"

#include <gtest/gtest.h>

namespace unit_client_replica_ack_test {

namespace {

using redisson::detail::ReplicaAck;

TEST(ReplicaAck, ReadsTheReplicaCountFromInfoReplication) {
  const std::string master =
      "# Replication\r\nrole:master\r\nconnected_slaves:2\r\n"
      "slave0:ip=127.0.0.1,port=7001,state=online,offset=42,lag=0\r\n";
  EXPECT_EQ(ReplicaAck::connected_replicas(master), 2);
  EXPECT_EQ(
      ReplicaAck::connected_replicas("# Replication\r\nrole:master\r\nconnected_slaves:0\r\n"), 0);
  // RESP3 verbatim text keeps its "txt:" prefix when the field comes first.
  EXPECT_EQ(ReplicaAck::connected_replicas("txt:connected_slaves:1\r\n"), 1);
}

TEST(ReplicaAck, HasNoCountWhenTheFieldIsMissingOrGarbled) {
  EXPECT_FALSE(ReplicaAck::connected_replicas("").has_value());
  EXPECT_FALSE(ReplicaAck::connected_replicas("# Server\r\nredis_version:7.0.15\r\n").has_value());
  EXPECT_FALSE(ReplicaAck::connected_replicas("connected_slaves:x\r\n").has_value());
  // Only a whole field counts, not a longer name that ends the same way.
  EXPECT_FALSE(ReplicaAck::connected_replicas("not_connected_slaves:3\r\n").has_value());
}

}  // namespace

}  // namespace unit_client_replica_ack_test
