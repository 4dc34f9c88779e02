// A master/slave deployment (a fixed master with a replica): every lock operation writes, so
// the client sends everything to the master, whatever read_mode says.
#include <gtest/gtest.h>

#include <string>

#include "redisson/redisson.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace topology_master_slave_client_test {

namespace {

using redisson::Client;
using redisson::Command;
using redisson::Config;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;

TEST(MasterSlaveClient, LocksAndCommandsGoToTheMasterWhateverTheReadMode) {
  RedisServer master;
  RedisServerOptions replica_options;
  replica_options.extra_args = {"--replicaof", "127.0.0.1", std::to_string(master.port())};
  RedisServer replica(replica_options);
  ASSERT_TRUE(eventually([&] {
    return replica.command({"INFO", "replication"}).find("master_link_status:up") !=
           std::string::npos;
  }));

  for (const auto mode : {redisson::ReadMode::slave, redisson::ReadMode::master_slave}) {
    Config config;
    redisson::MasterSlaveConfig master_slave;
    master_slave.master = redisson::ServerAddress::from_url(master.url());
    master_slave.slave_addresses.push_back(redisson::ServerAddress::from_url(replica.url()));
    master_slave.read_mode = mode;
    config.master_slave = master_slave;
    Client client(config);

    auto lock = redisson::Lock(client, "master-slave:lock");
    lock.lock();
    EXPECT_EQ(master.command({"EXISTS", "master-slave:lock"}), "1");
    EXPECT_TRUE(lock.is_held_by_current_thread());
    lock.unlock();
    client.execute(Command{"SET", "master-slave:key", "v"});
    EXPECT_EQ(client.execute(Command{"GET", "master-slave:key"}).str, "v");
    EXPECT_EQ(master.command({"GET", "master-slave:key"}), "v");
  }
}

TEST(MasterSlaveClient, AnUnreachableMasterFailsToStartNamingIt) {
  Config config;
  redisson::MasterSlaveConfig master_slave;
  master_slave.master = redisson::ServerAddress::from_url(
      "redis://127.0.0.1:" + std::to_string(redisson::test::free_port()));
  config.master_slave = master_slave;
  config.connect_timeout = std::chrono::milliseconds(2000);
  try {
    Client client(config);
    FAIL() << "started without a master";
  } catch (const redisson::error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(master_slave.master.port)),
              std::string::npos)
        << e.what();
  }
}

}  // namespace

}  // namespace topology_master_slave_client_test
