// List<T>, Queue<T> and Deque<T> against a real redis-server: every operation, the elements
// they write (the codec's bytes), LRANGE pages, Java Redisson's lists and queues read and
// written, and errors that change nothing.
#include "redisson/objects/list.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "redisson/objects/deque.hpp"
#include "redisson/objects/queue.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_list_test {

using redisson::Deque;
using redisson::errc;
using redisson::List;
using redisson::ListEnd;
using redisson::Queue;
using redisson::test::expect_error;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

class ListTest : public redisson::test::ServerTest {};

TEST_F(ListTest, AddGetSetInsertAndRange) {
  List<std::string> list(client, "l", codecs::string());
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.add("a"), 1);
  EXPECT_EQ(list.add_all({"b", "c"}), 3);
  EXPECT_EQ(list.add_all({}), 0);
  EXPECT_EQ(list.get(0), "a");
  EXPECT_EQ(list.get(-1), "c");
  EXPECT_EQ(list.get(7), std::nullopt);
  EXPECT_EQ(list.set(1, "B"), "b");
  list.fast_set(2, "C");
  EXPECT_EQ(list.insert_before("B", "a2"), 4);
  EXPECT_EQ(list.insert_after("C", "D"), 5);
  EXPECT_EQ(list.insert_after("none", "x"), -1);
  EXPECT_EQ(list.range(0, -1), (std::vector<std::string>{"a", "a2", "B", "C", "D"}));
  EXPECT_EQ(list.range(1, 2), (std::vector<std::string>{"a2", "B"}));
  EXPECT_EQ(list.size(), 5);
  EXPECT_EQ(server.command({"LRANGE", "l", "0", "-1"}), "a\na2\nB\nC\nD");
}

// contains_all reads a long list in windows of 100 elements: values in the first, a middle and
// the last window are all found, and a value in none is not.
TEST_F(ListTest, ContainsAllFindsValuesInEveryWindowOfALongList) {
  List<std::string> list(client, "long", codecs::string());
  std::vector<std::string> elements;
  for (int i = 0; i < 250; ++i) elements.push_back("e" + std::to_string(i));
  list.add_all(elements);
  EXPECT_TRUE(list.contains_all({"e249", "e0", "e150", "e99", "e100"}));
  EXPECT_FALSE(list.contains_all({"e0", "e249", "e250"}));
}

TEST_F(ListTest, ReadAllContainsAllRemoveAllRetainAll) {
  using Strings = std::vector<std::string>;
  List<std::string> list(client, "l", codecs::string());
  EXPECT_TRUE(list.read_all().empty());
  list.add_all({"a", "b", "a", "c", "b", "d"});
  EXPECT_EQ(list.read_all(), (Strings{"a", "b", "a", "c", "b", "d"}));
  EXPECT_TRUE(list.contains_all({"a", "d", "a"}));
  EXPECT_FALSE(list.contains_all({"a", "z"}));
  EXPECT_TRUE(list.contains_all({}));

  EXPECT_EQ(list.remove_all({"a", "z", "a"}), 2);  // every equal element, each value once
  EXPECT_EQ(list.read_all(), (Strings{"b", "c", "b", "d"}));
  EXPECT_EQ(list.remove_all({}), 0);
  EXPECT_TRUE(list.retain_all({"b", "d"}));
  EXPECT_EQ(list.read_all(), (Strings{"b", "b", "d"}));  // order kept
  EXPECT_FALSE(list.retain_all({"b", "d", "q"}));
  EXPECT_TRUE(list.retain_all({}));  // none kept: deleted, as Redisson
  EXPECT_EQ(server.command({"EXISTS", "l"}), "0");

  // add_first_if_exists / add_last_if_exists: LPUSHX / RPUSHX.
  Deque<std::string> absent(client, "absent", codecs::string());
  EXPECT_EQ(absent.add_first_if_exists("x"), 0);
  EXPECT_EQ(absent.add_last_if_exists("x"), 0);
  EXPECT_EQ(server.command({"EXISTS", "absent"}), "0");

  // Queue and Deque share them (one Redis list each).
  Deque<std::string> deque(client, "d", codecs::string());
  deque.add_all({"x", "y", "x"});
  EXPECT_EQ(deque.remove_all({"x"}), 2);
  EXPECT_EQ(deque.read_all(), (Strings{"y"}));
  EXPECT_EQ(deque.add_first_if_exists("a"), 2);
  EXPECT_EQ(deque.add_last_if_exists("z"), 3);
  EXPECT_EQ(deque.read_all(), (Strings{"a", "y", "z"}));

  server.command({"SET", "s", "string"});
  Queue<std::string> wrong(client, "s", codecs::string());
  expect_error(
      errc::wrong_type, [&] { (void)wrong.remove_all({"string"}); }, "remove_all on a string");
  expect_error(
      errc::wrong_type, [&] { (void)wrong.contains_all({"string"}); }, "contains_all on a string");
  EXPECT_EQ(server.command({"GET", "s"}), "string");
}

