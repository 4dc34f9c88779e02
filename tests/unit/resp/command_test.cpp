// Command keeps short commands in its own buffer and long ones on the heap; both must encode the
// same bytes and survive copies and moves (retries and redirects resend a copy). It records its
// routing key as it is built: the rules by command name, or key(); the key must keep naming the
// bytes of its own buffer through copies, moves and growth.
#include "redisson/command.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

namespace unit_resp_command_test {

namespace {

using redisson::Command;

std::string bulk(const std::string& value) {
  return "$" + std::to_string(value.size()) + "\r\n" + value + "\r\n";
}

/// The routing key is a view into `command`'s own encoded bytes (not another command's).
bool key_in_own_buffer(const Command& command) {
  const auto key = command.routing_key();
  if (!key) return false;
  const auto body = command.encoded_arguments();
  const std::less_equal<const char*> at_or_before;
  return at_or_before(body.data(), key->data()) &&
         at_or_before(key->data() + key->size(), body.data() + body.size());
}

TEST(Command, ShortCommandEncodesBulkStrings) {
  Command command{"HSET", "map", "field", "value"};
  EXPECT_EQ(command.size(), 4U);
  EXPECT_EQ(command.encoded_arguments(),
            bulk("HSET") + bulk("map") + bulk("field") + bulk("value"));
  EXPECT_EQ(command.name(), "HSET");
}

TEST(Command, GrowsPastItsInlineBufferArgumentByArgument) {
  Command command{"RPUSH", "list"};
  std::string expected = bulk("RPUSH") + bulk("list");
  for (int i = 0; i < 200; ++i) {
    const std::string value(static_cast<std::size_t>(i % 37), static_cast<char>('a' + i % 26));
    command.arg(value);
    expected += bulk(value);
  }
  command.arg(std::int64_t{-42});
  expected += bulk("-42");
  EXPECT_EQ(command.size(), 203U);
  EXPECT_EQ(command.encoded_arguments(), expected);
  EXPECT_EQ(command.name(), "RPUSH");
}

TEST(Command, LongArgumentAtConstruction) {
  const std::string big(5000, 'x');
  Command command{"SET", "key", big};
  EXPECT_EQ(command.encoded_arguments(), bulk("SET") + bulk("key") + bulk(big));
}

TEST(Command, CopiesAndMovesKeepTheBytes) {
  const std::string big(300, 'y');
  for (const auto& value : {std::string("small"), big}) {
    Command original{"SET", "key", value};
    const std::string bytes(original.encoded_arguments());

    Command copy(original);
    EXPECT_EQ(copy.encoded_arguments(), bytes);
    EXPECT_EQ(original.encoded_arguments(), bytes);

    Command moved(std::move(copy));
    EXPECT_EQ(moved.encoded_arguments(), bytes);
    EXPECT_EQ(moved.size(), 3U);

    Command assigned{"PING"};
    assigned = moved;
    EXPECT_EQ(assigned.encoded_arguments(), bytes);
    Command move_assigned{"PING"};
    move_assigned = std::move(assigned);
    EXPECT_EQ(move_assigned.encoded_arguments(), bytes);
    move_assigned.arg("more");
    EXPECT_EQ(move_assigned.encoded_arguments(), bytes + bulk("more"));
    EXPECT_EQ(moved.encoded_arguments(), bytes);  // the copy it came from is untouched
  }
}

TEST(Command, EmptyCommandHasNoName) {
  Command command;
  EXPECT_TRUE(command.empty());
  EXPECT_EQ(command.name(), "");
  EXPECT_EQ(command.routing_key(), std::nullopt);
}

TEST(CommandKey, FirstArgumentIsTheKeyByDefault) {
  EXPECT_EQ(Command({"GET", "k1"}).routing_key(), "k1");
  EXPECT_EQ(Command({"HSET", "h", "f", "v"}).routing_key(), "h");
  EXPECT_EQ(Command({"PUBLISH", "channel", "0"}).routing_key(), "channel");
  EXPECT_EQ(Command({"get", ""}).routing_key(), "");            // an empty key is still a key
  EXPECT_EQ(Command({"EVALSHA_ROX", "k"}).routing_key(), "k");  // not EVALSHA_RO
  EXPECT_EQ(Command({"XINFOS", "k"}).routing_key(), "k");       // not XINFO
}

TEST(CommandKey, KeylessCommandsHaveNone) {
  EXPECT_EQ(Command({"PING"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"SCRIPT", "LOAD", "return 1"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"cluster", "shards"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"INFO", "commandstats"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"Client", "UNBLOCK", "7"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"ASKING"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"flushall"}).routing_key(), std::nullopt);
}

TEST(CommandKey, ScriptsRouteByTheirFirstKey) {
  EXPECT_EQ(Command({"EVALSHA", "abc", "2", "{n}", "x:{n}", "arg"}).routing_key(), "{n}");
  EXPECT_EQ(Command({"eval", "return 1", "1", "k"}).routing_key(), "k");
  EXPECT_EQ(Command({"EVALSHA_RO", "abc", "1", "k"}).routing_key(), "k");
  EXPECT_EQ(Command({"eval_ro", "return 1", "1", "k"}).routing_key(), "k");
  EXPECT_EQ(Command({"FCALL", "f", "1", "k", "a"}).routing_key(), "k");
  EXPECT_EQ(Command({"FCALL_RO", "f", "1", "k"}).routing_key(), "k");
  EXPECT_EQ(Command({"EVALSHA", "abc", "0", "arg"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"EVALSHA", "abc", "-1", "arg"}).routing_key(), std::nullopt);
  EXPECT_EQ(Command({"EVALSHA", "abc", "x", "arg"}).routing_key(), std::nullopt);
}

TEST(CommandKey, StreamCommandsRouteByTheirStream) {
  EXPECT_EQ(Command({"XREAD", "COUNT", "5", "STREAMS", "s", "0-0"}).routing_key(), "s");
  EXPECT_EQ(Command({"xread", "block", "0", "streams", "s", "$"}).routing_key(), "s");
  // A group and a consumer named STREAMS are not the keyword.
  EXPECT_EQ(Command({"XREADGROUP", "GROUP", "STREAMS", "STREAMS", "COUNT", "1", "BLOCK", "100",
                     "NOACK", "STREAMS", "s", ">"})
                .routing_key(),
            "s");
  EXPECT_EQ(Command({"XGROUP", "CREATE", "s", "g", "$"}).routing_key(), "s");
  EXPECT_EQ(Command({"XINFO", "GROUPS", "s"}).routing_key(), "s");
  EXPECT_EQ(Command({"XADD", "s", "*", "f", "v"}).routing_key(), "s");
}

TEST(CommandKey, DecidedAsArgumentsAreAppended) {
  Command get{"GET"};
  EXPECT_EQ(get.routing_key(), std::nullopt);  // not there yet
  get.arg("k");
  EXPECT_EQ(get.routing_key(), "k");
  get.arg("more");
  EXPECT_EQ(get.routing_key(), "k");

  Command script;
  script.arg("EVALSHA").arg("abc");
  EXPECT_EQ(script.routing_key(), std::nullopt);
  script.arg(std::int64_t{2});
  EXPECT_EQ(script.routing_key(), std::nullopt);
  script.arg("k1").arg("k2").arg(std::int64_t{30000});
  EXPECT_EQ(script.routing_key(), "k1");

  Command read{"XREAD", "COUNT"};
  read.arg(std::int64_t{5}).arg("STREAMS");
  EXPECT_EQ(read.routing_key(), std::nullopt);
  read.arg("s").arg("0-0");
  EXPECT_EQ(read.routing_key(), "s");
}

TEST(CommandKey, ExplicitKeyRoutesWhateverTheRulesSay) {
  // The rules would take "ENCODING".
  const auto object = Command{"OBJECT", "ENCODING"}.key("k");
  EXPECT_EQ(object.routing_key(), "k");
  EXPECT_EQ(object.encoded_arguments(), Command({"OBJECT", "ENCODING", "k"}).encoded_arguments());
  EXPECT_EQ(object.size(), 3U);

  Command get{"GET"};
  get.key("k");
  EXPECT_EQ(get.routing_key(), "k");
  EXPECT_TRUE(key_in_own_buffer(get));

  // A keyless name does not stop an explicit key.
  EXPECT_EQ(Command{"PING"}.key("k").routing_key(), "k");
}

TEST(CommandKey, FirstExplicitKeyRoutes) {
  const auto mset = Command{"MSET"}.key("{t}a").arg("1").key("{t}b").arg("2");
  EXPECT_EQ(mset.routing_key(), "{t}a");
  EXPECT_EQ(mset.encoded_arguments(),
            Command({"MSET", "{t}a", "1", "{t}b", "2"}).encoded_arguments());

  Command script{"EVALSHA", "abc"};
  script.arg(std::int64_t{2}).key("{n}").key("x:{n}").arg("arg");
  EXPECT_EQ(script.routing_key(), "{n}");
  EXPECT_EQ(script.encoded_arguments(),
            Command({"EVALSHA", "abc", "2", "{n}", "x:{n}", "arg"}).encoded_arguments());
}

TEST(CommandKey, CopiesAndMovesKeepTheKeyInTheirOwnBuffer) {
  const std::string big(300, 'y');
  for (const auto& value : {std::string("small"), big}) {
    for (const bool explicit_key : {false, true}) {
      const Command original =
          explicit_key ? Command{"SET"}.key("key").arg(value) : Command{"SET", "key", value};
      ASSERT_EQ(original.routing_key(), "key");

      Command copy(original);
      EXPECT_EQ(copy.routing_key(), "key");
      EXPECT_TRUE(key_in_own_buffer(copy));
      EXPECT_NE(copy.routing_key()->data(), original.routing_key()->data());

      Command moved(std::move(copy));
      EXPECT_EQ(moved.routing_key(), "key");
      EXPECT_TRUE(key_in_own_buffer(moved));
      EXPECT_EQ(copy.routing_key(), std::nullopt);  // NOLINT(bugprone-use-after-move)

      Command assigned{"PING"};
      assigned = moved;
      EXPECT_EQ(assigned.routing_key(), "key");
      EXPECT_TRUE(key_in_own_buffer(assigned));

      Command move_assigned{"GET", "other"};
      move_assigned = std::move(assigned);
      EXPECT_EQ(move_assigned.routing_key(), "key");
      EXPECT_TRUE(key_in_own_buffer(move_assigned));
      EXPECT_EQ(assigned.routing_key(), std::nullopt);  // NOLINT(bugprone-use-after-move)

      // A moved-from command is empty and starts over with its rules.
      assigned.arg("GET").arg("fresh");
      EXPECT_EQ(assigned.routing_key(), "fresh");
      EXPECT_TRUE(key_in_own_buffer(assigned));
    }
  }
}

TEST(CommandKey, KeyRecordedInlineSurvivesGrowthToTheHeap) {
  Command command{"RPUSH", "list"};
  const auto inline_key = command.routing_key()->data();
  for (int i = 0; i < 200; ++i) command.arg(std::string(20, 'v'));
  EXPECT_EQ(command.routing_key(), "list");
  EXPECT_TRUE(key_in_own_buffer(command));
  EXPECT_NE(command.routing_key()->data(), inline_key);  // the bytes moved to the heap
}

TEST(CommandKey, ArgumentAfterTheKeyGrowsTheBufferToTheHeap) {
  const std::string value(5000, 'v');
  auto explicit_key = Command{"SET"}.key("k");
  explicit_key.arg(value);
  EXPECT_EQ(explicit_key.routing_key(), "k");
  EXPECT_TRUE(key_in_own_buffer(explicit_key));
  EXPECT_EQ(explicit_key.encoded_arguments(), bulk("SET") + bulk("k") + bulk(value));

  Command by_rule{"EVALSHA", "abc", "1", "k"};
  by_rule.arg(value);
  EXPECT_EQ(by_rule.routing_key(), "k");
  EXPECT_TRUE(key_in_own_buffer(by_rule));
}

TEST(CommandKey, KeyThatItselfGrowsTheBufferToTheHeap) {
  const std::string key(500, 'k');
  auto command = Command{"GET"}.key(key);
  EXPECT_EQ(command.routing_key(), key);
  EXPECT_TRUE(key_in_own_buffer(command));
  const Command long_at_construction{"GET", key};
  EXPECT_EQ(long_at_construction.routing_key(), key);
  EXPECT_TRUE(key_in_own_buffer(long_at_construction));
}

}  // namespace

}  // namespace unit_resp_command_test
