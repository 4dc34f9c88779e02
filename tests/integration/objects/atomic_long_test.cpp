// AtomicLong against a real redis-server: every operation, the decimal text it stores (what
// Java's RAtomicLong writes and reads), a value Java wrote, and errors that change nothing.
#include "redisson/objects/atomic_long.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_atomic_long_test {

using redisson::AtomicLong;
using redisson::Client;
using redisson::errc;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;

namespace {

class AtomicLongTest : public redisson::test::ServerTest {};

TEST_F(AtomicLongTest, MissingKeyReadsAsZero) {
  AtomicLong counter(client, "n");
  EXPECT_EQ(counter.get(), 0);
  EXPECT_FALSE(counter.exists());
  EXPECT_EQ(counter.get_and_delete(), 0);
}

TEST_F(AtomicLongTest, SetIfGreaterOrLessComparesWithTheThreshold) {
  AtomicLong counter(client, "c");
  EXPECT_FALSE(counter.set_if_greater(0, 5));  // absent counts as 0: not greater than 0
  EXPECT_TRUE(counter.set_if_greater(-1, 5));
  EXPECT_EQ(server.command({"GET", "c"}), "5");
  EXPECT_FALSE(counter.set_if_greater(5, 9));
  EXPECT_TRUE(counter.set_if_less(6, 2));
  EXPECT_EQ(counter.get(), 2);
  EXPECT_FALSE(counter.async_set_if_less(2, 0, asio::use_future).get());
  server.command({"SET", "t", "text"});
  AtomicLong text(client, "t");
  expect_error(
      errc::server_error, [&] { text.set_if_less(10, 1); }, "set_if_less on text");
  EXPECT_EQ(server.command({"GET", "t"}), "text");
}

TEST_F(AtomicLongTest, StoresDecimalText) {
  AtomicLong counter(client, "n");
  counter.set(42);
  EXPECT_EQ(server.command({"GET", "n"}), "42");
  EXPECT_EQ(counter.increment_and_get(), 43);  // the Java fixture's set(42); incrementAndGet()
  EXPECT_EQ(server.command({"GET", "n"}), "43");
  counter.set(-7);
  EXPECT_EQ(server.command({"GET", "n"}), "-7");
  counter.set(std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(server.command({"GET", "n"}), "-9223372036854775808");
  EXPECT_EQ(counter.get(), std::numeric_limits<std::int64_t>::min());
}

TEST_F(AtomicLongTest, ReadsWhatJavaWrote) {
  server.command({"SET", "fx:atomiclong", "43"});  // fixtures/redisson-3.52 dump: 34 33
  AtomicLong counter(client, "fx:atomiclong");
  EXPECT_EQ(counter.get(), 43);
  EXPECT_EQ(counter.get_and_increment(), 43);
  EXPECT_EQ(counter.get(), 44);
}

TEST_F(AtomicLongTest, ArithmeticReturnsNewOrOldValue) {
  AtomicLong counter(client, "n");
  EXPECT_EQ(counter.increment_and_get(), 1);
  EXPECT_EQ(counter.decrement_and_get(), 0);
  EXPECT_EQ(counter.add_and_get(10), 10);
  EXPECT_EQ(counter.get_and_add(5), 10);
  EXPECT_EQ(counter.get(), 15);
  EXPECT_EQ(counter.get_and_add(-20), 15);
  EXPECT_EQ(counter.get(), -5);
  EXPECT_EQ(counter.get_and_increment(), -5);
  EXPECT_EQ(counter.get_and_decrement(), -4);
  EXPECT_EQ(counter.get(), -5);
  EXPECT_EQ(counter.get_and_set(100), -5);
  EXPECT_EQ(counter.get_and_delete(), 100);
  EXPECT_FALSE(counter.exists());
  EXPECT_EQ(counter.get_and_set(3), 0);  // absent before: 0
  EXPECT_EQ(counter.get(), 3);
}

TEST_F(AtomicLongTest, CompareAndSetTreatsMissingAsZero) {
  AtomicLong counter(client, "cas");
  EXPECT_FALSE(counter.compare_and_set(1, 2));
  EXPECT_FALSE(counter.exists());
  EXPECT_TRUE(counter.compare_and_set(0, 5));  // absent counts as 0, as in Redisson
  EXPECT_EQ(server.command({"GET", "cas"}), "5");
  EXPECT_FALSE(counter.compare_and_set(4, 6));
  EXPECT_EQ(counter.get(), 5);
  EXPECT_TRUE(counter.compare_and_set(5, -1));
  EXPECT_EQ(counter.get(), -1);
  counter.set(0);
  EXPECT_TRUE(counter.compare_and_set(0, 9));  // a stored 0 as well
  EXPECT_EQ(counter.get(), 9);
}

TEST_F(AtomicLongTest, AsyncFormsCompleteWithTheResult) {
  AtomicLong counter(client, "a");
  counter.async_set(1, asio::use_future).get();
  EXPECT_EQ(counter.async_increment_and_get(asio::use_future).get(), 2);
  EXPECT_EQ(counter.async_get_and_add(3, asio::use_future).get(), 2);
  EXPECT_TRUE(counter.async_compare_and_set(5, 6, asio::use_future).get());
  EXPECT_EQ(counter.async_get(asio::use_future).get(), 6);
  EXPECT_EQ(counter.async_get_and_delete(asio::use_future).get(), 6);
}

TEST_F(AtomicLongTest, OverflowIsRefusedAndChangesNothing) {
  AtomicLong counter(client, "big");
  counter.set(std::numeric_limits<std::int64_t>::max());
  expect_error(
      errc::server_error, [&] { counter.increment_and_get(); }, "increment past the maximum");
  EXPECT_EQ(counter.get(), std::numeric_limits<std::int64_t>::max());
}

TEST_F(AtomicLongTest, WrongTypeKeyFailsAndChangesNothing) {
  server.command({"RPUSH", "list", "x"});
  AtomicLong counter(client, "list");
  expect_error(
      errc::wrong_type, [&] { counter.get(); }, "get");
  expect_error(
      errc::wrong_type, [&] { counter.increment_and_get(); }, "increment_and_get");
  expect_error(
      errc::wrong_type, [&] { counter.get_and_set(1); }, "get_and_set");
  expect_error(
      errc::wrong_type, [&] { counter.compare_and_set(0, 1); }, "compare_and_set");
  expect_error(
      errc::wrong_type, [&] { counter.get_and_delete(); }, "get_and_delete");
  EXPECT_EQ(server.command({"LRANGE", "list", "0", "-1"}), "x");
}

TEST_F(AtomicLongTest, TextThatIsNotANumberFailsAndChangesNothing) {
  server.command({"SET", "text", "twelve"});
  AtomicLong counter(client, "text");
  expect_error(
      errc::wrong_type, [&] { counter.get(); }, "get");
  expect_error(
      errc::server_error, [&] { counter.add_and_get(1); }, "add_and_get");
  EXPECT_FALSE(counter.compare_and_set(0, 1));
  EXPECT_EQ(server.command({"GET", "text"}), "twelve");
}

TEST_F(AtomicLongTest, EmptyNameIsRefused) {
  expect_error(
      errc::invalid_argument, [&] { AtomicLong(client, ""); }, "empty name");
}

}  // namespace

}  // namespace objects_atomic_long_test
