// BloomFilter<T> against a real redis-server: every operation, the bytes it writes (Java
// Redisson 3.52's, from the golden fixtures), reading a filter Java wrote, the config cache,
// the common object operations, and errors that change nothing.
#include "redisson/objects/bloom_filter.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/java352_fixtures.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_bloom_filter_test {

using namespace std::chrono_literals;
using redisson::BloomFilter;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;
namespace codecs = redisson::codecs;
namespace java = redisson::test::java352;

namespace {

class BloomFilterTest : public redisson::test::ServerTest {};

TEST_F(BloomFilterTest, TryInitWritesRedissonsConfigOnce) {
  BloomFilter<std::string> filter(client, "f", codecs::string());
  EXPECT_TRUE(filter.try_init(1000, 0.03));
  EXPECT_EQ(server.command({"HGETALL", "{f}:config"}),
            "size\n7298\nhashIterations\n5\nexpectedInsertions\n1000\nfalseProbability\n0.03");
  EXPECT_FALSE(filter.try_init(50, 0.5));  // the first config stays
  EXPECT_EQ(filter.size(), 7298);
  EXPECT_EQ(filter.hash_iterations(), 5);
  EXPECT_EQ(filter.expected_insertions(), 1000);
  EXPECT_DOUBLE_EQ(filter.false_probability(), 0.03);
}

TEST_F(BloomFilterTest, FalseProbabilityIsWrittenAsJavasDoubleText) {
  BloomFilter<std::string> filter(client, "p", codecs::string());
  EXPECT_TRUE(filter.try_init(100, 1e-4));
  EXPECT_EQ(server.command({"HGET", "{p}:config", "falseProbability"}), "1.0E-4");
  EXPECT_DOUBLE_EQ(filter.false_probability(), 1e-4);
  EXPECT_EQ(server.command({"HGET", "{p}:config", "size"}), "1917");
}

TEST_F(BloomFilterTest, AddWritesTheSameBitmapAsJavaRedisson) {
  BloomFilter<std::string> filter(client, "fx:bloom_string", codecs::string());
  ASSERT_TRUE(filter.try_init(1000, 0.03));
  EXPECT_TRUE(filter.add("a"));
  EXPECT_TRUE(filter.add("b"));
  EXPECT_TRUE(filter.add("c"));
  EXPECT_FALSE(filter.add("a"));  // no new bit
  EXPECT_EQ(java::to_hex(server.command({"GET", "fx:bloom_string"})),
            java::bloom_bitmap_hex("fx:bloom_string"));
}

TEST_F(BloomFilterTest, AddAllIsOneScriptWithTheSameBits) {
  BloomFilter<std::string> filter(client, "fx:bloom_string", codecs::string());
  ASSERT_TRUE(filter.try_init(1000, 0.03));
  const auto scripts_before = redisson::test::command_calls(server, "evalsha");
  EXPECT_EQ(filter.add_all({"a", "b", "c", "a"}), 3);
  EXPECT_EQ(redisson::test::command_calls(server, "evalsha") - scripts_before, 1);
  EXPECT_EQ(java::to_hex(server.command({"GET", "fx:bloom_string"})),
            java::bloom_bitmap_hex("fx:bloom_string"));
  EXPECT_EQ(filter.add_all({}), 0);
}

TEST_F(BloomFilterTest, BytesValuesHashAsTheyAre) {
  // Kryo5's bytes of "a", "b", "c" (03 82 61...) as byte[] through ByteArrayCodec: the bits Java
  // Redisson's default codec sets (fx:bloom_kryo).
  BloomFilter<redisson::Bytes> filter(client, "fx:bloom_kryo", codecs::bytes());
  ASSERT_TRUE(filter.try_init(1000, 0.03));
  for (const char c : std::string("abc")) {
    EXPECT_TRUE(
        filter.add(redisson::Bytes{std::byte{0x03}, std::byte{0x82}, static_cast<std::byte>(c)}));
  }
  EXPECT_EQ(java::to_hex(server.command({"GET", "fx:bloom_kryo"})),
            java::bloom_bitmap_hex("fx:bloom_kryo"));
}

TEST_F(BloomFilterTest, ContainsReadsAFilterJavaWrote) {
  java::load_bloom(server, "fx:bloom_string", "fx:bloom_string");
  BloomFilter<std::string> filter(client, "fx:bloom_string", codecs::string());
  EXPECT_TRUE(filter.contains("a"));
  EXPECT_TRUE(filter.contains("b"));
  EXPECT_TRUE(filter.contains("c"));
  EXPECT_FALSE(filter.contains("zz"));
  EXPECT_FALSE(filter.contains("d"));
  EXPECT_EQ(filter.contains_all({"a", "b", "c", "zz", "d"}), 3);
  EXPECT_EQ(filter.contains_all({}), 0);
  EXPECT_EQ(filter.count(), 3);
  EXPECT_EQ(filter.size(), 7298);
  EXPECT_EQ(filter.hash_iterations(), 5);
  EXPECT_EQ(filter.expected_insertions(), 1000);
  EXPECT_DOUBLE_EQ(filter.false_probability(), 0.03);
  // Adding what Java added changes nothing.
  EXPECT_EQ(filter.add_all({"a", "b", "c"}), 0);
  EXPECT_EQ(java::to_hex(server.command({"GET", "fx:bloom_string"})),
            java::bloom_bitmap_hex("fx:bloom_string"));
}

TEST_F(BloomFilterTest, ContainsReadsAKryoFilterJavaWrote) {
  java::load_bloom(server, "fx:bloom_kryo", "fx:bloom_kryo");
  BloomFilter<redisson::Bytes> filter(client, "fx:bloom_kryo", codecs::bytes());
  EXPECT_TRUE(filter.contains({std::byte{0x03}, std::byte{0x82}, std::byte{'a'}}));
  EXPECT_FALSE(filter.contains({std::byte{'a'}}));
  EXPECT_EQ(filter.count(), 3);
}

TEST_F(BloomFilterTest, CountEstimatesTheValuesAdded) {
  BloomFilter<std::int64_t> filter(client, "n", codecs::long_text());
  ASSERT_TRUE(filter.try_init(10000, 0.01));
  EXPECT_EQ(filter.count(), 0);
  std::vector<std::int64_t> values;
  for (std::int64_t i = 0; i < 500; ++i) values.push_back(i);
  EXPECT_GE(filter.add_all(values), 495);  // a false positive or two may say "not new"
  const auto count = filter.count();
  EXPECT_GE(count, 480);
  EXPECT_LE(count, 520);
  EXPECT_EQ(filter.contains_all(values), 500);  // no false negatives
}

TEST_F(BloomFilterTest, AsyncFormsCompleteWithTheResult) {
  BloomFilter<std::string> filter(client, "a", codecs::string());
  EXPECT_TRUE(filter.async_try_init(1000, 0.03, asio::use_future).get());
  EXPECT_TRUE(filter.async_add("x", asio::use_future).get());
  EXPECT_EQ(filter.async_add_all({"y", "z"}, asio::use_future).get(), 2);
  EXPECT_TRUE(filter.async_contains("x", asio::use_future).get());
  EXPECT_EQ(filter.async_contains_all({"x", "y", "q"}, asio::use_future).get(), 2);
  EXPECT_EQ(filter.async_count(asio::use_future).get(), 3);
  EXPECT_EQ(filter.async_size(asio::use_future).get(), 7298);
  EXPECT_EQ(filter.async_hash_iterations(asio::use_future).get(), 5);
  EXPECT_EQ(filter.async_expected_insertions(asio::use_future).get(), 1000);
  EXPECT_DOUBLE_EQ(filter.async_false_probability(asio::use_future).get(), 0.03);
}

TEST_F(BloomFilterTest, CopiesShareTheConfigTheyRead) {
  java::load_bloom(server, "fx:bloom_string", "fx:bloom_string");
  BloomFilter<std::string> filter(client, "fx:bloom_string", codecs::string());
  EXPECT_TRUE(filter.contains("a"));  // reads the config (HGETALL), then the script
  const auto reads = redisson::test::command_calls(server, "hgetall");
  auto copy = filter;
  EXPECT_TRUE(copy.contains("b"));
  EXPECT_TRUE(filter.add("a") == false);
  EXPECT_EQ(redisson::test::command_calls(server, "hgetall"), reads);
}

TEST_F(BloomFilterTest, AChangedConfigIsAnErrorThenReadAgain) {
  BloomFilter<std::string> filter(client, "c", codecs::string());
  ASSERT_TRUE(filter.try_init(1000, 0.03));
  ASSERT_TRUE(filter.add("a"));
  // Someone deletes the filter and initialises it again with another shape.
  BloomFilter<std::string> other(client, "c", codecs::string());
  ASSERT_TRUE(other.delete_object());
  ASSERT_TRUE(other.try_init(100, 0.1));
  try {
    filter.add("b");
    ADD_FAILURE() << "add with a stale config: no error";
  } catch (const redisson::error& e) {
    EXPECT_EQ(e.code(), errc::server_error);
    EXPECT_NE(std::string(e.what()).find("Bloom filter config has been changed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(server.command({"EXISTS", "c"}), "0");  // nothing was set
  // The handle read the config again: it now adds with m = 479, k = 3.
  EXPECT_TRUE(filter.add("b"));
  EXPECT_TRUE(other.contains("b"));
  EXPECT_EQ(filter.size(), 479);
}

TEST_F(BloomFilterTest, NotInitialisedIsItsOwnError) {
  BloomFilter<std::string> filter(client, "none", codecs::string());
  expect_error(
      errc::not_initialized, [&] { filter.add("a"); }, "add");
  expect_error(
      errc::not_initialized, [&] { filter.contains("a"); }, "contains");
  expect_error(
      errc::not_initialized, [&] { filter.count(); }, "count");
  expect_error(
      errc::not_initialized, [&] { filter.size(); }, "size");
  expect_error(
      errc::not_initialized, [&] { filter.false_probability(); }, "false_probability");
  EXPECT_EQ(server.command({"EXISTS", "none", "{none}:config"}), "0");
}

TEST_F(BloomFilterTest, BadArgumentsSendNothing) {
  EXPECT_THROW(BloomFilter<std::string>(client, ""), redisson::error);
  BloomFilter<std::string> filter(client, "bad", codecs::string());
  expect_error(
      errc::invalid_argument, [&] { filter.try_init(1000, 1.5); }, "p > 1");
  expect_error(
      errc::invalid_argument, [&] { filter.try_init(1000, -0.5); }, "p < 0");
  expect_error(
      errc::invalid_argument, [&] { filter.try_init(0, 0.03); }, "n = 0");
  expect_error(
      errc::invalid_argument, [&] { filter.try_init(3, 0.99); }, "m = 0");
  expect_error(
      errc::invalid_argument, [&] { filter.try_init(1'000'000'000, 1e-9); }, "m too large");
  EXPECT_EQ(server.command({"EXISTS", "{bad}:config"}), "0");
}

TEST_F(BloomFilterTest, WrongTypeKeysFailAndChangeNothing) {
  server.command({"RPUSH", "list", "x"});
  server.command({"HSET", "{list}:config", "size", "7298", "hashIterations", "5"});
  BloomFilter<std::string> filter(client, "list", codecs::string());
  expect_error(
      errc::wrong_type, [&] { filter.add("a"); }, "add to a list");
  expect_error(
      errc::wrong_type, [&] { filter.contains("a"); }, "contains in a list");
  expect_error(
      errc::wrong_type, [&] { filter.count(); }, "count of a list");
  EXPECT_EQ(server.command({"TYPE", "list"}), "list");
  server.command({"SET", "{str}:config", "x"});
  BloomFilter<std::string> bad_config(client, "str", codecs::string());
  expect_error(
      errc::wrong_type, [&] { bad_config.add("a"); }, "config of another type");
  EXPECT_FALSE(bad_config.try_init(1000, 0.03));  // a key is there: Redisson's answer
}

TEST_F(BloomFilterTest, CommonObjectOperationsCoverBothKeys) {
  BloomFilter<std::string> filter(client, "o", codecs::string());
  ASSERT_TRUE(filter.try_init(1000, 0.03));
  ASSERT_TRUE(filter.add("v"));
  EXPECT_TRUE(filter.expire(10s));
  EXPECT_GT(std::stoll(server.command({"PTTL", "{o}:config"})), 0);
  EXPECT_GT(filter.remaining_time_to_live(), 0ms);
  EXPECT_TRUE(filter.clear_expire());
  EXPECT_EQ(server.command({"PTTL", "{o}:config"}), "-1");
  EXPECT_GT(filter.size_in_memory(), 0);
  filter.rename("o2");
  EXPECT_EQ(server.command({"EXISTS", "o", "{o}:config"}), "0");
  EXPECT_EQ(server.command({"EXISTS", "o2", "{o2}:config"}), "2");
  EXPECT_TRUE(filter.contains("v"));
  EXPECT_TRUE(filter.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "o2", "{o2}:config"}), "0");
  EXPECT_FALSE(filter.delete_object());
}

}  // namespace

}  // namespace objects_bloom_filter_test