TEST_F(ListTest, RemoveIndexOfAndTrim) {
  List<std::int64_t> list(client, "l", codecs::long_text());
  list.add_all({1, 2, 3, 2, 1, 2});
  EXPECT_EQ(list.index_of(2), 1);
  EXPECT_EQ(list.last_index_of(2), 5);
  EXPECT_EQ(list.index_of(9), std::nullopt);
  EXPECT_TRUE(list.contains(3));
  EXPECT_FALSE(list.contains(9));
  EXPECT_TRUE(list.remove(1));
  EXPECT_EQ(list.range(0, -1), (std::vector<std::int64_t>{2, 3, 2, 1, 2}));
  EXPECT_EQ(list.remove(2, -2), 2);
  EXPECT_EQ(list.range(0, -1), (std::vector<std::int64_t>{2, 3, 1}));
  EXPECT_EQ(list.remove_at(1), 3);
  EXPECT_EQ(list.remove_at(9), std::nullopt);
  EXPECT_EQ(list.range(0, -1), (std::vector<std::int64_t>{2, 1}));
  list.add_all({5, 6, 7});
  list.trim(1, 3);
  EXPECT_EQ(list.range(0, -1), (std::vector<std::int64_t>{1, 5, 6}));
}

TEST_F(ListTest, RemoveAtKeepsAnEqualElementElsewhere) {
  // Redisson's fixed marker would remove an earlier element holding the marker's bytes.
  List<std::string> list(client, "l", codecs::string());
  list.add_all({"DELETED_BY_REDISSON", "x", "y"});
  EXPECT_EQ(list.remove_at(2), "y");
  EXPECT_EQ(list.range(0, -1), (std::vector<std::string>{"DELETED_BY_REDISSON", "x"}));
}

TEST_F(ListTest, SetOutOfRangeChangesNothing) {
  List<std::string> list(client, "l", codecs::string());
  list.add("a");
  expect_error(errc::server_error, [&] { list.set(5, "z"); });
  expect_error(errc::server_error, [&] { list.fast_set(5, "z"); });
  EXPECT_EQ(list.range(0, -1), (std::vector<std::string>{"a"}));
}

TEST_F(ListTest, ValuesAreReadInPages) {
  List<std::int64_t> list(client, "l", codecs::long_text());
  std::vector<std::int64_t> all;
  for (std::int64_t i = 0; i < 250; ++i) all.push_back(i);
  list.add_all(all);
  std::vector<std::int64_t> seen;
  for (const auto value : list.values(100)) seen.push_back(value);
  EXPECT_EQ(seen, all);
  auto pages = list.values(100);
  EXPECT_EQ(pages.next_batch().size(), 100U);
  EXPECT_EQ(pages.next_batch().size(), 100U);
  EXPECT_EQ(pages.next_batch().size(), 50U);
  EXPECT_TRUE(pages.next_batch().empty());
  int none = 0;
  for ([[maybe_unused]] const auto value : List<std::int64_t>(client, "absent").values()) ++none;
  EXPECT_EQ(none, 0);
  expect_error(errc::invalid_argument, [&] { list.values(0); });
}

