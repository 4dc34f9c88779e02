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

TEST(ReplicaAck, OnlyARefusalThatLastsIsRememberedNotOneAFailoverCauses) {
  // For good: the command is unknown, renamed or forbidden.
  EXPECT_TRUE(
      ReplicaAck::refuses_for_good("ERR unknown command 'WAIT', with args beginning with: "));
  EXPECT_TRUE(ReplicaAck::refuses_for_good(
      "NOPERM this user has no permissions to run the 'wait' command"));
  // Passing: a master demoted by a failover, a node loading or busy, a cluster in between.
  EXPECT_FALSE(ReplicaAck::refuses_for_good(
      "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if "
      "a replica is configured to be writable (which is not the default) writes to replicas are "
      "just local and are not propagated."));
  EXPECT_FALSE(
      ReplicaAck::refuses_for_good("READONLY You can't write against a read only replica."));
  EXPECT_FALSE(ReplicaAck::refuses_for_good("LOADING Redis is loading the dataset in memory"));
  EXPECT_FALSE(ReplicaAck::refuses_for_good("CLUSTERDOWN The cluster is down"));
}

}  // namespace

}  // namespace unit_client_replica_ack_test
