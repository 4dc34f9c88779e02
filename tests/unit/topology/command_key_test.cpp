#include "topology/command_key.hpp"

#include <gtest/gtest.h>

namespace redisson::detail {
namespace {

TEST(CommandKey, ArgumentsAreReadBack) {
  const Command command{"SET", "key", "a\r\nbinary\0value"};
  EXPECT_EQ(command_argument(command, 0), "SET");
  EXPECT_EQ(command_argument(command, 1), "key");
  EXPECT_EQ(command_argument(command, 3), std::nullopt);
}

TEST(CommandKey, OrdinaryCommandsRouteByTheirSecondArgument) {
  EXPECT_EQ(routing_key(Command{"GET", "k1"}), "k1");
  EXPECT_EQ(routing_key(Command{"HSET", "h", "f", "v"}), "h");
  EXPECT_EQ(routing_key(Command{"PUBLISH", "channel", "0"}), "channel");
}

TEST(CommandKey, ScriptsRouteByTheirFirstKey) {
  EXPECT_EQ(routing_key(Command{"EVALSHA", "abc", "2", "{n}", "x:{n}", "arg"}), "{n}");
  EXPECT_EQ(routing_key(Command{"eval", "return 1", "1", "k"}), "k");
  EXPECT_EQ(routing_key(Command{"EVALSHA", "abc", "0", "arg"}), std::nullopt);
}

TEST(CommandKey, KeylessCommandsGoAnywhere) {
  EXPECT_EQ(routing_key(Command{"PING"}), std::nullopt);
  EXPECT_EQ(routing_key(Command{"SCRIPT", "LOAD", "return 1"}), std::nullopt);
  EXPECT_EQ(routing_key(Command{"cluster", "shards"}), std::nullopt);
  EXPECT_EQ(routing_key(Command{"INFO", "commandstats"}), std::nullopt);
}

TEST(CommandKey, StreamCommandsRouteByTheirStream) {
  EXPECT_EQ(routing_key(Command{"XREAD", "COUNT", "5", "STREAMS", "s", "0-0"}), "s");
  EXPECT_EQ(routing_key(Command{"XREADGROUP", "GROUP", "STREAMS", "c", "COUNT", "1", "BLOCK", "100",
                                "NOACK", "STREAMS", "s", ">"}),
            "s");
  EXPECT_EQ(routing_key(Command{"XGROUP", "CREATE", "s", "g", "$"}), "s");
  EXPECT_EQ(routing_key(Command{"XINFO", "GROUPS", "s"}), "s");
  EXPECT_EQ(routing_key(Command{"XADD", "s", "*", "f", "v"}), "s");
}

}  // namespace
}  // namespace redisson::detail
