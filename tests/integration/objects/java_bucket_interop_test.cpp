// Buckets shared with Java Redisson 3.52: every RBucket fixture case (the default Kryo5Codec,
// JsonJacksonCodec, TypedJsonJacksonCodec, StringCodec, LongCodec, IntegerCodec, DoubleCodec,
// ByteArrayCodec) read through Bucket<Value> from the bytes Java wrote, and written by C++ to
// the very bytes Java wrote.
#include <gtest/gtest.h>

#include "redisson/client.hpp"
#include "redisson/objects/bucket.hpp"
#include "support/client_config.hpp"
#include "support/java_fixtures.hpp"
#include "support/redis_server.hpp"

namespace objects_java_bucket_interop_test {

using redisson::Bucket;
using redisson::Client;
using redisson::Value;
using redisson::test::codec_of_case;
using redisson::test::config_for;
using redisson::test::java_cases;
using redisson::test::load_java_fixtures;
using redisson::test::readback_value;
using redisson::test::RedisServer;
using redisson::test::to_hex;

namespace {

class JavaBucketInterop : public ::testing::Test {
 protected:
  RedisServer server;
  Client client{config_for(server)};

  template <class Fn>
  void for_each_bucket_case(Fn fn) {
    int seen = 0;
    for (const auto& java_case : java_cases()) {
      if (java_case.at("object") != "RBucket") continue;
      SCOPED_TRACE(java_case.at("case").get<std::string>());
      fn(java_case);
      ++seen;
    }
    EXPECT_GE(seen, 50) << "the fixtures hold 54 RBucket cases";
  }
};

// TypedJsonJacksonCodec reads into the class Java names (Long.class); plain JSON carries no
// type, so C++ reads 1 as an Integer: the same number, compared as JSON.
bool same_value(const Value& read, const Value& expected, std::string_view codec) {
  if (codec == "typed_json") return read.to_display_json() == expected.to_display_json();
  return read == expected;
}

TEST_F(JavaBucketInterop, CppReadsEveryBucketJavaWrote) {
  load_java_fixtures(server);
  for_each_bucket_case([&](const nlohmann::json& java_case) {
    const auto codec = codec_of_case(java_case);
    const Bucket<Value> bucket(client, java_case.at("key").get<std::string>(), codec);
    const auto read = bucket.get();
    ASSERT_TRUE(read.has_value());
    const auto expected = readback_value(java_case);
    EXPECT_TRUE(same_value(*read, expected, codec->name()))
        << "read " << read->to_display_json() << " (" << redisson::kind_name(read->kind())
        << "), Java read " << expected.to_display_json() << " ("
        << redisson::kind_name(expected.kind()) << ")";
  });
}

TEST_F(JavaBucketInterop, CppWritesTheBytesJavaWrote) {
  for_each_bucket_case([&](const nlohmann::json& java_case) {
    const auto codec = codec_of_case(java_case);
    const auto name = "cpp:" + java_case.at("key").get<std::string>();
    // What Java stored: its value as Java typed it (for byte[] under JsonJacksonCodec, the
    // byte[] it wrote, not the String it read back).
    auto written = java_case;
    written["readback"] = java_case.at("value");
    written["readback_java"] = java_case.at("value_java");
    Bucket<Value> bucket(client, name, codec);
    bucket.set(readback_value(written));
    EXPECT_EQ(to_hex(server.command({"GET", name})),
              java_case.at("encoded_hex").get<std::string>());
  });
}

}  // namespace

}  // namespace objects_java_bucket_interop_test
