// Object::migrate / copy_to and Keys::migrate / copy_to against two real redis-servers: every
// key of an object moves (or is copied) in one MIGRATE, a missing object moves nothing, a key
// already at the target and bad targets fail with nothing moved.
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "redisson/objects/keys.hpp"
#include "redisson/objects/map_cache.hpp"
#include "redisson/objects/set_multimap.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_object_migrate_test {

using namespace std::chrono_literals;
using redisson::errc;
using redisson::MigrateTarget;
using redisson::test::expect_error;
using redisson::test::RedisServer;
using redisson::test::RedisServerOptions;
namespace codecs = redisson::codecs;

namespace {

class ObjectMigrateTest : public redisson::test::ServerTest {
 protected:
  RedisServer target;
  MigrateTarget to_target(std::int64_t database = 0) const {
    return MigrateTarget{.port = target.port(), .database = database};
  }
};

TEST_F(ObjectMigrateTest, MigrateMovesTheKeyAndCopyToLeavesIt) {
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  bucket.set("v");
  EXPECT_TRUE(bucket.copy_to(to_target()));
  EXPECT_EQ(server.command({"GET", "b"}), "v");
  EXPECT_EQ(target.command({"GET", "b"}), "v");

  expect_error(
      errc::server_error, [&] { (void)bucket.migrate(to_target()); }, "b exists at the target");
  EXPECT_EQ(server.command({"GET", "b"}), "v") << "nothing moved";

  EXPECT_TRUE(bucket.migrate(to_target(3)));
  EXPECT_EQ(server.command({"EXISTS", "b"}), "0");
  EXPECT_EQ(target.command({"EVAL", "redis.call('select', 3) return redis.call('get', 'b')", "0"}),
            "v");
  EXPECT_FALSE(bucket.migrate(to_target())) << "nothing left to move: NOKEY";
  EXPECT_FALSE(bucket.async_copy_to(to_target(), asio::use_future).get());
}

TEST_F(ObjectMigrateTest, EveryKeyOfAnObjectMovesTogether) {
  redisson::MapCache<std::string, std::string> cache(client, "c", codecs::string());
  cache.put("k", "v", 1h);
  EXPECT_TRUE(cache.migrate(to_target()));
  for (const char* key : {"c", "redisson__timeout__set:{c}"}) {
    EXPECT_EQ(server.command({"EXISTS", key}), "0") << key;
    EXPECT_EQ(target.command({"EXISTS", key}), "1") << key;
  }
  redisson::SetMultimap<std::string, std::string> multimap(client, "mm", codecs::string());
  multimap.put("k", "v");
  expect_error(
      errc::not_supported, [&] { (void)multimap.migrate(to_target()); },
      "a multimap's values keys are listed in Redis");
  EXPECT_EQ(server.command({"EXISTS", "mm"}), "1");
}

TEST_F(ObjectMigrateTest, BadTargetsAreRefusedBeforeAnythingIsSent) {
  redisson::Bucket<std::string> bucket(client, "b", codecs::string());
  bucket.set("v");
  expect_error(
      errc::invalid_argument, [&] { (void)bucket.migrate(MigrateTarget{.port = 0}); }, "port 0");
  expect_error(
      errc::invalid_argument, [&] { (void)bucket.migrate(MigrateTarget{.host = ""}); }, "no host");
  expect_error(
      errc::invalid_argument,
      [&] { (void)bucket.migrate(MigrateTarget{.port = target.port(), .database = -1}); },
      "negative database");
  expect_error(
      errc::invalid_argument,
      [&] { (void)bucket.copy_to(MigrateTarget{.port = target.port(), .timeout = -1ms}); },
      "negative timeout");
  EXPECT_EQ(server.command({"GET", "b"}), "v");
  EXPECT_EQ(target.command({"EXISTS", "b"}), "0");
}

TEST_F(ObjectMigrateTest, KeysMigrateAndCopyOneKeyAndLogInToTheTarget) {
  RedisServer guarded(RedisServerOptions{.extra_args = {"--requirepass", "secret"}});
  server.command({"SET", "k", "v"});
  redisson::Keys keys(client);
  EXPECT_TRUE(keys.copy_to("k", MigrateTarget{.port = guarded.port(), .password = "secret"}));
  EXPECT_EQ(server.command({"GET", "k"}), "v");
  EXPECT_TRUE(keys.migrate("k", MigrateTarget{.port = target.port()}));
  EXPECT_EQ(server.command({"EXISTS", "k"}), "0");
  EXPECT_EQ(target.command({"GET", "k"}), "v");
  EXPECT_FALSE(keys.migrate("k", MigrateTarget{.port = target.port()}));
  server.command({"SET", "k2", "v"});
  expect_error(
      errc::server_error,
      [&] { (void)keys.migrate("k2", MigrateTarget{.port = guarded.port(), .password = "bad"}); },
      "the target refuses the password");
  EXPECT_EQ(server.command({"GET", "k2"}), "v") << "nothing moved";
}

}  // namespace

}  // namespace objects_object_migrate_test
