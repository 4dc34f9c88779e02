// Redis 6+ ACL users against a real redis-server: a user with full rights works, a wrong password
// fails at connect, a user without the rights a lock needs gets the server's NOPERM text and
// Redis is left unchanged, and no password ever shows in an error or a printed URL.
#include <gtest/gtest.h>

#include <string>

#include "redisson/redisson.hpp"
#include "support/client_config.hpp"
#include "support/redis_server.hpp"

namespace client_acl_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::Config;
using redisson::errc;
using redisson::ServerAddress;
using redisson::test::client_config;
using redisson::test::RedisServer;

namespace {

constexpr const char* kPassword = "s3cret-Acl-pass";

// A user `name` with password kPassword and the given ACL rules (e.g. "~*", "+@all").
void add_user(const RedisServer& server, const std::string& name, std::vector<std::string> rules) {
  std::vector<std::string> args = {"ACL",   "SETUSER", name,
                                   "reset", "on",      std::string(">") + kPassword};
  args.insert(args.end(), rules.begin(), rules.end());
  ASSERT_EQ(server.command(args), "OK");
}

Config config_for(const RedisServer& server, const std::string& user, const std::string& password) {
  return client_config(
      "redis://" + user + ":" + password + "@127.0.0.1:" + std::to_string(server.port()),
      {.connect_timeout = 2000ms});
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Acl, UserWithFullRightsTakesAndReleasesALock) {
  RedisServer server;
  add_user(server, "app", {"~*", "&*", "+@all"});
  Client client(config_for(server, "app", kPassword));
  EXPECT_EQ(client.execute({"ACL", "WHOAMI"}).str, "app");
  auto lock = redisson::Lock(client, "acl-lock");
  lock.lock();
  EXPECT_EQ(server.command({"TYPE", "acl-lock"}), "hash");
  lock.unlock();
  EXPECT_EQ(server.command({"EXISTS", "acl-lock"}), "0");
}

TEST(Acl, WrongPasswordFailsAtConnectWithoutShowingIt) {
  RedisServer server;
  add_user(server, "app", {"~*", "&*", "+@all"});
  try {
    Client client(config_for(server, "app", "not-the-Password-42"));
    FAIL() << "connected with a wrong password";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::auth_failed) << e.what();
    EXPECT_TRUE(contains(e.what(), "WRONGPASS")) << e.what();
    EXPECT_TRUE(contains(e.what(), "app:***@127.0.0.1")) << e.what();
    EXPECT_FALSE(contains(e.what(), "not-the-Password-42")) << e.what();
  }
}

TEST(Acl, DisabledUserFailsAtConnect) {
  RedisServer server;
  add_user(server, "gone", {"~*", "+@all"});
  ASSERT_EQ(server.command({"ACL", "SETUSER", "gone", "off"}), "OK");
  try {
    Client client(config_for(server, "gone", kPassword));
    FAIL() << "connected as a disabled user";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::auth_failed) << e.what();
    EXPECT_FALSE(contains(e.what(), kPassword)) << e.what();
  }
}

TEST(Acl, UserWithoutEvalshaGetsNopermAndNothingChanges) {
  RedisServer server;
  add_user(server, "noscript", {"~*", "&*", "+@all", "-evalsha", "-eval", "-script"});
  Client client(config_for(server, "noscript", kPassword));
  auto lock = redisson::Lock(client, "guarded");
  try {
    lock.lock();
    FAIL() << "took a lock without the right to run scripts";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::no_permission) << e.what();
    EXPECT_TRUE(contains(e.what(), "NOPERM")) << e.what();
    EXPECT_FALSE(contains(e.what(), kPassword)) << e.what();
  }
  EXPECT_THROW(lock.try_lock(), redisson::error);
  try {
    client.execute({"EVALSHA", "0123456789012345678901234567890123456789", "0"});
    FAIL() << "ran EVALSHA without the right to";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::no_permission) << e.what();
    EXPECT_TRUE(contains(e.what(), "NOPERM")) << e.what();
    EXPECT_TRUE(contains(e.what(), "evalsha")) << e.what() << " (the server's own words)";
  }
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
  // The connection stays usable for what the user may do.
  EXPECT_EQ(client.execute({"SET", "allowed", "1"}).str, "OK");
}

TEST(Acl, UserWithoutTheKeyPatternGetsNopermAndNothingChanges) {
  RedisServer server;
  // The unlock script also names the lock's channel and its unlock latch as keys
  // (redisson_lock__channel:{NAME}, redisson_unlock_latch:{NAME}:<id>), as Redisson does.
  add_user(server, "tenant", {"~tenant:*", "~*{tenant:*", "&*", "+@all"});
  Client client(config_for(server, "tenant", kPassword));
  auto own = redisson::Lock(client, "tenant:lock");
  own.lock();
  own.unlock();

  ASSERT_EQ(server.command({"HSET", "other:lock", "someone:1", "1"}), "1");
  auto other = redisson::Lock(client, "other:lock");
  try {
    other.lock();
    FAIL() << "took a lock outside the user's key pattern";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::no_permission) << e.what();
    EXPECT_TRUE(contains(e.what(), "NOPERM")) << e.what();
  }
  EXPECT_EQ(server.command({"HGETALL", "other:lock"}), "someone:1\n1");
  EXPECT_EQ(server.command({"KEYS", "*other*"}), "other:lock");
}

TEST(Acl, SafeUrlNeverShowsThePassword) {
  const auto address = ServerAddress::from_url("rediss://app:p%40ss-Word@cache.local:6380/3");
  EXPECT_EQ(address.password, "p@ss-Word");
  const auto safe = address.to_safe_url();
  EXPECT_EQ(safe, "rediss://app:***@cache.local:6380/3");
  EXPECT_FALSE(contains(safe, "ss-Word"));
}

}  // namespace client_acl_test
