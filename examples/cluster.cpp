// A lock on a Redis Cluster, a Sentinel-managed master/replica set or a fixed master/slave set.
// Usage: example_cluster cluster redis://127.0.0.1:7000 [more seed URLs...]
//        example_cluster sentinel MASTER_NAME redis://127.0.0.1:26379 [more sentinel URLs...]
//        example_cluster master-slave MASTER_URL [replica URLs...]
#include <iostream>
#include <mutex>
#include <redisson/redisson.hpp>
#include <string>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: example_cluster cluster SEED_URL... | sentinel MASTER SENTINEL_URL... |"
                 " master-slave MASTER_URL [REPLICA_URL...]\n";
    return 2;
  }
  const std::string mode = argv[1];
  redisson::Config config;
  if (mode == "cluster") {
    redisson::ClusterConfig cluster;
    for (int i = 2; i < argc; ++i) {
      // Any reachable node is enough: the client learns the slot map from it.
      cluster.node_addresses.push_back(redisson::ServerAddress::from_url(argv[i]));
    }
    config.cluster = cluster;
  } else if (mode == "master-slave") {
    redisson::MasterSlaveConfig master_slave;
    master_slave.master = redisson::ServerAddress::from_url(argv[2]);
    for (int i = 3; i < argc; ++i) {
      master_slave.slave_addresses.push_back(redisson::ServerAddress::from_url(argv[i]));
    }
    config.master_slave = master_slave;  // every lock operation goes to the master
  } else {
    redisson::SentinelConfig sentinel;
    sentinel.master_name = argv[2];
    for (int i = 3; i < argc; ++i) {
      sentinel.sentinel_addresses.push_back(redisson::ServerAddress::from_url(argv[i]));
    }
    config.sentinel = sentinel;
  }
  try {
    redisson::Client client(config);
    auto lock = redisson::Lock(client, "orders:rebuild");  // its keys and channel share one slot
    std::lock_guard guard(lock);
    std::cout << "holding the lock on the master that serves it\n";
  } catch (const redisson::error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
