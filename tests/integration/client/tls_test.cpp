// rediss:// against a real redis-server listening for TLS, with certificates made at test time:
// locks and pub/sub over TLS, server verification (wrong CA, wrong name), client certificates,
// and error messages that say what failed without ever showing a password.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/eventually.hpp"
#include "support/pub_sub.hpp"
#include "support/redis_server.hpp"
#include "support/tls_files.hpp"

namespace client_tls_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::test::client_config;
using redisson::test::eventually;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;
using redisson::test::subscribers_are;
using redisson::test::TlsFiles;

namespace {

Config tls_config(const RedisServer& server, const TlsFiles& files) {
  auto config =
      client_config(server.tls_url(), {.command_timeout = 3000ms, .connect_timeout = 3000ms});
  config.tls.ca_file = files.ca();
  return config;
}

// The error a Client constructed from `config` throws (the test fails if it connects).
redisson::error connect_error(const Config& config) {
  try {
    Client client(config);
  } catch (const redisson::error& e) {
    return e;
  }
  ADD_FAILURE() << "connected to " << config.server.to_safe_url();
  return redisson::error(errc::invalid_argument, "connected");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Tls, LockUnlockAndPubSubWakeOverTls) {
  TlsFiles files;
  RedisServer server(files.server_options());
  Client holder(tls_config(server, files));
  Client waiter(tls_config(server, files));
  EXPECT_EQ(holder.execute({"PING"}).str, "PONG");

  auto held = redisson::Lock(holder, "tls-lock");
  held.lock();
  EXPECT_EQ(server.command({"TYPE", "tls-lock"}), "hash");

  // The waiter sleeps on the lock's channel (its own TLS connection); the watchdog lease is 30 s,
  // so taking the lock well before that means the release message woke it.
  std::atomic<bool> acquired{false};
  std::thread waiting([&] {
    auto lock = redisson::Lock(waiter, "tls-lock");
    lock.lock();
    acquired = true;
    lock.unlock();
  });
  ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{tls-lock}", 1));
  EXPECT_FALSE(acquired.load());
  held.unlock();
  ASSERT_TRUE(eventually([&] { return acquired.load(); }, 15s));
  waiting.join();
  EXPECT_EQ(server.command({"EXISTS", "tls-lock"}), "0");

  std::promise<std::string> got;
  auto subscription = waiter.subscribe(
      "tls-news", [&](std::string_view message) { got.set_value(std::string(message)); });
  EXPECT_EQ(holder.publish("tls-news", "hello"), 1);
  auto future = got.get_future();
  ASSERT_EQ(future.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(future.get(), "hello");
}

TEST(Tls, LocalhostMatchesTheCertificatesDnsName) {
  TlsFiles files;
  RedisServer server(files.server_options());
  auto config = tls_config(server, files);
  config.server.host = "localhost";
  Client client(config);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

TEST(Tls, UnknownCaFailsNamingTheVerificationFailure) {
  TlsFiles files;
  RedisServer server(files.server_options());
  auto config = tls_config(server, files);
  config.tls.ca_file = files.other_ca();
  const auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  EXPECT_TRUE(contains(e.what(), "certificate verify failed")) << e.what();
  // OpenSSL's reason follows: "self-signed certificate in certificate chain" (the server sent
  // its CA) or "unable to get local issuer certificate".
  EXPECT_TRUE(contains(e.what(), "self-signed certificate") ||
              contains(e.what(), "unable to get local issuer"))
      << e.what();
  EXPECT_TRUE(contains(e.what(), server.tls_url())) << e.what();
}

TEST(Tls, VerifyPeerOffAcceptsAnUnknownCa) {
  TlsFiles files;
  RedisServer server(files.server_options());
  auto config = tls_config(server, files);
  config.tls.ca_file = files.other_ca();
  config.tls.verify_peer = false;
  Client client(config);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

TEST(Tls, HostnameMismatchFails) {
  TlsFiles files;
  RedisServer server(files.server_options());
  auto config = tls_config(server, files);
  config.tls.server_name = "cache.example.com";
  const auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  EXPECT_TRUE(contains(e.what(), "hostname mismatch")) << e.what();

  // The same name is accepted when hostname verification is switched off (chain still checked).
  config.tls.verify_hostname = false;
  Client client(config);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

TEST(Tls, RequiredClientCertificateWorksWhenGivenAndFailsClearlyWhenNot) {
  TlsFiles files;
  RedisServer server(files.server_options("yes"));
  auto config = tls_config(server, files);
  config.connect_timeout = 2000ms;
  const auto e = connect_error(config);
  EXPECT_TRUE(e.code() == errc::connect_failed || e.code() == errc::connection_lost) << e.what();
  EXPECT_TRUE(contains(e.what(), "certificate")) << e.what();

  config.tls.cert_file = files.client_cert();
  config.tls.key_file = files.client_key();
  Client client(config);
  auto lock = redisson::Lock(client, "mtls-lock");
  lock.lock();
  EXPECT_EQ(server.command({"TYPE", "mtls-lock"}), "hash");
  lock.unlock();
}

TEST(Tls, MissingOrHalfGivenFilesAreInvalidArguments) {
  TlsFiles files;
  RedisServer server(files.server_options());
  auto config = tls_config(server, files);
  config.tls.ca_file = files.dir() + "/no-such-ca.pem";
  auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  EXPECT_TRUE(contains(e.what(), "no-such-ca.pem")) << e.what();

  config.tls.ca_file = files.ca();
  config.tls.cert_file = files.client_cert();
  e = connect_error(config);
  EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  EXPECT_TRUE(contains(e.what(), "key_file")) << e.what();
}

TEST(Tls, PasswordsNeverAppearInTlsErrors) {
  TlsFiles files;
  auto options = files.server_options();
  options.extra_args = {"--requirepass", "right-Pw-1"};
  RedisServer server(options);
  auto config = tls_config(server, files);
  config.server.password = "wrong-Pw-2";
  auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::auth_failed) << e.what();
  EXPECT_FALSE(contains(e.what(), "wrong-Pw-2")) << e.what();

  config.tls.ca_file = files.other_ca();
  e = connect_error(config);
  EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  EXPECT_FALSE(contains(e.what(), "wrong-Pw-2")) << e.what();

  config.tls.ca_file = files.ca();
  config.server.password = "right-Pw-1";
  Client client(config);
  EXPECT_EQ(client.execute({"PING"}).str, "PONG");
}

TEST(Tls, RedissToAPlainPortFailsWithATlsError) {
  TlsFiles files;
  RedisServer server;
  auto config = Config::from_url("rediss://127.0.0.1:" + std::to_string(server.port()));
  config.tls.ca_file = files.ca();
  config.connect_timeout = 2000ms;
  const auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::connect_failed) << e.what();
  EXPECT_TRUE(contains(e.what(), "TLS")) << e.what();
}

TEST(Tls, AnUnusableCaFileIsReportedBeforeAnyClusterConnection) {
  auto config = Config::from_url("rediss://127.0.0.1:1");
  config.cluster = redisson::ClusterConfig{};
  config.cluster->node_addresses = {redisson::ServerAddress::from_url("rediss://127.0.0.1:1")};
  config.tls.ca_file = "/nonexistent/ca.pem";
  const auto e = connect_error(config);
  EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  EXPECT_TRUE(contains(e.what(), "/nonexistent/ca.pem")) << e.what();
}

}  // namespace client_tls_test
