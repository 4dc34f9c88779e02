// RingBuffer<T> against a real redis-server: the capacity bounds the list, the oldest elements go
// first, no capacity means nothing is added, and Java Redisson's ring buffers read and written.
#include "redisson/objects/ring_buffer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

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
