// Bucket<T> with the kryo5 and json codecs against a real redis-server: the stored bytes are
// Java Redisson's (fixture bytes), bytes Java wrote read back, and compare-and-set matches them.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_bucket_codec_test {

using redisson::Bucket;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;

namespace {

class BucketCodecTest : public redisson::test::ServerTest {};

TEST_F(BucketCodecTest, DefaultCodecIsKryo5WithJavasBytes) {
  Bucket<std::string> bucket(client, "k");
  bucket.set("hello");
  EXPECT_EQ(server.command({"GET", "k"}), "\x03hell\xef");  // fixture kryo_str_hello
  // Java's bytes for 1700000000000L (fixture kryo_long_1700000000000).
  server.command({"SET", "n", "\x09\x80\xa0\xab\xfe\xf9\x62"});
  EXPECT_EQ(Bucket<std::int64_t>(client, "n").get(), 1700000000000);
}

TEST_F(BucketCodecTest, CompareAndSetMatchesJavasKryoBytes) {
  server.command({"SET", "cas", "\x03\x82\x61"});  // Java's "a"
  Bucket<std::string> bucket(client, "cas", codecs::kryo5());
  EXPECT_TRUE(bucket.compare_and_set(std::string("a"), std::string("b")));
  EXPECT_EQ(server.command({"GET", "cas"}), "\x03\x82\x62");
}

TEST_F(BucketCodecTest, MapsAndSetsInJavasOrder) {
  Bucket<std::map<std::string, std::int64_t>> map(client, "m", codecs::json());
  map.set({{"n", 7}});
  EXPECT_EQ(server.command({"GET", "m"}),
            R"({"@class":"java.util.HashMap","n":["java.lang.Long",7]})");  // json_map_str_long
  Bucket<std::set<std::string>> set(client, "s", codecs::kryo5());
  set.set({"b", "a"});
  EXPECT_EQ(set.get(), (std::set<std::string>{"a", "b"}));
}

TEST_F(BucketCodecTest, ClassesItCannotReadAreCodecErrors) {
  server.command({"SET", "pojo", std::string("\x01\x00", 2) + "com.acme.Perso\xee"});
  Bucket<std::string> bucket(client, "pojo", codecs::kryo5());
  expect_error(
      errc::codec_error, [&] { bucket.get(); }, "get of a Java POJO");
}

}  // namespace

}  // namespace objects_bucket_codec_test
