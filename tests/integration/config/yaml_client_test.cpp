// A Client built from a redisson.yml (Config::from_yaml) against real throwaway servers: the
// single-server keys reach the connection (login, database, client name), and the TLS keys
// (sslTruststore, sslKeystore) reach a server that requires client certificates.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "redisson/redisson.hpp"
#include "support/redis_server.hpp"
#include "support/tls_files.hpp"

namespace config_yaml_client_test {

using redisson::Client;
using redisson::Config;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;
using redisson::test::TlsFiles;

TEST(YamlClient, SingleServerFileTakesALock) {
  RedisServer server(RedisServerOptions{{"--requirepass", "yaml-Pw"}});
  const std::string path = server.dir() + "/redisson.yml";
  std::ofstream(path) << "singleServerConfig:\n"
                         "  address: \"redis://127.0.0.1:"
                      << server.port()
                      << "\"\n"
                         "  password: yaml-Pw\n"
                         "  database: 3\n"
                         "  clientName: from-yaml\n"
                         "  connectionPoolSize: 64\n"
                         "lockWatchdogTimeout: 12000\n"
                         "codec: !<org.redisson.codec.JsonJacksonCodec> {}\n";
  std::vector<std::string> ignored;
  Client client(Config::from_yaml(path, &ignored));
  EXPECT_EQ(ignored.size(), 1u) << "connectionPoolSize";
  EXPECT_EQ(client.config().codec->name(), "json");
  EXPECT_EQ(client.execute({"CLIENT", "GETNAME"}).str, "from-yaml");

  auto lock = redisson::Lock(client, "yaml-lock");
  lock.lock();
  EXPECT_EQ(client.execute({"TYPE", "yaml-lock"}).str, "hash");
  const auto pttl = client.execute({"PTTL", "yaml-lock"}).integer;
  EXPECT_GT(pttl, 0);
  EXPECT_LE(pttl, 12000) << "lockWatchdogTimeout reached the lock's lease";
  EXPECT_EQ(server.command({"EXISTS", "yaml-lock"}), "0") << "the lock belongs in database 3";
  lock.unlock();
  EXPECT_EQ(client.execute({"EXISTS", "yaml-lock"}).integer, 0);
}

TEST(YamlClient, TlsKeysReachAServerThatRequiresClientCertificates) {
  TlsFiles files;
  RedisServer server(files.server_options("yes"));
  const auto config = Config::from_yaml_string(
      "singleServerConfig:\n"
      "  address: \"" +
      server.tls_url() +
      "\"\n"
      "  sslTruststore: \"file:" +
      files.ca() +
      "\"\n"
      "  sslKeystore: \"file:" +
      files.client_bundle() + "\"\n");
  Client client(config);
  auto lock = redisson::Lock(client, "yaml-tls-lock");
  lock.lock();
  EXPECT_EQ(server.command({"TYPE", "yaml-tls-lock"}), "hash");
  lock.unlock();
}

}  // namespace config_yaml_client_test
