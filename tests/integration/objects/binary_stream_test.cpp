// BinaryStream against a real redis-server: appends, positioned writes and reads, reads in
// 8192-byte chunks, the std streams over it (seeks, binary bytes, errors as stream states), a
// key of another type and bad arguments that change nothing, and Java Redisson 3.52's own calls
// (services fixtures fx2:binarystream, fx2:binarystream_channel) made again from C++.
#include "redisson/objects/binary_stream.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "redisson/batch.hpp"
#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/monitor.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_binary_stream_test {

using redisson::BinaryStream;
using redisson::Bytes;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::from_hex;
using redisson::test::Monitor;
using redisson::test::SentCommands;

namespace {

class BinaryStreamTest : public redisson::test::ServerTest {
 protected:
  /// The commands of a binary stream the client sent since `monitor` started (or last took).
  SentCommands stream_commands(Monitor& monitor) {
    SentCommands sent;
    for (auto& command : redisson::test::sent_by_clients(monitor.take(server))) {
      const auto& verb = command.front();
      if (verb == "APPEND" || verb == "SETRANGE" || verb == "GETRANGE" || verb == "STRLEN" ||
          verb == "EVALSHA" || verb == "EVAL" || verb == "DEL") {
        sent.push_back(std::move(command));
      }
    }
    return sent;
  }
};

/// `size` bytes of every value, zeros included: byte i is (i * 7 + i / 256) mod 256.
std::string binary_bytes(std::size_t size) {
  std::string bytes(size, '\0');
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 7 + i / 256) % 256);
  return bytes;
}

