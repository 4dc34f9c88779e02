// Bucket<T> against a real redis-server: every operation, the bytes it stores (what Java's
// codec of the same name writes), time to live, the common object operations, and errors that
// change nothing.
#include "redisson/objects/bucket.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <string>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_bucket_test {

using namespace std::chrono_literals;
using redisson::Bucket;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;

namespace {

class BucketTest : public redisson::test::ServerTest {};

TEST_F(BucketTest, SetGetStoresTheCodecBytes) {
  Bucket<std::string> bucket(client, "b", codecs::string());
  EXPECT_FALSE(bucket.get().has_value());
  bucket.set("héllo");
  EXPECT_EQ(bucket.get(), "héllo");
  EXPECT_EQ(server.command({"GET", "b"}), "héllo");
  EXPECT_EQ(bucket.size(), 6);
  EXPECT_EQ(server.command({"PTTL", "b"}), "-1");
}

TEST_F(BucketTest, SetAndKeepTtlKeepsTheExpiry) {
  Bucket<std::string> bucket(client, "k", codecs::string());
  bucket.set("v", 100s);
  bucket.set_and_keep_ttl("w");
  EXPECT_EQ(bucket.get(), "w");
  EXPECT_GT(bucket.remaining_time_to_live(), 90s);
  bucket.set("x");
  bucket.set_and_keep_ttl("y");
  EXPECT_EQ(bucket.remaining_time_to_live(), -1ms);
}

TEST_F(BucketTest, FindCommonIsTheLongestCommonSubsequence) {
  Bucket<std::string> first(client, "{lcs}:1", codecs::string());
  Bucket<std::string> second(client, "{lcs}:2", codecs::string());
  first.set("ohmytext");
  second.set("mynewtext");
  EXPECT_EQ(first.find_common("{lcs}:2"), "mytext");
  EXPECT_EQ(first.find_common_length("{lcs}:2"), 6);
  second.set("zzz");
  EXPECT_FALSE(first.find_common("{lcs}:2").has_value());
  EXPECT_EQ(first.find_common_length("{lcs}:none"), 0);
  server.command({"RPUSH", "{lcs}:list", "a"});
  expect_error(
      errc::server_error, [&] { (void)first.find_common_length("{lcs}:list"); }, "LCS of a list");
}

TEST_F(BucketTest, LongCodecStoresDecimalText) {
  Bucket<std::int64_t> bucket(client, "n", codecs::long_text());
  bucket.set(-5);
  EXPECT_EQ(server.command({"GET", "n"}), "-5");
  EXPECT_EQ(bucket.get(), -5);
}

TEST_F(BucketTest, SetWithTtlExpires) {
  Bucket<std::string> bucket(client, "t", codecs::string());
  bucket.set("v", 10s);
  const auto ttl = bucket.remaining_time_to_live();
  EXPECT_GT(ttl, 9s);
  EXPECT_LE(ttl, 10s);
  bucket.set("w");  // a plain set clears the ttl, as SET does
  EXPECT_EQ(bucket.remaining_time_to_live(), -1ms);
}

TEST_F(BucketTest, ConditionalSets) {
  Bucket<std::string> bucket(client, "c", codecs::string());
  EXPECT_FALSE(bucket.set_if_exists("x"));
  EXPECT_FALSE(bucket.exists());
  EXPECT_TRUE(bucket.set_if_absent("a"));
  EXPECT_FALSE(bucket.set_if_absent("b"));
  EXPECT_EQ(bucket.get(), "a");
  EXPECT_TRUE(bucket.set_if_exists("c", 5s));
  EXPECT_EQ(bucket.get(), "c");
  EXPECT_GT(bucket.remaining_time_to_live(), 0ms);
}

TEST_F(BucketTest, CompareAndSetComparesStoredBytes) {
  Bucket<std::string> bucket(client, "cas", codecs::string());
  EXPECT_TRUE(bucket.compare_and_set(std::nullopt, std::nullopt));  // absent, stays absent
  EXPECT_TRUE(bucket.compare_and_set(std::nullopt, "one"));
  EXPECT_FALSE(bucket.compare_and_set(std::nullopt, "two"));
  EXPECT_FALSE(bucket.compare_and_set("other", "two"));
  EXPECT_EQ(bucket.get(), "one");
  EXPECT_TRUE(bucket.compare_and_set("one", "two"));
  EXPECT_EQ(bucket.get(), "two");
  EXPECT_TRUE(bucket.compare_and_set("two", std::nullopt));
  EXPECT_FALSE(bucket.exists());
}

TEST_F(BucketTest, GetAndVariants) {
  Bucket<std::string> bucket(client, "g", codecs::string());
  EXPECT_EQ(bucket.get_and_set("1"), std::nullopt);
  EXPECT_EQ(bucket.get_and_set("2", 30s), "1");
  EXPECT_GT(bucket.remaining_time_to_live(), 0ms);
  EXPECT_EQ(bucket.get_and_clear_expire(), "2");
  EXPECT_EQ(bucket.remaining_time_to_live(), -1ms);
  EXPECT_EQ(bucket.get_and_expire(20s), "2");
  EXPECT_GT(bucket.remaining_time_to_live(), 10s);
  EXPECT_EQ(bucket.get_and_delete(), "2");
  EXPECT_FALSE(bucket.exists());
  EXPECT_EQ(bucket.get_and_delete(), std::nullopt);
}

TEST_F(BucketTest, AsyncFormsCompleteWithTheResult) {
  Bucket<std::string> bucket(client, "a", codecs::string());
  bucket.async_set("v", asio::use_future).get();
  EXPECT_EQ(bucket.async_get(asio::use_future).get(), "v");
  EXPECT_TRUE(bucket.async_compare_and_set("v", "w", asio::use_future).get());
  EXPECT_TRUE(bucket.async_delete_object(asio::use_future).get());
}

TEST_F(BucketTest, CommonObjectOperations) {
  Bucket<std::string> bucket(client, "o", codecs::string());
  EXPECT_FALSE(bucket.expire(10s));  // nothing to expire
  bucket.set("v");
  EXPECT_TRUE(bucket.expire(10s));
  EXPECT_GT(bucket.remaining_time_to_live(), 0ms);
  EXPECT_TRUE(bucket.clear_expire());
  EXPECT_TRUE(bucket.expire_at(std::chrono::system_clock::now() + 1h));
  EXPECT_GT(bucket.remaining_time_to_live(), 59min);
  EXPECT_TRUE(bucket.touch());
  EXPECT_GT(bucket.size_in_memory(), 0);
  bucket.rename("o2");
  EXPECT_EQ(bucket.name(), "o2");
  EXPECT_EQ(bucket.get(), "v");
  EXPECT_EQ(server.command({"EXISTS", "o"}), "0");
  EXPECT_TRUE(bucket.delete_object());
  EXPECT_FALSE(bucket.delete_object());
  EXPECT_EQ(bucket.remaining_time_to_live(), -2ms);
  EXPECT_EQ(bucket.size_in_memory(), 0);
}

TEST_F(BucketTest, WrongTypeKeyFailsAndChangesNothing) {
  server.command({"RPUSH", "list", "x"});
  Bucket<std::string> bucket(client, "list", codecs::string());
  expect_error(
      errc::wrong_type, [&] { bucket.get(); }, "get");
  expect_error(
      errc::wrong_type, [&] { bucket.compare_and_set("x", "y"); }, "compare_and_set");
  EXPECT_EQ(server.command({"TYPE", "list"}), "list");
}

TEST_F(BucketTest, BytesTheCodecCannotReadAreACodecError) {
  server.command({"SET", "text", "not a number"});
  Bucket<std::int64_t> bucket(client, "text", codecs::long_text());
  expect_error(
      errc::codec_error, [&] { bucket.get(); }, "get");
  Bucket<std::int64_t> as_string(client, "text", codecs::string());
  expect_error(
      errc::codec_error, [&] { as_string.get(); }, "get as String");
}

TEST_F(BucketTest, BadArgumentsSendNothing) {
  EXPECT_THROW(Bucket<std::string>(client, ""), redisson::error);
  Bucket<std::string> bucket(client, "bad", codecs::string());
  expect_error(
      errc::invalid_argument, [&] { bucket.set("v", -1s); }, "negative ttl");
  expect_error(
      errc::invalid_argument, [&] { bucket.set("v", 0s); }, "zero ttl");
  EXPECT_EQ(server.command({"EXISTS", "bad"}), "0");
  expect_error(
      errc::server_error, [&] { bucket.rename("elsewhere"); }, "rename of nothing");
}

}  // namespace

}  // namespace objects_bucket_test
