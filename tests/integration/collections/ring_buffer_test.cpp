// RingBuffer<T> against a real redis-server: the capacity bounds the list, the oldest elements go
// first, no capacity means nothing is added, and Java Redisson's ring buffers read and written.
#include "redisson/objects/ring_buffer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_ring_buffer_test {

using redisson::errc;
using redisson::RingBuffer;
using redisson::test::expect_error;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class RingBufferTest : public redisson::test::ServerTest {};

TEST_F(RingBufferTest, KeepsTheNewestUpToItsCapacity) {
  RingBuffer<std::string> ring(client, "rb", codecs::string());
  EXPECT_EQ(ring.capacity(), 0);
  expect_error(errc::not_initialized, [&] { ring.add("a"); });
  EXPECT_EQ(server.command({"EXISTS", "rb"}), "0");
  EXPECT_TRUE(ring.try_set_capacity(3));
  EXPECT_FALSE(ring.try_set_capacity(5));
  EXPECT_EQ(ring.capacity(), 3);
  EXPECT_EQ(server.command({"GET", "redisson_rb:{rb}"}), "3");
  EXPECT_EQ(ring.add("a"), 1);
  EXPECT_EQ(ring.remaining_capacity(), 2);
  EXPECT_EQ(ring.add_all({"b", "c", "d"}), 3);
  EXPECT_EQ(ring.range(0, -1), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(ring.offer("e"), 3);
  EXPECT_EQ(ring.poll(), "c");
  EXPECT_EQ(ring.set_capacity(1), 1);
  EXPECT_EQ(ring.range(0, -1), (std::vector<std::string>{"e"}));
  expect_error(errc::invalid_argument, [&] { ring.try_set_capacity(0); });
  expect_error(errc::invalid_argument, [&] { ring.set_capacity(-1); });
  EXPECT_EQ(ring.capacity(), 1);
  EXPECT_TRUE(ring.delete_object());
  EXPECT_EQ(server.command({"EXISTS", "rb", "redisson_rb:{rb}"}), "0");
}

// Every operation a RingBuffer has that writes (adds, takes, moves, removes, capacity changes),
// run on a full buffer: the list never holds more than the capacity (List's positional writes,
// which could grow it, are not a RingBuffer's: tests/unit/objects/list_shapes_test.cpp).
TEST_F(RingBufferTest, NoOperationGrowsItPastItsCapacity) {
  RingBuffer<std::string> ring(client, "{rb}full", codecs::string());
  ASSERT_TRUE(ring.try_set_capacity(3));
  std::int64_t capacity = 3;
  const auto length = [&] { return std::stoll(server.command({"LLEN", "{rb}full"})); };
  const std::vector<std::pair<const char*, std::function<void()>>> operations{
      {"add_all",
       [&] {
         ring.add_all({"a", "b", "c", "d", "e"});
       }},
      {"add", [&] { ring.add("f"); }},
      {"offer", [&] { ring.offer("g"); }},
      {"add_all again",
       [&] {
         ring.add_all({"h", "i", "j", "k"});
       }},
      {"poll_last_and_offer_first_to itself",
       [&] { ring.poll_last_and_offer_first_to("{rb}full"); }},
      {"remove", [&] { ring.remove("k"); }},
      {"add after remove",
       [&] {
         ring.add_all({"l", "m"});
       }},
      {"poll", [&] { ring.poll(); }},
      {"poll(2)", [&] { ring.poll(2); }},
      {"add_all after polls",
       [&] {
         ring.add_all({"n", "o", "p", "q"});
       }},
      {"set_capacity(2)",
       [&] {
         ring.set_capacity(2);
         capacity = 2;
       }},
      {"add after shrinking", [&] { ring.add("r"); }},
      {"try_set_capacity(10) leaves 2", [&] { ring.try_set_capacity(10); }},
      {"add_all after try_set_capacity",
       [&] {
         ring.add_all({"s", "t", "u"});
       }},
  };
  for (const auto& [what, operation] : operations) {
    SCOPED_TRACE(what);
    operation();
    EXPECT_LE(length(), capacity);
    EXPECT_EQ(ring.size(), length());
    EXPECT_EQ(ring.remaining_capacity(), capacity - length());
  }
  EXPECT_EQ(ring.range(0, -1), (std::vector<std::string>{"t", "u"}));
}

TEST_F(RingBufferTest, AWrongTypeKeyChangesNothing) {
  server.command({"SET", "rb", "x"});
  RingBuffer<std::string> ring(client, "rb", codecs::string());
  ring.try_set_capacity(2);
  expect_error(errc::wrong_type, [&] { ring.add("a"); });
  EXPECT_EQ(server.command({"GET", "rb"}), "x");
}

class JavaRingBufferTest : public redisson::test::ServerTest {
 protected:
  void SetUp() override { redisson::test::load_java_fixtures(server); }
};

TEST_F(JavaRingBufferTest, ReadsJavasAndWritesTheSameBytes) {
  for (const char* name : {"ringbuffer_kryo", "ringbuffer_string"}) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const auto codec = redisson::test::codec_of_case(fixture);
    const std::string key = fixture["key"];
    RingBuffer<std::string> java(client, key, codec);
    EXPECT_EQ(java.capacity(), 3);
    EXPECT_EQ(java.range(0, -1), (std::vector<std::string>{"b", "c", "d"}));
    // Java's calls again, from C++: the same list bytes and capacity.
    RingBuffer<std::string> ours(client, std::string("ours:") + name, codec);
    EXPECT_TRUE(ours.try_set_capacity(3));
    for (const char* value : {"a", "b", "c", "d"}) ours.add(value);
    const auto& content = redisson::test::java_dump_entry(key)["content"];
    for (std::size_t i = 0; i < content.size(); ++i) {
      EXPECT_EQ(to_hex(server.command({"LINDEX", ours.name(), std::to_string(i)})),
                content[i]["hex"].get<std::string>());
    }
    EXPECT_EQ(server.command({"GET", "redisson_rb:{" + ours.name() + "}"}), "3");
  }
}

}  // namespace

}  // namespace collections_ring_buffer_test
