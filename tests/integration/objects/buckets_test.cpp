// Buckets against a real redis-server: many values with one MGET / MSET / MSETNX, the codec
// bytes (the same as Bucket<T>'s, values Java wrote read back), and what is not sent.
#include "redisson/objects/buckets.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <map>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_buckets_test {

using redisson::Bucket;
using redisson::Buckets;
using redisson::Client;
using redisson::errc;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;
using Strings = std::map<std::string, std::string>;

namespace {

class BucketsTest : public redisson::test::ServerTest {};

TEST_F(BucketsTest, SetAndGetWithOneCommandEach) {
  Buckets buckets(client, codecs::string());
  buckets.set(Strings{{"a", "1"}, {"b", "héllo"}, {"c", ""}});
  EXPECT_EQ(command_calls(server, "mset"), 1);
  EXPECT_EQ(server.command({"GET", "b"}), "héllo");
  const auto values = buckets.get<std::string>({"a", "b", "c", "missing"});
  EXPECT_EQ(command_calls(server, "mget"), 1);
  EXPECT_EQ(values, (Strings{{"a", "1"}, {"b", "héllo"}, {"c", ""}}));  // absent ones left out
  Bucket<std::string> one(client, "b", codecs::string());  // a Bucket reads the same bytes
  EXPECT_EQ(one.get(), "héllo");
}

TEST_F(BucketsTest, ReadsWhatJavaWrote) {
  // fixtures/redisson-3.52: string_str_hello_accent (StringCodec) and long_42 (LongCodec).
  server.command({"SET", "fx:string_str_hello_accent", "h\xc3\xa9llo"});
  server.command({"SET", "fx:long_42", "42"});
  EXPECT_EQ(Buckets(client, codecs::string()).get<std::string>({"fx:string_str_hello_accent"}),
            (Strings{{"fx:string_str_hello_accent", "héllo"}}));
  const auto numbers = Buckets(client, codecs::long_text()).get<std::int64_t>({"fx:long_42"});
  EXPECT_EQ(numbers, (std::map<std::string, std::int64_t>{{"fx:long_42", 42}}));
}

TEST_F(BucketsTest, TrySetWritesAllOrNothing) {
  Buckets buckets(client, codecs::long_text());
  EXPECT_TRUE(buckets.try_set(std::map<std::string, std::int64_t>{{"x", 1}, {"y", 2}}));
  EXPECT_EQ(server.command({"GET", "y"}), "2");
  EXPECT_FALSE(buckets.try_set(std::map<std::string, std::int64_t>{{"y", 5}, {"z", 3}}));
  EXPECT_EQ(server.command({"GET", "y"}), "2");
  EXPECT_EQ(server.command({"EXISTS", "z"}), "0");
}

TEST_F(BucketsTest, NothingToDoSendsNothing) {
  Buckets buckets(client, codecs::string());
  EXPECT_TRUE(buckets.get<std::string>({}).empty());
  buckets.set(Strings{});
  EXPECT_FALSE(buckets.try_set(Strings{}));  // false, as Redisson
  EXPECT_EQ(command_calls(server, "mget") + command_calls(server, "mset") +
                command_calls(server, "msetnx"),
            0);
}

TEST_F(BucketsTest, AsyncFormsCompleteWithTheResult) {
  Buckets buckets(client, codecs::string());
  buckets.async_set(Strings{{"p", "1"}}, asio::use_future).get();
  EXPECT_TRUE(buckets.async_try_set(Strings{{"q", "2"}}, asio::use_future).get());
  const auto values = buckets.async_get<std::string>({"p", "q"}, asio::use_future).get();
  EXPECT_EQ(values, (Strings{{"p", "1"}, {"q", "2"}}));
}

TEST_F(BucketsTest, DefaultCodecIsTheClients) {
  Buckets buckets(client);
  EXPECT_EQ(&buckets.codec(), client.config().codec.get());
  EXPECT_EQ(client.config().codec, codecs::kryo5()) << "a Config without one: kryo5";
}

TEST_F(BucketsTest, KeysOfAnotherTypeReadAsAbsent) {
  server.command({"RPUSH", "list", "x"});
  server.command({"SET", "text", "t"});
  Buckets buckets(client, codecs::string());
  EXPECT_EQ(buckets.get<std::string>({"list", "text"}), (Strings{{"text", "t"}}));
  EXPECT_EQ(server.command({"TYPE", "list"}), "list");
}

TEST_F(BucketsTest, BytesTheCodecCannotReadAreACodecError) {
  server.command({"SET", "n", "not a number"});
  Buckets buckets(client, codecs::long_text());
  expect_error(
      errc::codec_error, [&] { buckets.get<std::int64_t>({"n"}); }, "get");
}

TEST_F(BucketsTest, EmptyNamesAreRefusedBeforeSending) {
  Buckets buckets(client, codecs::string());
  expect_error(
      errc::invalid_argument,
      [&] {
        buckets.get<std::string>({"a", ""});
      },
      "get");
  expect_error(
      errc::invalid_argument,
      [&] {
        buckets.set(Strings{{"", "v"}});
      },
      "set");
  expect_error(
      errc::invalid_argument,
      [&] {
        buckets.try_set(Strings{{"", "v"}});
      },
      "try_set");
  EXPECT_EQ(command_calls(server, "mget") + command_calls(server, "mset") +
                command_calls(server, "msetnx"),
            0);
}

}  // namespace

}  // namespace objects_buckets_test
