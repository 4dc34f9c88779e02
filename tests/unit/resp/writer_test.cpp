#include "resp/writer.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "resp/parser.hpp"

namespace unit_resp_writer_test {

namespace {

using namespace std::literals;
using redisson::detail::resp::append_array_header;
using redisson::detail::resp::append_bulk;
using redisson::detail::resp::append_command;
using redisson::detail::resp::encode_command;

TEST(Writer, ArrayHeaderIsStarCountCrlf) {
  std::string out;
  append_array_header(out, 0);
  append_array_header(out, 3);
  append_array_header(out, 1234567);
  EXPECT_EQ(out, "*0\r\n*3\r\n*1234567\r\n");
}

TEST(Writer, BulkIsDollarLengthPayloadCrlf) {
  std::string out;
  append_bulk(out, "foo");
  EXPECT_EQ(out, "$3\r\nfoo\r\n");
}

TEST(Writer, EncodeCommandGivesArrayOfBulks) {
  EXPECT_EQ(encode_command({"SET", "key", "value"}),
            "*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$5\r\nvalue\r\n");
  EXPECT_EQ(encode_command({"PING"}), "*1\r\n$4\r\nPING\r\n");
}

TEST(Writer, EmptyArgumentIsZeroLengthBulk) {
  EXPECT_EQ(encode_command({"SET", "k", ""}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
}

TEST(Writer, EmptyCommandIsEmptyArray) { EXPECT_EQ(encode_command({}), "*0\r\n"); }

TEST(Writer, BinaryArgumentsAreLengthPrefixedNotEscaped) {
  const std::string binary = "a\0b\r\nc\r\n"s;
  EXPECT_EQ(encode_command({"SET", binary}), "*2\r\n$3\r\nSET\r\n$8\r\na\0b\r\nc\r\n\r\n"s);
}

TEST(Writer, LongArgumentHasMultiDigitLength) {
  const std::string value(12345, 'x');
  const std::string encoded = encode_command({value});
  EXPECT_EQ(encoded, "*1\r\n$12345\r\n" + value + "\r\n");
}

TEST(Writer, AppendCommandAppendsToExistingBuffer) {
  std::string out = "*1\r\n$4\r\nPING\r\n";
  const std::array<std::string_view, 2> get = {"GET", "k"};
  append_command(out, get);
  append_command(out, get);
  EXPECT_EQ(out,
            "*1\r\n$4\r\nPING\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
}

TEST(Writer, ManyCommandsInOneBufferStayExact) {
  std::string out;
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "key:" + std::to_string(i);
    const std::array<std::string_view, 2> args = {"INCR", key};
    append_command(out, args);
    expected += "*2\r\n$4\r\nINCR\r\n$" + std::to_string(key.size()) + "\r\n" + key + "\r\n";
  }
  EXPECT_EQ(out, expected);
}

TEST(Writer, EncodedCommandParsesBackToTheSameArguments) {
  const std::vector<std::string> args = {"HSET", "", "f\r\n", "\0\0"s, std::string(70000, 'v')};
  std::vector<std::string_view> views(args.begin(), args.end());
  std::string out;
  append_command(out, views);

  redisson::detail::resp::Parser parser;
  redisson::Reply reply;
  std::error_code ec;
  const auto result = parser.parse(out, reply, ec);
  ASSERT_EQ(result.status, redisson::detail::resp::ParseStatus::reply_ready);
  EXPECT_EQ(result.consumed, out.size());
  ASSERT_EQ(reply.elements.size(), args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    EXPECT_EQ(reply.elements[i].type, redisson::ReplyType::bulk_string);
    EXPECT_EQ(reply.elements[i].str, args[i]);
  }
}

}  // namespace

}  // namespace unit_resp_writer_test
