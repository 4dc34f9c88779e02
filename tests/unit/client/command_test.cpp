// Command keeps short commands in its own buffer and long ones on the heap; both must encode the
// same bytes and survive copies and moves (retries and redirects resend a copy).
#include "redisson/command.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>

namespace {

using redisson::Command;

std::string bulk(const std::string& value) {
  return "$" + std::to_string(value.size()) + "\r\n" + value + "\r\n";
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
}

}  // namespace
