// The operations every object has beyond delete/expire/rename (Redisson's RObject and
// RExpirable): unlink, the conditional expires, expire_time, the OBJECT introspection, dump and
// restore, copy, renamenx and move_to_database; on a one-key object, on one of several keys
// known from its name (an IdGenerator) and on one whose keys are listed in Redis (a multimap).
#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <string>

#include "redisson/objects/bucket.hpp"
#include "redisson/objects/id_generator.hpp"
#include "redisson/objects/set_multimap.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/server_test.hpp"

namespace objects_object_operations_test {

using namespace std::chrono_literals;
using redisson::Bucket;
using redisson::errc;
using redisson::ExpireIf;
using redisson::IdGenerator;
using redisson::SetMultimap;
using redisson::test::expect_error;
namespace codecs = redisson::codecs;

namespace {

class ObjectOperationsTest : public redisson::test::ServerTest {
 protected:
  bool has_key(const std::string& key) const { return server.command({"EXISTS", key}) == "1"; }
  std::int64_t pttl(const std::string& key) const {
    return std::stoll(server.command({"PTTL", key}));
  }
};

TEST_F(ObjectOperationsTest, UnlinkDeletesEveryKey) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  bucket.set("v");
  EXPECT_TRUE(bucket.unlink());
  EXPECT_FALSE(has_key("b"));
  EXPECT_FALSE(bucket.unlink());

  IdGenerator ids(client, "ids");
  ASSERT_TRUE(ids.try_init(1, 10));
  ASSERT_TRUE(has_key("{ids}:allocation"));
  EXPECT_TRUE(ids.unlink());
  EXPECT_FALSE(has_key("ids"));
  EXPECT_FALSE(has_key("{ids}:allocation"));

  SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
  tags.put("a", "x");
  tags.put("b", "y");
  EXPECT_TRUE(tags.async_unlink(asio::use_future).get());
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
}

TEST_F(ObjectOperationsTest, ConditionalExpireFollowsNxXxGtLt) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.expire(10s, ExpireIf::not_set));  // no key
  bucket.set("v");
  EXPECT_FALSE(bucket.expire(10s, ExpireIf::set));  // no time to live yet
  EXPECT_EQ(pttl("b"), -1);
  EXPECT_FALSE(bucket.expire(10s, ExpireIf::greater));  // none counts as infinite
  EXPECT_TRUE(bucket.expire(100s, ExpireIf::not_set));
  EXPECT_FALSE(bucket.expire(10s, ExpireIf::not_set));
  EXPECT_GT(pttl("b"), 10'000);
  EXPECT_FALSE(bucket.expire(50s, ExpireIf::greater));
  EXPECT_TRUE(bucket.expire(50s, ExpireIf::less));
  EXPECT_LE(pttl("b"), 50'000);
  EXPECT_TRUE(bucket.expire(200s, ExpireIf::greater));
  EXPECT_TRUE(bucket.expire(20s, ExpireIf::set));
  EXPECT_LE(pttl("b"), 20'000);

  const auto later = std::chrono::system_clock::now() + 1h;
  EXPECT_TRUE(bucket.expire_at(later, ExpireIf::greater));
  EXPECT_GT(pttl("b"), 3'000'000);
  EXPECT_FALSE(bucket.expire_at(later + 1h, ExpireIf::less));
}

TEST_F(ObjectOperationsTest, ConditionalExpireReachesEveryKey) {
  IdGenerator ids(client, "ids");
  ASSERT_TRUE(ids.try_init(1, 10));
  EXPECT_TRUE(ids.expire(100s, ExpireIf::not_set));
  EXPECT_GT(pttl("ids"), 0);
  EXPECT_GT(pttl("{ids}:allocation"), 0);
  EXPECT_FALSE(ids.expire(10s, ExpireIf::not_set));

  SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
  tags.put("a", "x");
  EXPECT_TRUE(tags.expire(100s, ExpireIf::not_set));
  EXPECT_FALSE(tags.expire(100s, ExpireIf::not_set));
  EXPECT_TRUE(tags.expire(10s, ExpireIf::less));
  EXPECT_LE(pttl("tags"), 10'000);
  const auto values_key = server.command({"KEYS", "{tags}:*"});
  ASSERT_FALSE(values_key.empty());
  EXPECT_GT(pttl(values_key), 0);
  EXPECT_LE(pttl(values_key), 10'000);
}

TEST_F(ObjectOperationsTest, ExpireTimeIsWhenTheKeyExpires) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.expire_time().has_value());  // no key
  bucket.set("v");
  EXPECT_FALSE(bucket.expire_time().has_value());  // no expiry
  const auto when = std::chrono::system_clock::now() + 1h;
  bucket.expire_at(when);
  const auto read = bucket.expire_time();
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(std::chrono::floor<std::chrono::milliseconds>(*read),
            std::chrono::floor<std::chrono::milliseconds>(when));
}

TEST_F(ObjectOperationsTest, IntrospectionReadsObjectSubcommands) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.idle_time().has_value());
  EXPECT_FALSE(bucket.reference_count().has_value());
  EXPECT_FALSE(bucket.internal_encoding().has_value());
  bucket.set("a value of more than forty-four bytes, stored as a raw string");
  EXPECT_LT(*bucket.idle_time(), 100s);
  EXPECT_EQ(bucket.reference_count(), 1);
  EXPECT_EQ(bucket.internal_encoding(), "raw");
  Bucket<std::int64_t> number(client, "n", codecs::long_text());
  number.set(12);
  EXPECT_EQ(number.internal_encoding(), "int");

  // OBJECT FREQ needs an LFU policy: without one the server's refusal reaches the caller.
  expect_error(
      errc::server_error, [&] { bucket.access_frequency(); }, "access_frequency");
  server.command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"});
  EXPECT_GE(*bucket.access_frequency(), 0);
  EXPECT_FALSE(Bucket<std::string>(client, "none").access_frequency().has_value());
}