TEST_F(ListTest, WrongTypeAndCodecErrorsChangeNothing) {
  server.command({"SET", "str", "x"});
  List<std::string> wrong(client, "str", codecs::string());
  expect_error(errc::wrong_type, [&] { wrong.add("a"); });
  expect_error(errc::wrong_type, [&] { wrong.size(); });
  expect_error(errc::wrong_type, [&] { wrong.set(0, "a"); });
  expect_error(errc::wrong_type, [&] { wrong.remove_at(0); });
  EXPECT_EQ(server.command({"GET", "str"}), "x");
  server.command({"RPUSH", "bad", "\x01\xff"});
  List<std::string> kryo(client, "bad");
  expect_error(errc::codec_error, [&] { kryo.get(0); });
  EXPECT_EQ(server.command({"LLEN", "bad"}), "1");
}

TEST_F(ListTest, QueueOffersAtTheTailAndPollsTheHead) {
  Queue<std::string> queue(client, "{q}a", codecs::string());
  EXPECT_EQ(queue.poll(), std::nullopt);
  EXPECT_EQ(queue.peek(), std::nullopt);
  EXPECT_TRUE(queue.poll(3).empty());
  queue.offer("1");
  queue.offer("2");
  queue.offer("3");
  EXPECT_EQ(queue.peek(), "1");
  EXPECT_EQ(queue.poll(), "1");
  EXPECT_EQ(queue.poll_last_and_offer_first_to("{q}b"), "3");
  EXPECT_EQ(Queue<std::string>(client, "{q}b", codecs::string()).peek(), "3");
  queue.offer("4");
  EXPECT_EQ(queue.poll(5), (std::vector<std::string>{"2", "4"}));
  EXPECT_EQ(server.command({"EXISTS", "{q}a"}), "0");
}

TEST_F(ListTest, DequeWorksBothEnds) {
  Deque<std::string> deque(client, "{d}a", codecs::string());
  deque.add_first("b");
  deque.add_first("a");
  deque.add_last("c");
  deque.add_last("b");
  EXPECT_EQ(deque.peek_first(), "a");
  EXPECT_EQ(deque.peek_last(), "b");
  EXPECT_TRUE(deque.remove_last_occurrence("b"));
  EXPECT_EQ(deque.range(0, -1), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(deque.remove_first_occurrence("b"));
  EXPECT_FALSE(deque.remove_first_occurrence("z"));
  EXPECT_EQ(deque.move("{d}b", ListEnd::tail, ListEnd::head), "c");
  EXPECT_EQ(deque.poll_last(), "a");
  EXPECT_EQ(deque.poll_first(), std::nullopt);
  Deque<std::string> other(client, "{d}b", codecs::string());
  other.add_all({"x", "y"});
  EXPECT_EQ(other.poll_last(2), (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(other.poll_last(), "c");
}

// ---- Java interop: the fixtures hold lists, queues and deques Java Redisson wrote ---------

class JavaListTest : public redisson::test::ServerTest {
 protected:
  void SetUp() override { redisson::test::load_java_fixtures(server); }
};

TEST_F(JavaListTest, ReadsWhatJavaWroteAndWritesTheSameBytes) {
  for (const char* name : {"list_kryo", "list_string", "queue_kryo", "queue_string", "deque_kryo",
                           "deque_string", "blockingqueue_kryo", "blockingqueue_string"}) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const auto codec = redisson::test::codec_of_case(fixture);
    const std::string key = fixture["key"];
    std::vector<std::string> expected;
    for (const auto& value : fixture["value"]) expected.push_back(value.get<std::string>());
    EXPECT_EQ(List<std::string>(client, key, codec).range(0, -1), expected);
    // Written again by us in the same order: each element is Java's bytes.
    Queue<std::string> ours(client, std::string("ours:") + name, codec);
    for (const auto& value : expected) ours.offer(value);
    const auto& content = redisson::test::java_dump_entry(key)["content"];
    ASSERT_EQ(content.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(to_hex(server.command({"LINDEX", ours.name(), std::to_string(i)})),
                content[i]["hex"].get<std::string>());
    }
  }
}

}  // namespace

}  // namespace collections_list_test
