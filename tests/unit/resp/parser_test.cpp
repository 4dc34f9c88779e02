#include "resp/parser.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "redisson/error.hpp"
#include "redisson/reply.hpp"

namespace unit_resp_parser_test {

namespace {

using namespace std::literals;
using redisson::Reply;
using redisson::ReplyType;
using redisson::detail::resp::Parser;
using redisson::detail::resp::ParseResult;
using redisson::detail::resp::ParserLimits;
using redisson::detail::resp::ParseStatus;

// What a caller sees from a sequence of input pieces.
struct Outcome {
  std::vector<Reply> replies;
  bool failed = false;
  std::string message;
};

// Feeds the pieces in order and drops consumed bytes, as a connection does.
Outcome feed(Parser& parser, const std::vector<std::string_view>& pieces) {
  Outcome outcome;
  for (std::string_view piece : pieces) {
    while (!piece.empty()) {
      Reply reply;
      std::error_code ec;
      const ParseResult result = parser.parse(piece, reply, ec);
      if (result.status == ParseStatus::error) {
        EXPECT_EQ(ec, make_error_code(redisson::errc::protocol_error));
        EXPECT_FALSE(parser.error_message().empty());
        outcome.failed = true;
        outcome.message = parser.error_message();
        return outcome;
      }
      EXPECT_FALSE(ec);
      EXPECT_LE(result.consumed, piece.size());
      if (result.status == ParseStatus::need_more) {
        EXPECT_EQ(result.consumed, piece.size()) << "need_more must consume all input";
        break;
      }
      EXPECT_GT(result.consumed, 0u);
      piece.remove_prefix(result.consumed);
      outcome.replies.push_back(std::move(reply));
    }
  }
  return outcome;
}

Outcome parse_whole(std::string_view input, ParserLimits limits = {}) {
  Parser parser(limits);
  return feed(parser, {input});
}

Outcome parse_byte_by_byte(std::string_view input, ParserLimits limits = {}) {
  Parser parser(limits);
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < input.size(); ++i) pieces.push_back(input.substr(i, 1));
  return feed(parser, pieces);
}

// Parses input that must hold exactly one reply.
Reply parse_one(std::string_view input) {
  Outcome outcome = parse_whole(input);
  EXPECT_FALSE(outcome.failed) << outcome.message;
  EXPECT_EQ(outcome.replies.size(), 1u);
  return outcome.replies.empty() ? Reply{} : std::move(outcome.replies.front());
}

bool same_reply(const Reply& a, const Reply& b) {
  const bool same_number = a.number == b.number || (std::isnan(a.number) && std::isnan(b.number));
  if (a.type != b.type || a.integer != b.integer || !same_number || a.str != b.str ||
      a.format != b.format || a.elements.size() != b.elements.size() ||
      a.attributes.size() != b.attributes.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.elements.size(); ++i) {
    if (!same_reply(a.elements[i], b.elements[i])) return false;
  }
  for (std::size_t i = 0; i < a.attributes.size(); ++i) {
    if (!same_reply(a.attributes[i], b.attributes[i])) return false;
  }
  return true;
}

::testing::AssertionResult same_outcome(const Outcome& expected, const Outcome& actual) {
  if (expected.failed != actual.failed || expected.message != actual.message) {
    return ::testing::AssertionFailure()
           << "error differs: '" << expected.message << "' vs '" << actual.message << "'";
  }
  if (expected.replies.size() != actual.replies.size()) {
    return ::testing::AssertionFailure()
           << "reply count " << expected.replies.size() << " vs " << actual.replies.size();
  }
  for (std::size_t i = 0; i < expected.replies.size(); ++i) {
    if (!same_reply(expected.replies[i], actual.replies[i])) {
      return ::testing::AssertionFailure() << "reply " << i << " differs:\n"
                                           << expected.replies[i].to_display_string() << "\nvs\n"
                                           << actual.replies[i].to_display_string();
    }
  }
  return ::testing::AssertionSuccess();
}

// Checks that the input is rejected with a message containing `reason`, whole and byte by byte.
void expect_protocol_error(std::string_view input, std::string_view reason,
                           ParserLimits limits = {}) {
  SCOPED_TRACE(::testing::Message() << "input: " << ::testing::PrintToString(std::string(input)));
  const Outcome whole = parse_whole(input, limits);
  EXPECT_TRUE(whole.failed);
  EXPECT_NE(whole.message.find(reason), std::string::npos) << whole.message;
  const Outcome bytes = parse_byte_by_byte(input, limits);
  EXPECT_TRUE(bytes.failed);
  EXPECT_EQ(bytes.message, whole.message);
}

// One reply of every kind, nested aggregates, attributes, binary payloads and nulls.
const std::string kSampleStream =
    "+OK\r\n"
    "-ERR unknown command\r\n"
    ":-1234567890123\r\n"
    "$11\r\nbin\0ary\r\nxy\r\n"s
    "$0\r\n\r\n"
    "$-1\r\n"
    "*-1\r\n"
    "_\r\n"
    "#t\r\n"
    "#f\r\n"
    ",3.25\r\n"
    ",-inf\r\n"
    ",1.5e-3\r\n"
    "(3492890328409238509324850943850943825024385\r\n"
    "!21\r\nSYNTAX invalid syntax\r\n"
    "=15\r\ntxt:Some string\r\n"
    "*3\r\n:1\r\n*2\r\n+a\r\n$1\r\nb\r\n%1\r\n+k\r\n~2\r\n:1\r\n:2\r\n"
    "%2\r\n+first\r\n:1\r\n$6\r\nsecond\r\n*0\r\n"
    "~0\r\n"
    ">3\r\n$7\r\nmessage\r\n$7\r\nchannel\r\n$5\r\nhello\r\n"
    "|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.1923\r\n$1\r\nb\r\n,0.0012\r\n"
    "*2\r\n:2039123\r\n:9543892\r\n"
    "*2\r\n|1\r\n+ttl\r\n:3600\r\n$3\r\nval\r\n_\r\n"
    "$2\r\n\r\n\r\n";

// ---- Each type and its fields -------------------------------------------------------------

TEST(Parser, SimpleStringGivesText) {
  const Reply reply = parse_one("+OK\r\n");
  EXPECT_EQ(reply.type, ReplyType::simple_string);
  EXPECT_EQ(reply.str, "OK");
  EXPECT_TRUE(reply.is_string());
}

TEST(Parser, EmptySimpleStringIsAllowed) {
  const Reply reply = parse_one("+\r\n");
  EXPECT_EQ(reply.type, ReplyType::simple_string);
  EXPECT_EQ(reply.str, "");
}

TEST(Parser, ErrorGivesErrorText) {
  const Reply reply = parse_one("-WRONGTYPE Operation against a key\r\n");
  EXPECT_EQ(reply.type, ReplyType::error);
  EXPECT_EQ(reply.str, "WRONGTYPE Operation against a key");
  EXPECT_TRUE(reply.is_error());
}

TEST(Parser, IntegerGivesValue) {
  EXPECT_EQ(parse_one(":12\r\n").integer, 12);
  EXPECT_EQ(parse_one(":0\r\n").integer, 0);
  EXPECT_EQ(parse_one(":-7\r\n").integer, -7);
  EXPECT_EQ(parse_one(":+7\r\n").integer, 7);
  EXPECT_EQ(parse_one(":9223372036854775807\r\n").integer,
            std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(parse_one(":-9223372036854775808\r\n").integer,
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(parse_one(":5\r\n").type, ReplyType::integer);
}

TEST(Parser, BulkStringKeepsBinaryPayload) {
  const Reply reply = parse_one("$8\r\na\0b\r\nc\r\n\r\n"s);
  EXPECT_EQ(reply.type, ReplyType::bulk_string);
  EXPECT_EQ(reply.str, "a\0b\r\nc\r\n"s);
}

TEST(Parser, EmptyBulkStringIsEmptyNotNull) {
  const Reply reply = parse_one("$0\r\n\r\n");
  EXPECT_EQ(reply.type, ReplyType::bulk_string);
  EXPECT_EQ(reply.str, "");
}

TEST(Parser, LargeBulkStringSplitInChunksIsAssembled) {
  const std::string payload(200000, 'z');
  const std::string input = "$200000\r\n" + payload + "\r\n";
  Parser parser;
  std::vector<std::string_view> pieces;
  for (std::size_t at = 0; at < input.size(); at += 4096) {
    pieces.push_back(std::string_view(input).substr(at, 4096));
  }
  const Outcome outcome = feed(parser, pieces);
  ASSERT_EQ(outcome.replies.size(), 1u);
  EXPECT_EQ(outcome.replies[0].str, payload);
}

TEST(Parser, NullBulkAndNullArrayGiveNull) {
  EXPECT_EQ(parse_one("$-1\r\n").type, ReplyType::null);
  EXPECT_EQ(parse_one("*-1\r\n").type, ReplyType::null);
  EXPECT_TRUE(parse_one("_\r\n").is_null());
}

TEST(Parser, BooleanGivesZeroOrOne) {
  const Reply yes = parse_one("#t\r\n");
  EXPECT_EQ(yes.type, ReplyType::boolean);
  EXPECT_EQ(yes.integer, 1);
  const Reply no = parse_one("#f\r\n");
  EXPECT_EQ(no.type, ReplyType::boolean);
  EXPECT_EQ(no.integer, 0);
}

TEST(Parser, DoubleGivesNumberAndWireText) {
  const Reply plain = parse_one(",1.5\r\n");
  EXPECT_EQ(plain.type, ReplyType::double_value);
  EXPECT_EQ(plain.number, 1.5);
  EXPECT_EQ(plain.str, "1.5");
  EXPECT_EQ(parse_one(",10\r\n").number, 10.0);
  EXPECT_EQ(parse_one(",-2.5\r\n").number, -2.5);
  EXPECT_EQ(parse_one(",+2.5\r\n").number, 2.5);
  EXPECT_EQ(parse_one(",1e10\r\n").number, 1e10);
  EXPECT_EQ(parse_one(",-1.5E-3\r\n").number, -1.5e-3);
  EXPECT_EQ(parse_one(",1.7976931348623157e308\r\n").number, std::numeric_limits<double>::max());

  const Reply inf = parse_one(",inf\r\n");
  EXPECT_TRUE(std::isinf(inf.number));
  EXPECT_GT(inf.number, 0);
  EXPECT_EQ(inf.str, "inf");
  const Reply negative_inf = parse_one(",-inf\r\n");
  EXPECT_TRUE(std::isinf(negative_inf.number));
  EXPECT_LT(negative_inf.number, 0);
  const Reply nan = parse_one(",nan\r\n");
  EXPECT_TRUE(std::isnan(nan.number));
  EXPECT_EQ(nan.str, "nan");
}

TEST(Parser, BigNumberKeepsDecimalText) {
  const Reply reply = parse_one("(3492890328409238509324850943850943825024385\r\n");
  EXPECT_EQ(reply.type, ReplyType::big_number);
  EXPECT_EQ(reply.str, "3492890328409238509324850943850943825024385");
  EXPECT_EQ(parse_one("(-12\r\n").str, "-12");
}

TEST(Parser, BulkErrorGivesError) {
  const Reply reply = parse_one("!21\r\nSYNTAX invalid syntax\r\n");
  EXPECT_EQ(reply.type, ReplyType::error);
  EXPECT_EQ(reply.str, "SYNTAX invalid syntax");
}

TEST(Parser, VerbatimSplitsFormatAndText) {
  const Reply reply = parse_one("=15\r\ntxt:Some string\r\n");
  EXPECT_EQ(reply.type, ReplyType::verbatim);
  EXPECT_EQ(reply.format, "txt");
  EXPECT_EQ(reply.str, "Some string");
  EXPECT_TRUE(reply.is_string());

  const Reply empty = parse_one("=4\r\nmkd:\r\n");
  EXPECT_EQ(empty.format, "mkd");
  EXPECT_EQ(empty.str, "");
}

TEST(Parser, ArrayGivesElementsInOrder) {
  const Reply reply = parse_one("*3\r\n$3\r\nfoo\r\n:42\r\n+bar\r\n");
  EXPECT_EQ(reply.type, ReplyType::array);
  ASSERT_EQ(reply.elements.size(), 3u);
  EXPECT_EQ(reply.elements[0].type, ReplyType::bulk_string);
  EXPECT_EQ(reply.elements[0].str, "foo");
  EXPECT_EQ(reply.elements[1].integer, 42);
  EXPECT_EQ(reply.elements[2].str, "bar");
  EXPECT_TRUE(reply.is_aggregate());
}

TEST(Parser, NestedArraysKeepTheirShape) {
  const Reply reply = parse_one("*2\r\n*2\r\n:1\r\n*1\r\n$-1\r\n*0\r\n");
  ASSERT_EQ(reply.elements.size(), 2u);
  ASSERT_EQ(reply.elements[0].elements.size(), 2u);
  EXPECT_EQ(reply.elements[0].elements[0].integer, 1);
  ASSERT_EQ(reply.elements[0].elements[1].elements.size(), 1u);
  EXPECT_TRUE(reply.elements[0].elements[1].elements[0].is_null());
  EXPECT_EQ(reply.elements[1].type, ReplyType::array);
  EXPECT_TRUE(reply.elements[1].elements.empty());
}

TEST(Parser, MapGivesKeysAndValuesAlternating) {
  const Reply reply = parse_one("%2\r\n+first\r\n:1\r\n$6\r\nsecond\r\n#t\r\n");
  EXPECT_EQ(reply.type, ReplyType::map);
  ASSERT_EQ(reply.elements.size(), 4u);
  EXPECT_EQ(reply.elements[0].str, "first");
  EXPECT_EQ(reply.elements[1].integer, 1);
  EXPECT_EQ(reply.elements[2].str, "second");
  EXPECT_EQ(reply.elements[3].type, ReplyType::boolean);
}

TEST(Parser, SetGivesElements) {
  const Reply reply = parse_one("~3\r\n+a\r\n+b\r\n+c\r\n");
  EXPECT_EQ(reply.type, ReplyType::set);
  ASSERT_EQ(reply.elements.size(), 3u);
  EXPECT_EQ(reply.elements[2].str, "c");
}

TEST(Parser, PushGivesElements) {
  const Reply reply = parse_one(">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n");
  EXPECT_EQ(reply.type, ReplyType::push);
  ASSERT_EQ(reply.elements.size(), 3u);
  EXPECT_EQ(reply.elements[0].str, "message");
  EXPECT_EQ(reply.elements[1].str, "ch");
  EXPECT_EQ(reply.elements[2].str, "hello");
}

TEST(Parser, EmptyAggregatesKeepTheirType) {
  EXPECT_EQ(parse_one("*0\r\n").type, ReplyType::array);
  EXPECT_EQ(parse_one("%0\r\n").type, ReplyType::map);
  EXPECT_EQ(parse_one("~0\r\n").type, ReplyType::set);
  EXPECT_EQ(parse_one(">0\r\n").type, ReplyType::push);
}

TEST(Parser, AttributeIsAttachedToFollowingValue) {
  const Reply reply = parse_one(
      "|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.1923\r\n$1\r\nb\r\n,0.0012\r\n"
      "*2\r\n:2039123\r\n:9543892\r\n");
  EXPECT_EQ(reply.type, ReplyType::array);
  ASSERT_EQ(reply.elements.size(), 2u);
  EXPECT_EQ(reply.elements[0].integer, 2039123);
  EXPECT_TRUE(reply.elements[0].attributes.empty());
  ASSERT_EQ(reply.attributes.size(), 2u);
  EXPECT_EQ(reply.attributes[0].str, "key-popularity");
  ASSERT_EQ(reply.attributes[1].type, ReplyType::map);
  ASSERT_EQ(reply.attributes[1].elements.size(), 4u);
  EXPECT_EQ(reply.attributes[1].elements[1].number, 0.1923);
}

TEST(Parser, AttributeOnScalarIsAttachedToIt) {
  const Reply reply = parse_one("|1\r\n+ttl\r\n:3600\r\n$3\r\nval\r\n");
  EXPECT_EQ(reply.type, ReplyType::bulk_string);
  EXPECT_EQ(reply.str, "val");
  ASSERT_EQ(reply.attributes.size(), 2u);
  EXPECT_EQ(reply.attributes[0].str, "ttl");
  EXPECT_EQ(reply.attributes[1].integer, 3600);
}

TEST(Parser, AttributeInsideAggregateAnnotatesElementAndIsNotCounted) {
  const Reply reply = parse_one("*2\r\n|1\r\n+a\r\n+b\r\n:1\r\n:2\r\n");
  EXPECT_TRUE(reply.attributes.empty());
  ASSERT_EQ(reply.elements.size(), 2u);
  ASSERT_EQ(reply.elements[0].attributes.size(), 2u);
  EXPECT_EQ(reply.elements[0].attributes[0].str, "a");
  EXPECT_EQ(reply.elements[0].integer, 1);
  EXPECT_TRUE(reply.elements[1].attributes.empty());
}

TEST(Parser, ConsecutiveAttributesAreMerged) {
  const Reply reply = parse_one("|1\r\n+a\r\n:1\r\n|1\r\n+b\r\n:2\r\n+OK\r\n");
  EXPECT_EQ(reply.str, "OK");
  ASSERT_EQ(reply.attributes.size(), 4u);
  EXPECT_EQ(reply.attributes[0].str, "a");
  EXPECT_EQ(reply.attributes[2].str, "b");
}

TEST(Parser, AttributesDoNotLeakIntoTheNextReply) {
  const Outcome outcome = parse_whole("|1\r\n+a\r\n:1\r\n+OK\r\n+NEXT\r\n");
  ASSERT_EQ(outcome.replies.size(), 2u);
  EXPECT_EQ(outcome.replies[0].attributes.size(), 2u);
  EXPECT_TRUE(outcome.replies[1].attributes.empty());
}

TEST(Parser, EmptyAttributeAnnotatesNothing) {
  const Reply reply = parse_one("|0\r\n:5\r\n");
  EXPECT_EQ(reply.integer, 5);
  EXPECT_TRUE(reply.attributes.empty());
}

// ---- Streams, splits and reuse --------------------------------------------------------------

TEST(Parser, SampleStreamGivesOneReplyOfEachType) {
  const Outcome outcome = parse_whole(kSampleStream);
  ASSERT_FALSE(outcome.failed) << outcome.message;
  const std::vector<ReplyType> expected = {
      ReplyType::simple_string, ReplyType::error,        ReplyType::integer,
      ReplyType::bulk_string,   ReplyType::bulk_string,  ReplyType::null,
      ReplyType::null,          ReplyType::null,         ReplyType::boolean,
      ReplyType::boolean,       ReplyType::double_value, ReplyType::double_value,
      ReplyType::double_value,  ReplyType::big_number,   ReplyType::error,
      ReplyType::verbatim,      ReplyType::array,        ReplyType::map,
      ReplyType::set,           ReplyType::push,         ReplyType::array,
      ReplyType::array,         ReplyType::bulk_string};
  ASSERT_EQ(outcome.replies.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(outcome.replies[i].type, expected[i]) << "reply " << i;
  }
  EXPECT_EQ(outcome.replies[3].str, "bin\0ary\r\nxy"s);
  EXPECT_EQ(outcome.replies[22].str, "\r\n");
  EXPECT_EQ(
      outcome.replies[16].to_display_string(),
      "1) (integer) 1\n2) 1) a\n   2) \"b\"\n3) 1# k => 1~ (integer) 1\n      2~ (integer) 2");
  EXPECT_EQ(outcome.replies[21].elements[0].attributes.size(), 2u);
}

TEST(Parser, SplitAtEveryByteGivesSameReplies) {
  const Outcome whole = parse_whole(kSampleStream);
  ASSERT_FALSE(whole.failed);
  const std::string_view stream = kSampleStream;
  for (std::size_t at = 0; at <= stream.size(); ++at) {
    Parser parser;
    const Outcome split = feed(parser, {stream.substr(0, at), stream.substr(at)});
    EXPECT_TRUE(same_outcome(whole, split)) << "split at " << at;
  }
}

TEST(Parser, OneByteAtATimeGivesSameReplies) {
  const Outcome whole = parse_whole(kSampleStream);
  EXPECT_TRUE(same_outcome(whole, parse_byte_by_byte(kSampleStream)));
}

TEST(Parser, SeveralRepliesInOneBufferComeOutInOrder) {
  const Outcome outcome = parse_whole("+OK\r\n:1\r\n$3\r\nfoo\r\n*1\r\n:2\r\n-ERR x\r\n");
  ASSERT_EQ(outcome.replies.size(), 5u);
  EXPECT_EQ(outcome.replies[0].str, "OK");
  EXPECT_EQ(outcome.replies[1].integer, 1);
  EXPECT_EQ(outcome.replies[2].str, "foo");
  EXPECT_EQ(outcome.replies[3].elements.at(0).integer, 2);
  EXPECT_EQ(outcome.replies[4].str, "ERR x");
}

TEST(Parser, ReplyReadyConsumesExactlyOneReply) {
  Parser parser;
  Reply reply;
  std::error_code ec;
  const std::string_view input = "$3\r\nfoo\r\n+OK\r\n";
  const ParseResult first = parser.parse(input, reply, ec);
  EXPECT_EQ(first.status, ParseStatus::reply_ready);
  EXPECT_EQ(first.consumed, 9u);
  const ParseResult second = parser.parse(input.substr(first.consumed), reply, ec);
  EXPECT_EQ(second.status, ParseStatus::reply_ready);
  EXPECT_EQ(second.consumed, 5u);
  EXPECT_EQ(reply.str, "OK");
}

TEST(Parser, EmptyInputNeedsMore) {
  Parser parser;
  Reply reply;
  std::error_code ec;
  const ParseResult result = parser.parse("", reply, ec);
  EXPECT_EQ(result.status, ParseStatus::need_more);
  EXPECT_EQ(result.consumed, 0u);
}

TEST(Parser, IncompleteReplyNeedsMoreAndConsumesEverything) {
  for (const std::string_view partial : {"+O"sv, "$3\r\nfo"sv, "*2\r\n:1\r\n"sv, ":12\r"sv}) {
    Parser parser;
    Reply reply;
    std::error_code ec;
    const ParseResult result = parser.parse(partial, reply, ec);
    EXPECT_EQ(result.status, ParseStatus::need_more) << partial;
    EXPECT_EQ(result.consumed, partial.size()) << partial;
  }
}

TEST(Parser, OutIsOverwrittenNotMerged) {
  Reply stale;
  stale.type = ReplyType::map;
  stale.integer = 9;
  stale.number = 9.5;
  stale.str = "stale";
  stale.format = "txt";
  stale.elements.resize(3);
  stale.attributes.resize(2);

  for (const std::string_view input : {"+OK\r\n"sv, "*1\r\n:1\r\n"sv, "#t\r\n"sv}) {
    Reply out = stale;
    Parser parser;
    std::error_code ec;
    ASSERT_EQ(parser.parse(input, out, ec).status, ParseStatus::reply_ready);
    EXPECT_TRUE(same_reply(out, parse_one(input))) << out.to_display_string();
  }
  // A reply completed in a later call goes to the Reply passed to that call.
  Reply out = stale;
  Parser parser;
  std::error_code ec;
  ASSERT_EQ(parser.parse("+O", out, ec).status, ParseStatus::need_more);
  ASSERT_EQ(parser.parse("K\r\n", out, ec).status, ParseStatus::reply_ready);
  EXPECT_TRUE(same_reply(out, parse_one("+OK\r\n")));
}

TEST(Parser, IsReusableAfterReplyIsMovedOut) {
  Parser parser;
  Reply out;
  std::error_code ec;
  std::vector<Reply> replies;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(parser.parse("*2\r\n+a\r\n$1\r\nb\r\n", out, ec).status, ParseStatus::reply_ready);
    replies.push_back(std::move(out));
  }
  for (const Reply& reply : replies) {
    ASSERT_EQ(reply.elements.size(), 2u);
    EXPECT_EQ(reply.elements[1].str, "b");
  }
}

TEST(Parser, MovedParserKeepsPartialState) {
  Parser first;
  Reply reply;
  std::error_code ec;
  ASSERT_EQ(first.parse("*2\r\n|1\r\n+a\r\n+b\r\n$3\r\nfo", reply, ec).status,
            ParseStatus::need_more);
  Parser second = std::move(first);
  ASSERT_EQ(second.parse("o\r\n:2\r\n", reply, ec).status, ParseStatus::reply_ready);
  ASSERT_EQ(reply.elements.size(), 2u);
  EXPECT_EQ(reply.elements[0].str, "foo");
  EXPECT_EQ(reply.elements[0].attributes.size(), 2u);
  EXPECT_EQ(reply.elements[1].integer, 2);
}

TEST(Parser, DepthUpToLimitIsAccepted) {
  std::string input;
  for (int i = 0; i < 64; ++i) input += "*1\r\n";
  input += ":1\r\n";
  const Reply reply = parse_one(input);
  const Reply* inner = &reply;
  int depth = 0;
  while (inner->type == ReplyType::array) {
    inner = &inner->elements.at(0);
    ++depth;
  }
  EXPECT_EQ(depth, 64);
  EXPECT_EQ(inner->integer, 1);
}

TEST(Parser, LineOfExactlyMaxLengthIsAccepted) {
  ParserLimits limits;
  limits.max_line_length = 8;
  const Outcome outcome = parse_whole("+1234567\r\n", limits);
  ASSERT_EQ(outcome.replies.size(), 1u);
  EXPECT_EQ(outcome.replies[0].str, "1234567");
  EXPECT_TRUE(same_outcome(outcome, parse_byte_by_byte("+1234567\r\n", limits)));
}

// ---- Malformed input ------------------------------------------------------------------------

TEST(Parser, InvalidTypeByteIsProtocolError) {
  expect_protocol_error("x\r\n", "invalid type byte 'x'");
  expect_protocol_error("\x01\r\n", "invalid type byte 0x01");
  expect_protocol_error("+OK\r\nhello\r\n", "invalid type byte 'h'");
}

TEST(Parser, EmptyLineIsProtocolError) { expect_protocol_error("\r\n", "empty line"); }

TEST(Parser, NonNumericIntegerIsProtocolError) {
  expect_protocol_error(":12a\r\n", "invalid integer");
  expect_protocol_error(":\r\n", "invalid integer");
  expect_protocol_error(":-\r\n", "invalid integer");
  expect_protocol_error(": 1\r\n", "invalid integer");
  expect_protocol_error(":+-1\r\n", "invalid integer");
  expect_protocol_error(":1.5\r\n", "invalid integer");
}

TEST(Parser, IntegerOverflowIsProtocolError) {
  expect_protocol_error(":9223372036854775808\r\n", "integer overflow");
  expect_protocol_error(":-9223372036854775809\r\n", "integer overflow");
  expect_protocol_error(":99999999999999999999999\r\n", "integer overflow");
}

TEST(Parser, NegativeLengthOtherThanMinusOneIsProtocolError) {
  expect_protocol_error("$-2\r\n", "negative bulk length");
  expect_protocol_error("*-2\r\n", "negative aggregate length");
  expect_protocol_error("%-5\r\n", "negative aggregate length");
  expect_protocol_error("|-1\r\n", "negative aggregate length");
  expect_protocol_error("$-9223372036854775808\r\n", "negative bulk length");
}

TEST(Parser, NonNumericLengthIsProtocolError) {
  expect_protocol_error("$abc\r\n", "invalid bulk length");
  expect_protocol_error("$?\r\n", "invalid bulk length");
  expect_protocol_error("*x\r\n", "invalid aggregate length");
  expect_protocol_error("$99999999999999999999\r\n", "invalid bulk length");
}

TEST(Parser, BulkLengthOverLimitIsProtocolError) {
  ParserLimits limits;
  limits.max_bulk_length = 10;
  expect_protocol_error("$11\r\n01234567890\r\n", "bulk length exceeds limit", limits);
  expect_protocol_error("=11\r\ntxt:4567890\r\n", "bulk length exceeds limit", limits);
  expect_protocol_error("!11\r\n01234567890\r\n", "bulk length exceeds limit", limits);
  EXPECT_EQ(parse_whole("$10\r\n0123456789\r\n", limits).replies.size(), 1u);
  expect_protocol_error("$536870913\r\n", "bulk length exceeds limit");
}

TEST(Parser, AggregateLengthOverLimitIsProtocolError) {
  ParserLimits limits;
  limits.max_aggregate_length = 4;
  expect_protocol_error("*5\r\n", "aggregate length exceeds limit", limits);
  expect_protocol_error("%5\r\n", "aggregate length exceeds limit", limits);
  expect_protocol_error("~5\r\n", "aggregate length exceeds limit", limits);
  expect_protocol_error(">5\r\n", "aggregate length exceeds limit", limits);
  expect_protocol_error("|5\r\n", "aggregate length exceeds limit", limits);
  expect_protocol_error("*268435457\r\n", "aggregate length exceeds limit");
}

TEST(Parser, DepthOverLimitIsProtocolError) {
  ParserLimits limits;
  limits.max_depth = 3;
  EXPECT_EQ(parse_whole("*1\r\n*1\r\n*1\r\n:1\r\n", limits).replies.size(), 1u);
  expect_protocol_error("*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", "nesting depth exceeds limit", limits);
  expect_protocol_error("*1\r\n%1\r\n~1\r\n>0\r\n", "nesting depth exceeds limit", limits);
  expect_protocol_error("*1\r\n*1\r\n*1\r\n|1\r\n", "nesting depth exceeds limit", limits);

  std::string deep;
  for (int i = 0; i < 65; ++i) deep += "*1\r\n";
  expect_protocol_error(deep, "nesting depth exceeds limit");
}

TEST(Parser, MissingCrlfAfterBulkPayloadIsProtocolError) {
  expect_protocol_error("$3\r\nfooXY", "missing CRLF after bulk payload");
  expect_protocol_error("$3\r\nfoo\rX", "missing CRLF after bulk payload");
  expect_protocol_error("$3\r\nfoobar\r\n", "missing CRLF after bulk payload");
  expect_protocol_error("=5\r\ntxt:abc\r\n", "missing CRLF after bulk payload");
}

TEST(Parser, CarriageReturnWithoutLineFeedIsProtocolError) {
  expect_protocol_error("+OK\rX\n", "expected '\\n' after '\\r'");
  expect_protocol_error(":1\r\r\n", "expected '\\n' after '\\r'");
}

TEST(Parser, LineLongerThanLimitIsProtocolError) {
  ParserLimits limits;
  limits.max_line_length = 8;
  expect_protocol_error("+123456789", "line exceeds limit", limits);
  expect_protocol_error("+12345678\r\n", "line exceeds limit", limits);
  expect_protocol_error("$123456789\r\n", "line exceeds limit", limits);
  expect_protocol_error(std::string(100000, '+'), "line exceeds limit");
}

TEST(Parser, MalformedScalarsAreProtocolErrors) {
  expect_protocol_error("#x\r\n", "invalid boolean");
  expect_protocol_error("#tt\r\n", "invalid boolean");
  expect_protocol_error("#\r\n", "invalid boolean");
  expect_protocol_error(",abc\r\n", "invalid double");
  expect_protocol_error(",\r\n", "invalid double");
  expect_protocol_error(",1.5x\r\n", "invalid double");
  expect_protocol_error(",+-1\r\n", "invalid double");
  expect_protocol_error("_x\r\n", "invalid null");
  expect_protocol_error("(12a\r\n", "invalid big number");
  expect_protocol_error("(\r\n", "invalid big number");
  expect_protocol_error("(-\r\n", "invalid big number");
  expect_protocol_error("=3\r\ntxt\r\n", "invalid verbatim string");
  expect_protocol_error("=5\r\ntxt;a\r\n", "invalid verbatim string");
}

TEST(Parser, ErrorInsideAggregateIsProtocolError) {
  expect_protocol_error("*3\r\n:1\r\n:x\r\n:3\r\n", "invalid integer");
  expect_protocol_error("%1\r\n+k\r\n$2\r\nabc\r\n", "missing CRLF after bulk payload");
}

TEST(Parser, HugeAggregateHeaderWithoutDataDoesNotAllocateUpFront) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  const auto heap_in_use = [] {
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
  };
#else
  const auto heap_in_use = [] { return std::size_t{0}; };
#endif
  std::string input;
  for (int i = 0; i < 64; ++i) input += "*268435455\r\n";
  input += "$536870912\r\n";  // a bulk at exactly the default limit, none of it sent
  Parser parser;
  Reply reply;
  std::error_code ec;
  const std::size_t before = heap_in_use();
  const ParseResult result = parser.parse(input, reply, ec);
  const std::size_t after = heap_in_use();
  EXPECT_EQ(result.status, ParseStatus::need_more);
  EXPECT_EQ(result.consumed, input.size());
  // Trusting the headers would take gigabytes; bounded reserves take well under 16 MiB.
  EXPECT_LT(after - std::min(after, before), std::size_t{16} << 20);

  parser.reset();
  ASSERT_EQ(parser.parse("+OK\r\n", reply, ec).status, ParseStatus::reply_ready);
  EXPECT_EQ(reply.str, "OK");
}

TEST(Parser, KeepsFailingUntilReset) {
  Parser parser;
  Reply reply;
  std::error_code ec;
  EXPECT_EQ(parser.parse("?\r\n", reply, ec).status, ParseStatus::error);
  const std::string message = parser.error_message();
  EXPECT_EQ(parser.parse("+OK\r\n", reply, ec).status, ParseStatus::error);
  EXPECT_EQ(ec, make_error_code(redisson::errc::protocol_error));
  EXPECT_EQ(parser.error_message(), message);
}

TEST(Parser, ResetAfterErrorAcceptsNewInput) {
  Parser parser;
  Reply reply;
  std::error_code ec;
  // Fail with partial state everywhere: an open aggregate, a pending attribute.
  ASSERT_EQ(parser.parse("*3\r\n|1\r\n+a\r\n+b\r\n:1\r\n:x\r\n", reply, ec).status,
            ParseStatus::error);
  parser.reset();
  EXPECT_TRUE(parser.error_message().empty());
  const Outcome outcome = feed(parser, {"*1\r\n:7\r\n+OK\r\n"});
  ASSERT_EQ(outcome.replies.size(), 2u);
  EXPECT_TRUE(outcome.replies[0].attributes.empty());
  EXPECT_EQ(outcome.replies[0].elements.at(0).integer, 7);
  EXPECT_EQ(outcome.replies[1].str, "OK");
}

TEST(Parser, ResetDiscardsPartialReply) {
  Parser parser;
  Reply reply;
  std::error_code ec;
  ASSERT_EQ(parser.parse("*2\r\n$5\r\nab", reply, ec).status, ParseStatus::need_more);
  parser.reset();
  ASSERT_EQ(parser.parse(":1\r\n", reply, ec).status, ParseStatus::reply_ready);
  EXPECT_EQ(reply.type, ReplyType::integer);
}

// ---- Reply::to_display_string ----------------------------------------------------------------

TEST(ReplyDisplay, ScalarsLookLikeRedisCli) {
  EXPECT_EQ(parse_one("+OK\r\n").to_display_string(), "OK");
  EXPECT_EQ(parse_one("$3\r\nfoo\r\n").to_display_string(), "\"foo\"");
  EXPECT_EQ(parse_one("$-1\r\n").to_display_string(), "(nil)");
  EXPECT_EQ(parse_one(":3\r\n").to_display_string(), "(integer) 3");
  EXPECT_EQ(parse_one("-ERR bad\r\n").to_display_string(), "(error) ERR bad");
  EXPECT_EQ(parse_one(",1.5\r\n").to_display_string(), "(double) 1.5");
  EXPECT_EQ(parse_one("#t\r\n").to_display_string(), "(true)");
  EXPECT_EQ(parse_one("#f\r\n").to_display_string(), "(false)");
  EXPECT_EQ(parse_one("(123\r\n").to_display_string(), "(big number) 123");
  EXPECT_EQ(parse_one("=15\r\ntxt:Some string\r\n").to_display_string(), "Some string");
}

TEST(ReplyDisplay, BulkStringIsQuotedAndEscaped) {
  EXPECT_EQ(parse_one("$6\r\na\"\n\x01\\b\r\n").to_display_string(), R"("a\"\n\x01\\b")");
}

TEST(ReplyDisplay, AggregatesAreNumberedAndNestedIndented) {
  EXPECT_EQ(parse_one("*3\r\n:1\r\n*2\r\n+a\r\n+b\r\n$1\r\nc\r\n").to_display_string(),
            "1) (integer) 1\n2) 1) a\n   2) b\n3) \"c\"");
  EXPECT_EQ(parse_one("%2\r\n+k1\r\n:1\r\n+k2\r\n*2\r\n:1\r\n:2\r\n").to_display_string(),
            "1# k1 => (integer) 1\n2# k2 => 1) (integer) 1\n   2) (integer) 2");
  EXPECT_EQ(parse_one("~2\r\n+a\r\n+b\r\n").to_display_string(), "1~ a\n2~ b");
  EXPECT_EQ(parse_one(">2\r\n+message\r\n+hi\r\n").to_display_string(),
            "(push)\n1) message\n2) hi");
  EXPECT_EQ(parse_one("*0\r\n").to_display_string(), "(empty array)");
  EXPECT_EQ(parse_one("%0\r\n").to_display_string(), "(empty hash)");
}

TEST(ReplyDisplay, IndexesAreRightAligned) {
  std::string input = "*10\r\n";
  for (int i = 0; i < 10; ++i) input += ":" + std::to_string(i) + "\r\n";
  const std::string display = parse_one(input).to_display_string();
  EXPECT_EQ(display.substr(0, 15), " 1) (integer) 0");
  EXPECT_NE(display.find("\n10) (integer) 9"), std::string::npos);
}

TEST(ReplyDisplay, AttributesAreShownBeforeTheValue) {
  EXPECT_EQ(parse_one("|1\r\n+ttl\r\n:3600\r\n+OK\r\n").to_display_string(),
            "(attributes)\n1# ttl => (integer) 3600\nOK");
}

}  // namespace

}  // namespace unit_resp_parser_test
