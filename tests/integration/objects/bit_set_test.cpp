// BitSet against a real redis-server: every operation, the bitmap bytes (Redis's bit order,
// Java's RBitSet layout: bits 0, 5, 63 -> 84 00 .. 00 01), ranges in one script, and errors.
#include "redisson/objects/bit_set.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_bit_set_test {

using redisson::BitSet;
using redisson::Bytes;
using redisson::Client;
using redisson::errc;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;

namespace {

Bytes bytes_of(std::initializer_list<int> values) {
  Bytes out;
  for (const int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

std::string raw(const Bytes& bytes) {
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// A reader of the bitmap's bits through the side channel, one GETBIT per bit.
std::string bits_in_redis(const RedisServer& server, const std::string& key, int count) {
  std::string bits;
  for (int i = 0; i < count; ++i) bits += server.command({"GETBIT", key, std::to_string(i)});
  return bits;
}

class BitSetTest : public redisson::test::ServerTest {};

TEST_F(BitSetTest, IntegerFieldsReadWriteAndIncrementAnyWidth) {
  BitSet bits(client, "bf");
  EXPECT_EQ(bits.get_signed(8, 0), 0);  // a missing key reads as zeros
  EXPECT_EQ(bits.set_field<std::int8_t>(0, -2), 0);
  EXPECT_EQ(bits.to_bytes(), (redisson::Bytes{std::byte{0xFE}}));  // most significant bit first
  EXPECT_EQ(bits.get_field<std::int8_t>(0), -2);
  EXPECT_EQ(bits.get_field<std::uint8_t>(0), 254);
  EXPECT_EQ(bits.get_unsigned(4, 0), 15);
  EXPECT_EQ(bits.increment_and_get_field<std::int8_t>(0, 3), 1);
  EXPECT_EQ(bits.increment_and_get_signed(8, 0, 127), -128);  // wraps around

  // A field at any bit offset, of any width.
  EXPECT_EQ(bits.set_field<std::int32_t>(3, 123456789), 0);
  EXPECT_EQ(bits.get_field<std::int32_t>(3), 123456789);
  EXPECT_EQ(bits.set_field<std::int64_t>(64, -5), 0);
  EXPECT_EQ(bits.get_field<std::int64_t>(64), -5);
  EXPECT_EQ(bits.set_field<std::int16_t>(200, 300), 0);
  EXPECT_EQ(bits.increment_and_get_field<std::int16_t>(200, -301), -1);
  EXPECT_EQ(bits.set_unsigned(63, 300, 7), 0);
  EXPECT_EQ(bits.increment_and_get_unsigned(63, 300, 1), 8);
  EXPECT_EQ(bits.async_get_signed(5, 300, asio::use_future).get(), 0);

  const auto before = bits.to_bytes();
  expect_error(
      errc::invalid_argument, [&] { (void)bits.get_signed(65, 0); }, "i65");
  expect_error(
      errc::invalid_argument, [&] { (void)bits.set_unsigned(64, 0, 1); }, "u64");
  expect_error(
      errc::invalid_argument, [&] { (void)bits.get_unsigned(0, 0); }, "u0");
  expect_error(
      errc::invalid_argument, [&] { (void)bits.set_signed(8, -1, 1); }, "negative offset");
  EXPECT_EQ(bits.to_bytes(), before);
  server.command({"RPUSH", "list", "x"});
  BitSet wrong(client, "list");
  expect_error(
      errc::wrong_type, [&] { (void)wrong.set_signed(8, 0, 1); }, "BITFIELD on a list");
}

TEST_F(BitSetTest, BitsAreRedisBitsAsJavaWritesThem) {
  BitSet bits(client, "fx:bitset");
  EXPECT_FALSE(bits.set(0));
  EXPECT_FALSE(bits.set(5));
  EXPECT_FALSE(bits.set(63));
  // The Java fixture's set(0); set(5); set(63).
  EXPECT_EQ(bits.to_bytes(), bytes_of({0x84, 0, 0, 0, 0, 0, 0, 0x01}));
  EXPECT_EQ(server.command({"GET", "fx:bitset"}), raw(bytes_of({0x84, 0, 0, 0, 0, 0, 0, 0x01})));
  EXPECT_EQ(bits.cardinality(), 3);  // the fixture's cardinality 3, length 64
  EXPECT_EQ(bits.length(), 64);
  EXPECT_EQ(bits.size(), 64);
}

TEST_F(BitSetTest, ReadsWhatJavaWrote) {
  BitSet bits(client, "fx:bitset");
  bits.set_bytes(bytes_of({0x84, 0, 0, 0, 0, 0, 0, 0x01}));
  EXPECT_TRUE(bits.get(0));
  EXPECT_FALSE(bits.get(1));
  EXPECT_TRUE(bits.get(5));
  EXPECT_TRUE(bits.get(63));
  EXPECT_FALSE(bits.get(64));
  EXPECT_FALSE(bits.get(1000));  // past the end
}

TEST_F(BitSetTest, SetAndClearReturnThePreviousBit) {
  BitSet bits(client, "b");
  EXPECT_FALSE(bits.set(3));
  EXPECT_TRUE(bits.set(3));
  EXPECT_TRUE(bits.set(3, false));
  EXPECT_FALSE(bits.get(3));
  bits.set(3);
  EXPECT_TRUE(bits.clear(3));
  EXPECT_FALSE(bits.clear(3));
  EXPECT_EQ(bits.cardinality(), 0);
  EXPECT_EQ(bits.length(), 0);
  EXPECT_EQ(bits.size(), 8);  // the byte stays
}

TEST_F(BitSetTest, LengthIsTheHighestSetBitPlusOne) {
  BitSet bits(client, "len");
  EXPECT_EQ(bits.length(), 0);
  bits.set(1000);
  bits.set(7);
  EXPECT_EQ(bits.length(), 1001);
  bits.clear(1000);  // trailing zero bytes do not count
  EXPECT_EQ(bits.length(), 8);
  bits.set(200000);  // several scan chunks from the end
  bits.clear(200000);
  EXPECT_EQ(bits.length(), 8);
  EXPECT_EQ(bits.size(), 200008);
}

TEST_F(BitSetTest, RangesSetAndClearInOneScript) {
  BitSet bits(client, "r");
  bits.set_range(0, 0);  // the script's first run (NOSCRIPT, then EVAL): not counted below
  const auto before = command_calls(server, "evalsha");
  bits.set_range(3, 21);  // a partial head byte, one whole byte, a partial tail byte
  EXPECT_EQ(bits_in_redis(server, "r", 24), "000111111111111111111000");
  EXPECT_EQ(bits.cardinality(), 18);
  bits.clear_range(5, 6);
  EXPECT_EQ(bits_in_redis(server, "r", 24), "000110111111111111111000");
  bits.set_range(9, 12, false);
  EXPECT_EQ(bits_in_redis(server, "r", 24), "000110111000111111111000");
  bits.set_range(16, 16);  // empty: nothing
  EXPECT_EQ(bits.cardinality(), 14);
  EXPECT_EQ(command_calls(server, "evalsha") - before, 4);
  EXPECT_EQ(command_calls(server, "setbit"), 0);
}

TEST_F(BitSetTest, AlignedAndLargeRanges) {
  BitSet bits(client, "big");
  bits.set_range(0, 80000);
  EXPECT_EQ(bits.cardinality(), 80000);
  EXPECT_EQ(bits.size(), 80000);
  bits.clear_range(8, 79992);
  EXPECT_EQ(bits.cardinality(), 16);
  EXPECT_EQ(bits.length(), 80000);
  bits.set_range(100000, 100003);  // grows the bitmap, as SETBIT would
  EXPECT_EQ(bits.size(), 100008);
  EXPECT_EQ(bits.length(), 100003);
  bits.clear_range(0, 200000);  // clearing grows it with zeros too (Redisson's SETBIT 0)
  EXPECT_EQ(bits.cardinality(), 0);
  EXPECT_EQ(bits.size(), 200000);
}

TEST_F(BitSetTest, BitOperationsWithOtherBitmaps) {
  BitSet a(client, "{ops}:a");
  a.set_bytes(bytes_of({0xF0}));
  server.command({"SET", "{ops}:b", raw(bytes_of({0x3C}))});
  server.command({"SET", "{ops}:c", raw(bytes_of({0x0F, 0xFF}))});
  a.and_with({"{ops}:b"});
  EXPECT_EQ(a.to_bytes(), bytes_of({0x30}));
  a.or_with({"{ops}:b", "{ops}:c"});
  EXPECT_EQ(a.to_bytes(), bytes_of({0x3F, 0xFF}));
  a.xor_with({"{ops}:c"});
  EXPECT_EQ(a.to_bytes(), bytes_of({0x30, 0x00}));
  a.flip();
  EXPECT_EQ(a.to_bytes(), bytes_of({0xCF, 0xFF}));
  EXPECT_EQ(server.command({"GET", "{ops}:b"}), raw(bytes_of({0x3C})));  // others unchanged
  a.and_with({"{ops}:missing"});  // a missing bitmap is all zeros
  EXPECT_EQ(a.to_bytes(), bytes_of({0x00, 0x00}));
}

TEST_F(BitSetTest, BytesInAndOutAndClear) {
  BitSet bits(client, "bytes");
  EXPECT_TRUE(bits.to_bytes().empty());
  bits.set_bytes(bytes_of({0x00, 0xFF, 0x80}));
  EXPECT_EQ(bits.cardinality(), 9);
  EXPECT_EQ(bits.length(), 17);
  EXPECT_TRUE(bits.get(16));
  bits.clear();
  EXPECT_FALSE(bits.exists());
  EXPECT_EQ(bits.size(), 0);
}

TEST_F(BitSetTest, AsyncFormsCompleteWithTheResult) {
  BitSet bits(client, "async");
  EXPECT_FALSE(bits.async_set(9, true, asio::use_future).get());
  EXPECT_TRUE(bits.async_get(9, asio::use_future).get());
  bits.async_set_range(0, 4, true, asio::use_future).get();
  EXPECT_EQ(bits.async_cardinality(asio::use_future).get(), 5);
  EXPECT_EQ(bits.async_length(asio::use_future).get(), 10);
  EXPECT_EQ(bits.async_to_bytes(asio::use_future).get(), bytes_of({0xF0, 0x40}));
}

TEST_F(BitSetTest, BadIndexesAreRefusedBeforeSending) {
  BitSet bits(client, "bad");
  const auto scripts = command_calls(server, "evalsha") + command_calls(server, "eval");
  expect_error(
      errc::invalid_argument, [&] { bits.set(-1); }, "set(-1)");
  expect_error(
      errc::invalid_argument, [&] { bits.get(std::int64_t{1} << 32); }, "get(2^32)");
  expect_error(
      errc::invalid_argument, [&] { bits.set_range(5, 4); }, "set_range(5, 4)");
  expect_error(
      errc::invalid_argument, [&] { bits.clear_range(-2, 4); }, "clear_range(-2, 4)");
  expect_error(
      errc::invalid_argument, [&] { bits.set_range(0, (std::int64_t{1} << 32) + 1); },
      "set_range past 2^32");
  EXPECT_EQ(command_calls(server, "setbit") + command_calls(server, "getbit"), 0);
  EXPECT_EQ(command_calls(server, "evalsha") + command_calls(server, "eval"), scripts);
  EXPECT_EQ(server.command({"EXISTS", "bad"}), "0");
}

TEST_F(BitSetTest, WrongTypeKeyFailsAndChangesNothing) {
  server.command({"HSET", "hash", "f", "v"});
  BitSet bits(client, "hash");
  expect_error(
      errc::wrong_type, [&] { bits.set(1); }, "set");
  expect_error(
      errc::wrong_type, [&] { bits.get(1); }, "get");
  expect_error(
      errc::wrong_type, [&] { bits.set_range(0, 20); }, "set_range");
  expect_error(
      errc::wrong_type, [&] { bits.clear_range(8, 16); }, "clear_range aligned");
  expect_error(
      errc::wrong_type, [&] { bits.length(); }, "length");
  expect_error(
      errc::wrong_type, [&] { bits.cardinality(); }, "cardinality");
  expect_error(
      errc::wrong_type, [&] { bits.to_bytes(); }, "to_bytes");
  expect_error(
      errc::wrong_type, [&] { bits.or_with({"other"}); }, "or_with");
  EXPECT_EQ(server.command({"HGET", "hash", "f"}), "v");
}

}  // namespace

}  // namespace objects_bit_set_test