std::string as_string(const Bytes& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

Bytes as_bytes(std::string_view text) {
  const auto* data = reinterpret_cast<const std::byte*>(text.data());
  return {data, data + text.size()};
}

TEST_F(BinaryStreamTest, AppendsWritesAtAPositionAndReadsRanges) {
  BinaryStream stream(client, "bs");
  EXPECT_EQ(stream.append("abc"), 3);
  EXPECT_EQ(stream.append(as_bytes(std::string("\0d", 2))), 5);
  EXPECT_EQ(stream.write_at(1, "XY"), 5);
  EXPECT_EQ(as_string(stream.read(0, 100)), std::string("aXY\0d", 5));
  EXPECT_EQ(as_string(stream.read(1, 2)), "XY");
  EXPECT_EQ(stream.size(), 5);
  EXPECT_EQ(server.command({"GET", "bs"}), std::string("aXY\0d", 5));
}

TEST_F(BinaryStreamTest, WriteAtPastTheEndPadsWithZeros) {
  BinaryStream stream(client, "bs");
  EXPECT_EQ(stream.write_at(5, as_bytes("ab")), 7);
  EXPECT_EQ(server.command({"GET", "bs"}), std::string("\0\0\0\0\0ab", 7));
  EXPECT_EQ(stream.write_at(0, ""), 7);  // nothing to write
}

TEST_F(BinaryStreamTest, ReadAllReadsChunksOf8192BytesUntilAShortOne) {
  const std::string bytes = binary_bytes(20000);
  server.command({"SET", "bs", bytes});
  BinaryStream stream(client, "bs");
  Monitor monitor(server);
  EXPECT_EQ(as_string(stream.read_all()), bytes);
  EXPECT_EQ(stream_commands(monitor), (SentCommands{{"GETRANGE", "bs", "0", "8191"},
                                                    {"GETRANGE", "bs", "8192", "16383"},
                                                    {"GETRANGE", "bs", "16384", "24575"}}));

  // A size that is a multiple of the chunk: the last read finds nothing.
  server.command({"SET", "bs", bytes.substr(0, 16384)});
  EXPECT_EQ(as_string(stream.read_all()), bytes.substr(0, 16384));
  EXPECT_EQ(stream_commands(monitor).size(), 3U);
}

TEST_F(BinaryStreamTest, ReadsNothingPastTheEndOrFromAMissingKey) {
  BinaryStream stream(client, "bs");
  EXPECT_TRUE(stream.read(0, 10).empty());
  EXPECT_TRUE(stream.read_all().empty());
  EXPECT_EQ(stream.size(), 0);
  EXPECT_FALSE(stream.get().has_value());
  stream.append("abc");
  EXPECT_TRUE(stream.read(3, 10).empty());
  EXPECT_TRUE(stream.read(100, 10).empty());
  EXPECT_TRUE(stream.read(0, 0).empty());  // not the whole value (GETRANGE 0 -1 would be)
  EXPECT_EQ(as_string(stream.read(2, 1000000)), "c");
}

TEST_F(BinaryStreamTest, TruncateKeepsThePrefixAndTheTimeToLive) {
  BinaryStream stream(client, "bs");
  stream.append("abcdef");
  ASSERT_TRUE(stream.expire(std::chrono::minutes(5)));
  stream.truncate(10);
  EXPECT_EQ(server.command({"GET", "bs"}), "abcdef");
  stream.truncate(3);
  EXPECT_EQ(server.command({"GET", "bs"}), "abc");
  EXPECT_GT(stream.remaining_time_to_live(), std::chrono::minutes(4));
  stream.truncate(0);
  EXPECT_FALSE(stream.exists());
  stream.truncate(0);  // nothing there: nothing to do
}

TEST_F(BinaryStreamTest, IsABucketOfBytes) {
  BinaryStream stream(client, "bs");
  stream.set(as_bytes(std::string("a\0b", 3)));
  EXPECT_EQ(as_string(*stream.get()), std::string("a\0b", 3));
  EXPECT_EQ(server.command({"GET", "bs"}), std::string("a\0b", 3));
  EXPECT_TRUE(stream.compare_and_set(as_bytes(std::string("a\0b", 3)), as_bytes("xyz")));
  EXPECT_FALSE(stream.set_if_absent(as_bytes("no")));
  EXPECT_EQ(as_string(*stream.get_and_set(as_bytes("q"))), "xyz");
  EXPECT_EQ(stream.size(), 1);
  const auto id = stream.add_listener(redisson::ObjectEvent::set, [](std::string_view) {});
  EXPECT_TRUE(stream.remove_listener(id));
}

TEST_F(BinaryStreamTest, AsyncFormsComplete) {
  BinaryStream stream(client, "bs");
  EXPECT_EQ(stream.async_append("hello", asio::use_future).get(), 5);
  EXPECT_EQ(stream.async_write_at(0, "J", asio::use_future).get(), 5);
  EXPECT_EQ(as_string(stream.async_read(0, 5, asio::use_future).get()), "Jello");
  EXPECT_EQ(as_string(stream.async_read_all(asio::use_future).get()), "Jello");
  EXPECT_EQ(stream.async_size(asio::use_future).get(), 5);
  stream.async_truncate(1, asio::use_future).get();
  EXPECT_EQ(server.command({"GET", "bs"}), "J");
}

TEST_F(BinaryStreamTest, AKeyOfAnotherTypeIsWrongTypeAndStaysAsItWas) {
  server.command({"RPUSH", "bs", "x", "y"});
  BinaryStream stream(client, "bs");
  expect_error(
      errc::wrong_type, [&] { stream.append("a"); }, "append");
  expect_error(
      errc::wrong_type, [&] { stream.write_at(0, "a"); }, "write_at");
  expect_error(
      errc::wrong_type, [&] { (void)stream.read(0, 1); }, "read");
  expect_error(
      errc::wrong_type, [&] { (void)stream.read(0, 0); }, "read nothing");
  expect_error(
      errc::wrong_type, [&] { (void)stream.read_all(); }, "read_all");
  expect_error(
      errc::wrong_type, [&] { (void)stream.size(); }, "size");
  expect_error(
      errc::wrong_type, [&] { stream.truncate(0); }, "truncate(0)");
  expect_error(
      errc::wrong_type, [&] { stream.truncate(1); }, "truncate(1)");

  auto in = stream.istream();
  EXPECT_EQ(in.get(), std::char_traits<char>::eof());
  EXPECT_TRUE(in.bad());
  ASSERT_TRUE(in.last_error().has_value());
  EXPECT_EQ(in.last_error()->code(), errc::wrong_type);

  auto out = stream.ostream();
  out << "abc";
  EXPECT_TRUE(out.good());  // buffered
  out.flush();
  EXPECT_TRUE(out.bad());
  ASSERT_TRUE(out.last_error().has_value());
  EXPECT_EQ(out.last_error()->code(), errc::wrong_type);

  EXPECT_EQ(server.command({"TYPE", "bs"}), "list");
  EXPECT_EQ(server.command({"LLEN", "bs"}), "2");
}

TEST_F(BinaryStreamTest, NegativePositionsAndLengthsAreRefusedBeforeSending) {
  BinaryStream stream(client, "bs");
  stream.append("abc");
  Monitor monitor(server);
  expect_error(
      errc::invalid_argument, [&] { (void)stream.read(-1, 1); }, "read(-1, 1)");
  expect_error(
      errc::invalid_argument, [&] { (void)stream.read(0, -1); }, "read(0, -1)");
  expect_error(
      errc::invalid_argument, [&] { stream.write_at(-1, "x"); }, "write_at(-1)");
  expect_error(
      errc::invalid_argument, [&] { stream.truncate(-1); }, "truncate(-1)");
  expect_error(
      errc::invalid_argument, [&] { (void)stream.async_read(-5, 1, asio::use_future).get(); },
      "async_read(-5, 1)");
  EXPECT_TRUE(stream_commands(monitor).empty());
  EXPECT_EQ(server.command({"GET", "bs"}), "abc");

  auto io = stream.iostream();
  io.seekg(-1);
  EXPECT_TRUE(io.fail());
  EXPECT_FALSE(io.bad());
  EXPECT_FALSE(io.rdbuf()->last_error().has_value());
}

TEST_F(BinaryStreamTest, OStreamAppendsAndIStreamReadsBinaryBytesBack) {
  BinaryStream stream(client, "bs");
  stream.append("head:");
  const std::string bytes = binary_bytes(20000);
  {
    auto out = stream.ostream();
    out.write(bytes.data(), 100);  // buffered
    out << 'x';
    out.write(bytes.data() + 100, static_cast<std::streamsize>(bytes.size() - 100));  // at once
    out.flush();
    EXPECT_TRUE(out.good());
  }
  const std::string expected = "head:" + bytes.substr(0, 100) + "x" + bytes.substr(100);
  EXPECT_EQ(server.command({"GET", "bs"}), expected);

  auto in = stream.istream();
  const std::string read(std::istreambuf_iterator<char>(in), {});
  EXPECT_EQ(read, expected);
  EXPECT_FALSE(in.bad());
  EXPECT_FALSE(in.last_error().has_value());

  // read() of more than a chunk: what is buffered, then one GETRANGE of the rest.
  auto again = stream.istream();
  std::string head(5, '\0');
  again.read(head.data(), 5);
  EXPECT_EQ(head, "head:");
  std::string rest(expected.size(), '\0');
  again.read(rest.data(), static_cast<std::streamsize>(rest.size()));
  EXPECT_EQ(again.gcount(), static_cast<std::streamsize>(expected.size() - 5));
  EXPECT_TRUE(again.eof());
  EXPECT_FALSE(again.bad());
  rest.resize(static_cast<std::size_t>(again.gcount()));
  EXPECT_EQ(rest, expected.substr(5));

  // unget() before the start of the chunk held reads again from one byte back.
  auto third = stream.istream();
  third.seekg(8192);
  EXPECT_EQ(third.get(), static_cast<unsigned char>(expected[8192]));
  EXPECT_FALSE(third.unget().fail());  // within the chunk
  EXPECT_FALSE(third.unget().fail());  // before it
  EXPECT_EQ(third.tellg(), 8191);
  EXPECT_EQ(third.get(), static_cast<unsigned char>(expected[8191]));
  third.seekg(0);
  EXPECT_TRUE(third.unget().bad());  // nothing before the start (the standard's badbit)
  EXPECT_FALSE(third.last_error().has_value());
}

TEST_F(BinaryStreamTest, SmallWritesGoInChunksAtTheBufferSize) {
  BinaryStream stream(client, "bs");
  Monitor monitor(server);
  {
    auto out = stream.ostream();
    for (int i = 0; i < 20000; ++i) out.put(static_cast<char>(i));
  }  // the destructor flushes the rest
  const auto sent = stream_commands(monitor);
  ASSERT_EQ(sent.size(), 3U);
  EXPECT_EQ(sent[0][2].size(), 8192U);
  EXPECT_EQ(sent[1][2].size(), 8192U);
  EXPECT_EQ(sent[2][2].size(), 20000U - 16384U);
  EXPECT_EQ(stream.size(), 20000);
}

TEST_F(BinaryStreamTest, IOStreamSeeksAndWritesInTheMiddle) {
  BinaryStream stream(client, "bs");
  stream.append("0123456789");
  auto io = stream.iostream();
  io.seekp(4);
  io << "ab";
  io.seekg(0, std::ios::end);  // flushes "ab" first, then STRLEN
  EXPECT_EQ(io.tellg(), 10);
  EXPECT_EQ(server.command({"GET", "bs"}), "0123ab6789");

  io.seekg(2);
  std::string three(3, '\0');
  io.read(three.data(), 3);
  EXPECT_EQ(three, "23a");
  EXPECT_EQ(io.tellp(), 5);
  io << 'Z';                    // at the position reading left
  io.seekg(-2, std::ios::cur);  // flushes "Z" first
  EXPECT_EQ(io.get(), 'a');
  EXPECT_EQ(server.command({"GET", "bs"}), "0123aZ6789");

  // Past the end: a write pads with zeros, a read finds the end.
  io.seekp(12);
  io << "!";
  io.flush();
  EXPECT_EQ(server.command({"GET", "bs"}), std::string("0123aZ6789\0\0!", 13));
  io.seekg(100);
  EXPECT_EQ(io.get(), std::char_traits<char>::eof());
  EXPECT_TRUE(io.eof());
  EXPECT_FALSE(io.bad());
  EXPECT_FALSE(io.last_error().has_value());
}

TEST_F(BinaryStreamTest, StreamModesTruncAteAndBadbitExceptions) {
  BinaryStream stream(client, "bs");
  stream.append("old bytes");
  {
    redisson::BinaryOStream out(stream, std::ios::out | std::ios::trunc);
    out << "new";
  }
  EXPECT_EQ(server.command({"GET", "bs"}), "new");
  {
    redisson::BinaryIOStream io(stream, std::ios::in | std::ios::out | std::ios::ate);
    EXPECT_EQ(io.tellp(), 3);
    io << "er";
  }
  EXPECT_EQ(server.command({"GET", "bs"}), "newer");

  server.command({"DEL", "bs"});
  server.command({"SADD", "bs", "m"});
  auto in = stream.istream();
  in.exceptions(std::ios::badbit);
  EXPECT_THROW((void)in.get(), std::ios_base::failure);
  ASSERT_TRUE(in.last_error().has_value());
  EXPECT_EQ(in.last_error()->code(), errc::wrong_type);
}

TEST_F(BinaryStreamTest, AFailedFlushInTheDestructorGoesToTheErrorHandler) {
  server.command({"RPUSH", "bs", "x"});
  std::vector<std::error_code> reported;
  auto config = config_for(server);
  config.error_handler = [&](const redisson::error& failure) {
    reported.push_back(failure.code());
  };
  redisson::Client reporting(config);
  BinaryStream stream(reporting, "bs");
  {
    auto out = stream.ostream();
    out << "abc";
  }
  ASSERT_EQ(reported.size(), 1U);
  EXPECT_EQ(reported[0], errc::wrong_type);

  // With exceptions(badbit), a failed flush throws std::ios_base::failure.
  auto out = stream.ostream();
  out.exceptions(std::ios::badbit);
  out << "abc";
  EXPECT_THROW(out.flush(), std::ios_base::failure);
  EXPECT_EQ(out.last_error()->code(), errc::wrong_type);
  EXPECT_EQ(server.command({"LLEN", "bs"}), "1");
}

TEST_F(BinaryStreamTest, WorksInABatch) {
  redisson::Batch batch(client);
  auto stream = batch.get<BinaryStream>("bs");
  auto appended = stream.async_append("abc", asio::use_future);
  auto written = stream.async_write_at(1, "Z", asio::use_future);
  auto read = stream.async_read(0, 3, asio::use_future);
  auto size = stream.async_size(asio::use_future);
  batch.execute();
  EXPECT_EQ(appended.get(), 3);
  EXPECT_EQ(written.get(), 3);
  EXPECT_EQ(as_string(read.get()), "aZc");
  EXPECT_EQ(size.get(), 3);

  redisson::Batch other(client);
  expect_error(
      errc::invalid_argument,
      [&] { (void)other.get<BinaryStream>("bs").async_read_all(asio::use_future).get(); },
      "read_all in a batch (several round trips)");
  expect_error(
      errc::invalid_argument, [&] { batch.get<BinaryStream>("x", redisson::codecs::string()); },
      "a codec");
}

// Java Redisson 3.52's calls (services fixtures): its keys read by C++, and the same calls made
// by C++, which send Java's commands and leave Java's bytes.
TEST_F(BinaryStreamTest, SharesJavaRedissonsBinaryStreams) {
  const Bytes zero_to_nine = as_bytes(from_hex("00010203040506070809"));
  {
    // getOutputStream().write(00..09); getInputStream().readAllBytes(); size()
    const auto& java = redisson::test::java_service_case("binarystream");
    const auto key = java.at("key").get<std::string>();
    const auto& dump = redisson::test::java_service_dump_entry(key);
    ASSERT_EQ(dump.at("type"), "string");
    const auto java_bytes = from_hex(dump.at("content").at("hex").get<std::string>());

    server.command({"SET", key, java_bytes});
    BinaryStream theirs(client, key);
    EXPECT_EQ(as_string(theirs.read_all()),
              from_hex(java.at("readback").at("bytes_hex").get<std::string>()));
    EXPECT_EQ(theirs.size(), java.at("size").get<std::int64_t>());

    server.command({"DEL", key});
    Monitor monitor(server);
    BinaryStream ours(client, key);
    {
      auto out = ours.ostream();
      out.write(reinterpret_cast<const char*>(zero_to_nine.data()), 10);
    }
    EXPECT_EQ(ours.read_all(), zero_to_nine);
    EXPECT_EQ(ours.size(), 10);
    const auto java_sent = redisson::test::java_sent_commands("binarystream");
    // Java's readAllBytes() asks a second chunk at 8192, its InputStream having moved by the
    // length asked, not the length read; ours stops at the first short chunk.
    ASSERT_EQ(java_sent.size(), 4U);
    EXPECT_EQ(java_sent[2], (std::vector<std::string>{"GETRANGE", key, "8192", "16373"}));
    EXPECT_EQ(stream_commands(monitor), (SentCommands{java_sent[0], java_sent[1], java_sent[3]}));
    EXPECT_EQ(server.command({"GET", key}), java_bytes);
  }
  {
    // getOutputStream().write(00..09); getChannel(): position(8).write(aa bb cc);
    // position(2).read(4 bytes); size()
    const auto& java = redisson::test::java_service_case("binarystream_channel");
    const auto key = java.at("key").get<std::string>();
    const auto& dump = redisson::test::java_service_dump_entry(key);
    const auto java_bytes = from_hex(dump.at("content").at("hex").get<std::string>());

    server.command({"SET", key, java_bytes});
    BinaryStream theirs(client, key);
    EXPECT_EQ(as_string(theirs.read(2, 4)), from_hex(java.at("read_hex").get<std::string>()));

    server.command({"DEL", key});
    Monitor monitor(server);
    BinaryStream ours(client, key);
    ours.append(zero_to_nine);
    EXPECT_EQ(ours.write_at(8, from_hex("aabbcc")), 11);
    EXPECT_EQ(as_string(ours.read(2, 4)), from_hex(java.at("read_hex").get<std::string>()));
    EXPECT_EQ(ours.size(), java.at("size").get<std::int64_t>());
    EXPECT_EQ(stream_commands(monitor), redisson::test::java_sent_commands("binarystream_channel"));
    EXPECT_EQ(server.command({"GET", key}), java_bytes);
  }
}

}  // namespace

}  // namespace objects_binary_stream_test
