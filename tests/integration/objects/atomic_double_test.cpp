// AtomicDouble against a real redis-server: every operation, the text it stores (Java's
// BigDecimal.valueOf(d).toPlainString(), what RAtomicDouble writes), a value Java wrote, and
// errors that change nothing.
#include "redisson/objects/atomic_double.hpp"

#include <gtest/gtest.h>

#include <asio/use_future.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "redisson/client.hpp"
#include "support/client_config.hpp"
#include "support/expect_error.hpp"
#include "support/redis_server.hpp"
#include "support/server_test.hpp"

namespace objects_atomic_double_test {

using redisson::AtomicDouble;
using redisson::Client;
using redisson::errc;
using redisson::test::command_calls;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::RedisServer;

namespace {

class AtomicDoubleTest : public redisson::test::ServerTest {};

TEST_F(AtomicDoubleTest, SetIfGreaterOrLessComparesNumbersAndStoresJavasText) {
  AtomicDouble number(client, "d");
  EXPECT_TRUE(number.set_if_less(0.5, 2.5));  // absent counts as 0
  EXPECT_EQ(server.command({"GET", "d"}), "2.5");
  EXPECT_FALSE(number.set_if_greater(2.5, 10.0));
  EXPECT_TRUE(number.set_if_greater(2.25, 10.0));
  EXPECT_EQ(server.command({"GET", "d"}), "10.0");  // Java's BigDecimal text
  EXPECT_EQ(number.get(), 10.0);
}

TEST_F(AtomicDoubleTest, StoresJavasPlainDecimalText) {
  AtomicDouble number(client, "d");
  EXPECT_EQ(number.get(), 0.0);
  number.set(2.5);
  EXPECT_EQ(server.command({"GET", "d"}), "2.5");  // the Java fixture's set(2.5): 32 2e 35
  number.set(1.0);
  EXPECT_EQ(server.command({"GET", "d"}), "1.0");
  number.set(1e10);
  EXPECT_EQ(server.command({"GET", "d"}), "10000000000");
  number.set(-1e-5);
  EXPECT_EQ(server.command({"GET", "d"}), "-0.000010");
  EXPECT_EQ(number.get(), -1e-5);
}

TEST_F(AtomicDoubleTest, ReadsWhatJavaWrote) {
  server.command({"SET", "fx:atomicdouble", "2.5"});
  AtomicDouble number(client, "fx:atomicdouble");
  EXPECT_EQ(number.get(), 2.5);
  EXPECT_EQ(number.add_and_get(0.5), 3.0);
  EXPECT_EQ(server.command({"GET", "fx:atomicdouble"}), "3");  // INCRBYFLOAT's own text
}

TEST_F(AtomicDoubleTest, ArithmeticReturnsNewOrOldValue) {
  AtomicDouble number(client, "d");
  EXPECT_EQ(number.increment_and_get(), 1.0);
  EXPECT_EQ(number.decrement_and_get(), 0.0);
  EXPECT_EQ(number.add_and_get(2.25), 2.25);
  EXPECT_EQ(number.get_and_add(0.5), 2.25);
  EXPECT_EQ(number.get(), 2.75);
  EXPECT_EQ(number.get_and_increment(), 2.75);
  EXPECT_EQ(number.get_and_decrement(), 3.75);
  EXPECT_EQ(number.get_and_set(-4.5), 2.75);
  EXPECT_EQ(number.get(), -4.5);
  EXPECT_EQ(number.get_and_delete(), -4.5);
  EXPECT_FALSE(number.exists());
  EXPECT_EQ(number.get_and_add(1.5), 0.0);  // absent before: 0
  EXPECT_EQ(number.get(), 1.5);
}

TEST_F(AtomicDoubleTest, GetAndAddReturnsTheStoredValueExactly) {
  AtomicDouble number(client, "d");
  number.set(0.2);
  // (0.2 + 0.1) - 0.1 is 0.19999999999999998 in doubles: the old value is read, not derived.
  EXPECT_EQ(number.get_and_add(0.1), 0.2);
}

TEST_F(AtomicDoubleTest, CompareAndSetComparesNumbers) {
  AtomicDouble number(client, "cas");
  EXPECT_FALSE(number.compare_and_set(1.5, 2.0));
  EXPECT_FALSE(number.exists());
  EXPECT_TRUE(number.compare_and_set(0.0, 2.5));  // absent counts as 0
  EXPECT_EQ(server.command({"GET", "cas"}), "2.5");
  server.command({"SET", "cas", "2.50"});  // another text for the same number
  EXPECT_TRUE(number.compare_and_set(2.5, 1e10));
  EXPECT_EQ(server.command({"GET", "cas"}), "10000000000");
  EXPECT_FALSE(number.compare_and_set(2.5, 3.0));
  EXPECT_EQ(number.get(), 1e10);
}

TEST_F(AtomicDoubleTest, AsyncFormsCompleteWithTheResult) {
  AtomicDouble number(client, "a");
  number.async_set(1.5, asio::use_future).get();
  EXPECT_EQ(number.async_add_and_get(1.0, asio::use_future).get(), 2.5);
  EXPECT_EQ(number.async_get_and_add(1.0, asio::use_future).get(), 2.5);
  EXPECT_TRUE(number.async_compare_and_set(3.5, 0.5, asio::use_future).get());
  EXPECT_EQ(number.async_get(asio::use_future).get(), 0.5);
}

TEST_F(AtomicDoubleTest, NotANumberIsRefusedBeforeSending) {
  AtomicDouble number(client, "nan");
  const auto sets = command_calls(server, "set");
  const auto scripts = command_calls(server, "evalsha") + command_calls(server, "eval");
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  expect_error(
      errc::invalid_argument, [&] { number.set(nan); }, "set(NaN)");
  expect_error(
      errc::invalid_argument, [&] { number.add_and_get(inf); }, "add_and_get(inf)");
  expect_error(
      errc::invalid_argument, [&] { number.get_and_add(-inf); }, "get_and_add(-inf)");
  expect_error(
      errc::invalid_argument, [&] { number.compare_and_set(0.0, nan); }, "compare_and_set");
  expect_error(
      errc::invalid_argument, [&] { number.get_and_set(nan); }, "get_and_set");
  EXPECT_EQ(command_calls(server, "set"), sets);
  EXPECT_EQ(command_calls(server, "evalsha") + command_calls(server, "eval"), scripts);
  EXPECT_EQ(server.command({"EXISTS", "nan"}), "0");
}

TEST_F(AtomicDoubleTest, WrongTypeKeyFailsAndChangesNothing) {
  server.command({"SADD", "set", "x"});
  AtomicDouble number(client, "set");
  expect_error(
      errc::wrong_type, [&] { number.get(); }, "get");
  expect_error(
      errc::wrong_type, [&] { number.add_and_get(1.0); }, "add_and_get");
  expect_error(
      errc::wrong_type, [&] { number.get_and_add(1.0); }, "get_and_add");
  expect_error(
      errc::wrong_type, [&] { number.compare_and_set(0.0, 1.0); }, "compare_and_set");
  EXPECT_EQ(server.command({"SMEMBERS", "set"}), "x");
}

TEST_F(AtomicDoubleTest, TextThatIsNotANumberFailsAndChangesNothing) {
  server.command({"SET", "text", "abc"});
  AtomicDouble number(client, "text");
  expect_error(
      errc::wrong_type, [&] { number.get(); }, "get");
  expect_error(
      errc::server_error, [&] { number.get_and_add(1.0); }, "get_and_add");
  EXPECT_EQ(server.command({"GET", "text"}), "abc");
}

}  // namespace

}  // namespace objects_atomic_double_test