TEST_F(ObjectOperationsTest, DumpAndRestoreRoundTripTheValue) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.dump().has_value());
  bucket.set("value");
  const auto state = bucket.dump();
  ASSERT_TRUE(state.has_value());

  Bucket<std::string> copy(client, "c", codecs::string());
  copy.restore(*state, 100s);
  EXPECT_EQ(copy.get(), "value");
  EXPECT_GT(pttl("c"), 0);
  // An existing key is left alone without REPLACE.
  copy.set("other");
  expect_error(
      errc::server_error, [&] { copy.restore(*state); }, "restore onto a key");
  EXPECT_EQ(copy.get(), "other");
  copy.restore_and_replace(*state);
  EXPECT_EQ(copy.get(), "value");
  EXPECT_EQ(pttl("c"), -1);

  expect_error(
      errc::invalid_argument, [&] { copy.restore_and_replace(*state, -1ms); }, "negative ttl");
  redisson::Bytes garbage{std::byte{1}, std::byte{2}, std::byte{3}};
  expect_error(
      errc::server_error, [&] { copy.restore_and_replace(garbage); }, "bad payload");
  EXPECT_EQ(copy.get(), "value");
}

TEST_F(ObjectOperationsTest, CopyLeavesOrReplacesTheDestination) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.copy("c"));  // nothing to copy
  bucket.set("v");
  EXPECT_TRUE(bucket.copy("c"));
  EXPECT_EQ(Bucket<std::string>(client, "c", codecs::string()).get(), "v");
  bucket.set("w");
  EXPECT_FALSE(bucket.copy("c"));
  EXPECT_EQ(server.command({"GET", "c"}), "v");
  EXPECT_TRUE(bucket.async_copy_and_replace("c", asio::use_future).get());
  EXPECT_EQ(server.command({"GET", "c"}), "w");
  expect_error(
      errc::invalid_argument, [&] { bucket.copy(""); }, "empty destination");
}

TEST_F(ObjectOperationsTest, CopyTakesEveryKeyOfTheObject) {
  IdGenerator ids(client, "ids");
  ASSERT_TRUE(ids.try_init(100, 10));
  EXPECT_TRUE(ids.copy("ids2"));
  EXPECT_TRUE(has_key("ids2"));
  EXPECT_TRUE(has_key("{ids2}:allocation"));
  EXPECT_EQ(server.command({"GET", "{ids2}:allocation"}),
            server.command({"GET", "{ids}:allocation"}));
  EXPECT_FALSE(ids.copy("ids2"));
  EXPECT_TRUE(ids.copy_and_replace("ids2"));

  SetMultimap<std::string, std::string> tags(client, "tags", codecs::string());
  tags.put("a", "x");
  expect_error(
      errc::invalid_argument, [&] { tags.copy("tags2"); }, "copy of a multimap");
  EXPECT_FALSE(has_key("tags2"));
}

TEST_F(ObjectOperationsTest, RenamenxRenamesOnlyOntoNothing) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  expect_error(
      errc::server_error, [&] { bucket.renamenx("c"); }, "renamenx of nothing");
  bucket.set("v");
  Bucket<std::string> other(client, "c", codecs::string());
  other.set("taken");
  EXPECT_FALSE(bucket.renamenx("c"));
  EXPECT_EQ(bucket.name(), "b");
  EXPECT_EQ(other.get(), "taken");
  EXPECT_TRUE(bucket.renamenx("d"));
  EXPECT_EQ(bucket.name(), "d");
  EXPECT_EQ(bucket.get(), "v");
  EXPECT_FALSE(has_key("b"));

  IdGenerator ids(client, "ids");
  ASSERT_TRUE(ids.try_init(1, 10));
  server.command({"SET", "{ids2}:allocation", "x"});
  EXPECT_FALSE(ids.renamenx("ids2"));  // one key of the new name exists: nothing moves
  EXPECT_TRUE(has_key("ids"));
  server.command({"DEL", "{ids2}:allocation"});
  EXPECT_TRUE(ids.renamenx("ids2"));
  EXPECT_FALSE(has_key("ids"));
  EXPECT_FALSE(has_key("{ids}:allocation"));
  EXPECT_TRUE(has_key("{ids2}:allocation"));
  EXPECT_GE(ids.next_id(), 1);
}

TEST_F(ObjectOperationsTest, MoveToDatabaseTakesTheKeysAway) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  bucket.set("v");
  EXPECT_TRUE(bucket.move_to_database(1));
  EXPECT_FALSE(has_key("b"));
  auto config = redisson::test::config_for(server);
  config.server.database = 1;
  redisson::Client db1(config);
  Bucket<std::string> moved(db1, "b", codecs::string());
  EXPECT_EQ(moved.get(), "v");
  EXPECT_FALSE(bucket.move_to_database(1));  // absent here

  IdGenerator ids(client, "ids");
  ASSERT_TRUE(ids.try_init(1, 10));
  EXPECT_TRUE(ids.move_to_database(2));
  EXPECT_EQ(server.command({"DBSIZE"}), "0");
}

TEST_F(ObjectOperationsTest, WrongTypeKeyFailsClearlyAndStays) {
  server.command({"HSET", "h", "f", "v"});
  Bucket<std::string> bucket(client, "h", codecs::string());
  EXPECT_EQ(bucket.internal_encoding(), "listpack");  // OBJECT reads any type
  EXPECT_TRUE(bucket.copy("h2"));                     // so does COPY, as in Redisson
  EXPECT_EQ(server.command({"HGET", "h2", "f"}), "v");
}

}  // namespace
}  // namespace objects_object_operations_test
