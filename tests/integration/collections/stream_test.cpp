// Stream<K, V> against a real redis-server: adding, ranges and reads, waits on the blocking
// connections (woken by another client, ended by their deadline, a cancellation or shutdown),
// consumer groups with acknowledgements, pending lists and claims, bad input that changes
// nothing, and Java Redisson's streams read and written byte for byte.
#include "redisson/objects/stream.hpp"

#include <gtest/gtest.h>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/use_future.hpp>
#include <chrono>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "support/eventually.hpp"
#include "support/expect_error.hpp"
#include "support/java_fixtures.hpp"
#include "support/server_test.hpp"

namespace collections_stream_test {

using namespace std::chrono_literals;
using redisson::Client;
using redisson::errc;
using redisson::Stream;
using redisson::StreamAddOptions;
using redisson::StreamMessageId;
using redisson::StreamTrim;
using redisson::test::config_for;
using redisson::test::expect_error;
using redisson::test::to_hex;
namespace codecs = redisson::codecs;

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;
using Entries = Stream<std::string, std::string>::Entries;

int blocked_clients(const redisson::test::RedisServer& server) {
  const auto info = server.command({"INFO", "clients"});
  const auto at = info.find("blocked_clients:");
  return at == std::string::npos ? -1 : std::stoi(info.substr(at + 16));
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) parts.push_back(line);
  return parts;
}

class StreamTest : public redisson::test::ServerTest {
 protected:
  Stream<std::string, std::string> stream(const std::string& name = "s") {
    return Stream<std::string, std::string>(client, name, codecs::string());
  }
};

TEST(StreamMessageIdTest, ParsesFormatsAndOrders) {
  EXPECT_EQ(StreamMessageId::parse("1526919030474-55"), StreamMessageId(1526919030474, 55));
  EXPECT_EQ(StreamMessageId::parse("7"), StreamMessageId(7, 0));
  EXPECT_EQ(StreamMessageId(12, 3).to_string(), "12-3");
  EXPECT_EQ(StreamMessageId{}.to_string(), "0-0");
  for (const char* special : {"*", "$", ">", "-", "+"}) {
    EXPECT_EQ(StreamMessageId::parse(special).to_string(), special);
    EXPECT_TRUE(StreamMessageId::parse(special).is_special());
  }
  EXPECT_LT(StreamMessageId(1, 9), StreamMessageId(2, 0));
  EXPECT_LT(StreamMessageId(2, 0), StreamMessageId(2, 1));
  EXPECT_LT(StreamMessageId(99, 99), StreamMessageId::max());
  for (const char* bad : {"", "x", "1-", "-1", "1-2-3", "1-x", "99999999999999999999-0", " 1"}) {
    expect_error(
        errc::invalid_argument, [&] { StreamMessageId::parse(bad); }, bad);
  }
}

TEST_F(StreamTest, AddsRangesAndReadsInOrder) {
  auto s = stream();
  EXPECT_EQ(s.size(), 0);
  EXPECT_TRUE(s.read(StreamMessageId{}, 10).empty());
  const auto first = s.add({{"b", "1"}, {"a", "2"}});
  const auto second = s.add({{"c", "3"}});
  const auto third = s.add({{"d", "4"}}, StreamAddOptions{StreamMessageId(second.ms() + 5, 7), {}});
  EXPECT_EQ(third, StreamMessageId(second.ms() + 5, 7));
  EXPECT_LT(first, second);
  EXPECT_EQ(s.size(), 3);
  const Entries all = s.range(StreamMessageId::min(), StreamMessageId::max(), 10);
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].id, first);
  EXPECT_EQ(all[0].fields, (Fields{{"b", "1"}, {"a", "2"}}));  // the order they were added in
  EXPECT_EQ(all[2].fields, (Fields{{"d", "4"}}));
  EXPECT_EQ(s.range(second, StreamMessageId::max(), 1).at(0).id, second);
  const auto newest_first = s.rev_range(StreamMessageId::max(), StreamMessageId::min(), 2);
  ASSERT_EQ(newest_first.size(), 2U);
  EXPECT_EQ(newest_first[0].id, third);
  EXPECT_EQ(newest_first[1].id, second);
  const auto after_first = s.read(first, 10);
  ASSERT_EQ(after_first.size(), 2U);
  EXPECT_EQ(after_first[0].id, second);
  EXPECT_EQ(s.read(StreamMessageId{}, 1).size(), 1U);
  EXPECT_TRUE(s.read(StreamMessageId::newest(), 10).empty());
  // An id that is not after the last: refused by the server, nothing added.
  expect_error(errc::server_error, [&] { s.add({{"x", "y"}}, StreamAddOptions{first, {}}); });
  EXPECT_EQ(s.remove({second, StreamMessageId(1, 1)}), 1);
  EXPECT_EQ(s.size(), 2);
  EXPECT_EQ(stream("absent").add_if_exists({{"x", "y"}}), std::nullopt);
  EXPECT_EQ(server.command({"EXISTS", "absent"}), "0");
  EXPECT_TRUE(s.add_if_exists({{"e", "5"}}).has_value());
  EXPECT_EQ(s.size(), 3);
}

TEST_F(StreamTest, TrimsByLengthOrId) {
  auto s = stream();
  std::vector<StreamMessageId> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(s.add({{"n", std::to_string(i)}}));
  EXPECT_EQ(s.trim(StreamTrim::max_len(7)), 3);
  EXPECT_EQ(s.trim(StreamTrim::min_id_of(ids[5])), 2);
  EXPECT_EQ(s.range(StreamMessageId::min(), StreamMessageId::max(), 1).at(0).id, ids[5]);
  // Approximate trims remove whole macro nodes only: on a stream this small, none.
  EXPECT_EQ(s.trim(StreamTrim::max_len(1).non_strict(10)), 0);
  StreamAddOptions capped;
  capped.trim = StreamTrim::max_len(2);
  s.add({{"n", "last"}}, capped);
  EXPECT_EQ(s.size(), 2);
  const auto kept = s.range(StreamMessageId::min(), StreamMessageId::max(), 10);
  EXPECT_EQ(kept.back().fields, (Fields{{"n", "last"}}));
}

TEST_F(StreamTest, AWaitingReadIsWokenByAnAddFromAnotherClient) {
  auto s = stream();
  s.add({{"old", "1"}});
  auto read = s.async_read(StreamMessageId::newest(), 10, 60s, asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  // The shared connection stays free while the read waits.
  EXPECT_EQ(s.size(), 1);
  Client producer(config_for(server));
  const auto id =
      Stream<std::string, std::string>(producer, "s", codecs::string()).add({{"new", "2"}});
  ASSERT_EQ(read.wait_for(30s), std::future_status::ready);
  const auto got = read.get();
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].id, id);
  EXPECT_EQ(got[0].fields, (Fields{{"new", "2"}}));
  // From a plain id the wait returns at once what is already there.
  EXPECT_EQ(s.read(StreamMessageId{}, 10, 30s).size(), 2U);
}

TEST_F(StreamTest, AWaitThatEndsWithNothingIsEmpty) {
  auto s = stream();
  EXPECT_TRUE(s.read(StreamMessageId::newest(), 10, 200ms).empty());
  s.create_group("g", StreamMessageId::newest(), true);
  EXPECT_TRUE(s.read_group("g", "c", StreamMessageId::never_delivered(), 10, 200ms).empty());
  EXPECT_EQ(blocked_clients(server), 0);
}

TEST_F(StreamTest, CancellingAWaitEndsItOnTheServer) {
  auto s = stream();
  s.create_group("g", StreamMessageId::newest(), true);
  asio::cancellation_signal signal;
  auto read = s.async_read_group("g", "c", StreamMessageId::never_delivered(), 10, 60s, false,
                                 asio::bind_cancellation_slot(signal.slot(), asio::use_future));
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  signal.emit(asio::cancellation_type::terminal);
  ASSERT_EQ(read.wait_for(30s), std::future_status::ready);
  try {
    read.get();
    FAIL() << "a cancelled read returned";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), asio::error::operation_aborted);
  }
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 0; }));
  // Nothing was delivered to the cancelled reader: an entry added now is new for the group.
  const auto id = s.add({{"k", "v"}});
  const auto got = s.read_group("g", "c", StreamMessageId::never_delivered(), 10);
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].id, id);
}

TEST_F(StreamTest, ShutdownEndsAWait) {
  auto own = std::make_unique<Client>(config_for(server));
  Stream<std::string, std::string> s(*own, "s", codecs::string());
  auto read = s.async_read(StreamMessageId::newest(), 1, 60s, asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  own.reset();
  ASSERT_EQ(read.wait_for(10s), std::future_status::ready);
  try {
    read.get();
    FAIL() << "a read ended by shutdown returned";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code(), redisson::make_error_code(errc::shutdown));
  }
}

TEST_F(StreamTest, GroupsShareEntriesAckAndClaim) {
  auto s = stream();
  expect_error(errc::server_error, [&] { s.create_group("g"); });  // no stream, no MKSTREAM
  s.create_group("g", StreamMessageId::newest(), true);
  expect_error(errc::server_error, [&] { s.create_group("g"); });  // BUSYGROUP
  EXPECT_TRUE(s.create_consumer("g", "idle"));
  std::vector<StreamMessageId> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(s.add({{"job", std::to_string(i)}}));

  const auto to_alice = s.read_group("g", "alice", StreamMessageId::never_delivered(), 3);
  const auto to_bob = s.read_group("g", "bob", StreamMessageId::never_delivered(), 10);
  ASSERT_EQ(to_alice.size(), 3U);
  ASSERT_EQ(to_bob.size(), 1U);
  EXPECT_EQ(to_bob[0].id, ids[3]);
  EXPECT_TRUE(s.read_group("g", "bob", StreamMessageId::never_delivered(), 10).empty());

  auto summary = s.pending("g");
  EXPECT_EQ(summary.total, 4);
  EXPECT_EQ(summary.lowest, ids[0]);
  EXPECT_EQ(summary.highest, ids[3]);
  EXPECT_EQ(summary.consumers,
            (std::vector<std::pair<std::string, std::int64_t>>{{"alice", 3}, {"bob", 1}}));
  EXPECT_EQ(s.ack("g", {ids[0], ids[3]}), 2);
  EXPECT_EQ(s.ack("g", {ids[0]}), 0);

  // Alice's history: her pending entries.
  const auto history = s.read_group("g", "alice", StreamMessageId{}, 10);
  ASSERT_EQ(history.size(), 2U);
  EXPECT_EQ(history[0].id, ids[1]);

  redisson::StreamPendingRange range;
  range.consumer = "alice";
  const auto pending = s.pending_range("g", range);
  ASSERT_EQ(pending.size(), 2U);
  EXPECT_EQ(pending[0].id, ids[1]);
  EXPECT_EQ(pending[0].consumer, "alice");
  EXPECT_EQ(pending[0].delivery_count, 2);  // reading the history delivered it again
  range.min_idle = 1h;
  EXPECT_TRUE(s.pending_range("g", range).empty());

  // Bob takes over what Alice holds.
  EXPECT_TRUE(s.claim("g", "bob", 1h, {ids[1]}).empty());  // not idle that long
  const auto claimed = s.claim("g", "bob", 0ms, {ids[1]});
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].fields, (Fields{{"job", "1"}}));
  EXPECT_EQ(s.fast_claim("g", "bob", 0ms, {ids[2]}), (std::vector<StreamMessageId>{ids[2]}));
  summary = s.pending("g");
  EXPECT_EQ(summary.consumers, (std::vector<std::pair<std::string, std::int64_t>>{{"bob", 2}}));

  // auto_claim back to Alice, with an entry deleted meanwhile reported as such.
  EXPECT_EQ(s.remove({ids[2]}), 1);
  const auto auto_claimed = s.auto_claim("g", "alice", 0ms, StreamMessageId{}, 10);
  EXPECT_EQ(auto_claimed.next, StreamMessageId{});
  ASSERT_EQ(auto_claimed.entries.size(), 1U);
  EXPECT_EQ(auto_claimed.entries[0].id, ids[1]);
  EXPECT_EQ(auto_claimed.deleted_ids, (std::vector<StreamMessageId>{ids[2]}));
  const auto fast = s.fast_auto_claim("g", "bob", 0ms, StreamMessageId{}, 10);
  EXPECT_EQ(fast.ids, (std::vector<StreamMessageId>{ids[1]}));

  const auto groups = s.groups();
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].name, "g");
  EXPECT_EQ(groups[0].consumers, 3);
  EXPECT_EQ(groups[0].pending, 1);
  EXPECT_EQ(groups[0].last_delivered_id, ids[3]);
  const auto consumers = s.consumers("g");
  ASSERT_EQ(consumers.size(), 3U);
  EXPECT_EQ(consumers[0].name, "alice");
  EXPECT_EQ(consumers[0].pending, 0);
  EXPECT_EQ(consumers[1].name, "bob");
  EXPECT_EQ(consumers[1].pending, 1);
  EXPECT_EQ(consumers[2].name, "idle");
  EXPECT_GE(consumers[2].idle, 0ms);
  expect_error(errc::server_error, [&] { (void)s.consumers("none"); });  // no such group

  const auto info = s.info();
  EXPECT_EQ(info.length, 3);
  EXPECT_EQ(info.groups, 1);
  EXPECT_EQ(info.last_generated_id, ids[3]);
  ASSERT_TRUE(info.first_entry.has_value());
  EXPECT_EQ(info.first_entry->id, ids[0]);
  EXPECT_EQ(info.first_entry->fields, (Fields{{"job", "0"}}));
  ASSERT_TRUE(info.last_entry.has_value());
  EXPECT_EQ(info.last_entry->id, ids[3]);
  EXPECT_GE(info.radix_tree_keys, 1);
  EXPECT_GE(info.radix_tree_nodes, 1);
  EXPECT_EQ(s.remove_consumer("g", "bob"), 1);
  s.set_group_id("g", StreamMessageId{});
  EXPECT_EQ(s.read_group("g", "carol", StreamMessageId::never_delivered(), 10, true).size(), 3U);
  EXPECT_EQ(s.pending("g").total, 0);  // NOACK: nothing pending
  EXPECT_TRUE(s.remove_group("g"));
  EXPECT_FALSE(s.remove_group("g"));
}

TEST_F(StreamTest, PendingRangeEntriesReadsThePendingEntriesWithTheirFields) {
  auto s = stream();
  s.create_group("g", StreamMessageId::newest(), true);
  std::vector<StreamMessageId> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(s.add({{"job", std::to_string(i)}, {"n", "x"}}));
  ASSERT_EQ(s.read_group("g", "alice", StreamMessageId::never_delivered(), 3).size(), 3U);
  ASSERT_EQ(s.read_group("g", "bob", StreamMessageId::never_delivered(), 3).size(), 1U);

  redisson::StreamPendingRange range;
  const auto all = s.pending_range_entries("g", range);
  ASSERT_EQ(all.size(), 4U);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].id, ids[i]);
    EXPECT_EQ(all[i].fields, (Fields{{"job", std::to_string(i)}, {"n", "x"}}));
  }
  EXPECT_EQ(s.async_pending_range_entries("g", range, asio::use_future).get(), all);
  // It only reads: the entries stay delivered once, to the same consumers.
  for (const auto& entry : s.pending_range("g", range)) {
    EXPECT_EQ(entry.delivery_count, 1) << entry.id.to_string();
  }
  EXPECT_EQ(s.pending("g").consumers,
            (std::vector<std::pair<std::string, std::int64_t>>{{"alice", 3}, {"bob", 1}}));

  range.consumer = "bob";
  auto some = s.pending_range_entries("g", range);
  ASSERT_EQ(some.size(), 1U);
  EXPECT_EQ(some[0].id, ids[3]);
  range.consumer = "alice";
  range.from = ids[1];
  range.count = 1;
  some = s.pending_range_entries("g", range);
  ASSERT_EQ(some.size(), 1U);
  EXPECT_EQ(some[0].id, ids[1]);
  range.count = 10;
  range.to = ids[2];
  some = s.pending_range_entries("g", range);
  ASSERT_EQ(some.size(), 2U);
  EXPECT_EQ(some[1].id, ids[2]);
  range.min_idle = 1h;
  EXPECT_TRUE(s.pending_range_entries("g", range).empty());
  range.min_idle = 0ms;
  EXPECT_EQ(s.pending_range_entries("g", range).size(), 2U);

  // A pending entry deleted from the stream is listed without fields; an acked one not at all.
  EXPECT_EQ(s.remove({ids[0]}), 1);
  EXPECT_EQ(s.ack("g", {ids[1]}), 1);
  const auto left = s.pending_range_entries("g", redisson::StreamPendingRange{});
  ASSERT_EQ(left.size(), 3U);
  EXPECT_EQ(left[0].id, ids[0]);
  EXPECT_TRUE(left[0].fields.empty());
  EXPECT_EQ(left[1].id, ids[2]);
  EXPECT_EQ(left[1].fields, (Fields{{"job", "2"}, {"n", "x"}}));
  EXPECT_EQ(left[2].id, ids[3]);

  EXPECT_TRUE(s.remove_group("g"));
  expect_error(errc::server_error, [&] {
    (void)s.pending_range_entries("g", redisson::StreamPendingRange{});
  });  // NOGROUP
  expect_error(errc::server_error, [&] {
    (void)stream("none").pending_range_entries("g", redisson::StreamPendingRange{});
  });  // no such key
}

TEST_F(StreamTest, AWaitingGroupReadGetsANewEntry) {
  auto s = stream();
  s.create_group("g", StreamMessageId::newest(), true);
  auto read = s.async_read_group("g", "c", StreamMessageId::never_delivered(), 5, 60s, false,
                                 asio::use_future);
  ASSERT_TRUE(redisson::test::eventually([&] { return blocked_clients(server) == 1; }));
  server.command({"XADD", "s", "*", "k", "v"});
  ASSERT_EQ(read.wait_for(30s), std::future_status::ready);
  const auto got = read.get();
  ASSERT_EQ(got.size(), 1U);
  EXPECT_EQ(got[0].fields, (Fields{{"k", "v"}}));
  EXPECT_EQ(s.pending("g").total, 1);
}

TEST_F(StreamTest, InfoOfAnEmptyOrMissingStream) {
  auto s = stream();
  expect_error(errc::server_error, [&] { (void)s.info(); });  // no such key
  s.create_group("g", StreamMessageId::newest(), true);
  const auto info = s.async_info(asio::use_future).get();
  EXPECT_EQ(info.length, 0);
  EXPECT_EQ(info.groups, 1);
  EXPECT_FALSE(info.first_entry.has_value());
  EXPECT_FALSE(info.last_entry.has_value());
  EXPECT_TRUE(s.consumers("g").empty());
}

TEST_F(StreamTest, AWrongTypeKeyFailsAndIsLeftAlone) {
  server.command({"SET", "s", "x"});
  auto s = stream();
  expect_error(errc::wrong_type, [&] { s.add({{"k", "v"}}); });
  expect_error(errc::wrong_type, [&] { s.size(); });
  expect_error(errc::wrong_type,
               [&] { s.range(StreamMessageId::min(), StreamMessageId::max(), 5); });
  expect_error(errc::wrong_type, [&] { s.read(StreamMessageId{}, 5); });
  expect_error(errc::wrong_type, [&] { s.read(StreamMessageId::newest(), 5, 1s); });
  expect_error(errc::wrong_type, [&] { s.read(StreamMessageId{}, 5, 1s); });
  expect_error(errc::wrong_type, [&] { s.trim(StreamTrim::max_len(0)); });
  expect_error(errc::wrong_type,
               [&] { (void)s.pending_range_entries("g", redisson::StreamPendingRange{}); });
  EXPECT_EQ(server.command({"GET", "s"}), "x");
}

TEST_F(StreamTest, BadArgumentsChangeNothing) {
  auto s = stream();
  const auto id = s.add({{"k", "v"}});
  s.create_group("g", StreamMessageId{});
  const auto before = server.command({"XRANGE", "s", "-", "+"});
  expect_error(errc::invalid_argument, [&] { s.add({}); });
  expect_error(errc::invalid_argument, [&] {
    s.add({{"k", "v"}}, StreamAddOptions{StreamMessageId::newest(), {}});
  });
  StreamAddOptions bad_trim;
  bad_trim.trim = StreamTrim::max_len(-1);
  expect_error(errc::invalid_argument, [&] { s.add({{"k", "v"}}, bad_trim); });
  bad_trim.trim = StreamTrim::max_len(1);
  bad_trim.trim->limit = 5;  // LIMIT without ~
  expect_error(errc::invalid_argument, [&] { s.add({{"k", "v"}}, bad_trim); });
  expect_error(errc::invalid_argument,
               [&] { s.trim(StreamTrim::min_id_of(StreamMessageId::max())); });
  expect_error(errc::invalid_argument,
               [&] { s.range(StreamMessageId::min(), StreamMessageId::max(), 0); });
  expect_error(errc::invalid_argument, [&] { s.read(StreamMessageId{}, -1); });
  expect_error(errc::invalid_argument, [&] { s.read(StreamMessageId{}, 5, -1ms); });
  expect_error(errc::invalid_argument, [&] { s.read(StreamMessageId::never_delivered(), 5); });
  expect_error(errc::invalid_argument, [&] { s.remove({}); });
  expect_error(errc::invalid_argument, [&] { s.remove({StreamMessageId::newest()}); });
  expect_error(errc::invalid_argument, [&] { s.read_group("g", "", StreamMessageId{}, 5); });
  expect_error(errc::invalid_argument,
               [&] { s.read_group("g", "c", StreamMessageId::newest(), 5); });
  expect_error(errc::invalid_argument,
               [&] { s.read_group("g", "c", StreamMessageId::never_delivered(), -2, 1s); });
  expect_error(errc::invalid_argument, [&] { s.ack("g", {}); });
  expect_error(errc::invalid_argument, [&] { s.claim("g", "c", -1ms, {id}); });
  expect_error(errc::invalid_argument,
               [&] { s.auto_claim("g", "c", 0ms, StreamMessageId::min(), 10); });
  expect_error(errc::invalid_argument, [&] { s.create_group("", StreamMessageId{}); });
  redisson::StreamPendingRange bad_range;
  bad_range.count = 0;
  expect_error(errc::invalid_argument, [&] { (void)s.pending_range_entries("g", bad_range); });
  bad_range.count = -3;
  expect_error(errc::invalid_argument, [&] { (void)s.pending_range_entries("g", bad_range); });
  bad_range.count = 10;
  bad_range.min_idle = -1ms;
  expect_error(errc::invalid_argument, [&] { (void)s.pending_range_entries("g", bad_range); });
  bad_range.min_idle.reset();
  bad_range.to = StreamMessageId::newest();
  expect_error(errc::invalid_argument, [&] { (void)s.pending_range_entries("g", bad_range); });
  bad_range.to = StreamMessageId::max();
  bad_range.count = 0;
  auto refused = s.async_pending_range_entries("g", bad_range, asio::use_future);
  try {
    (void)refused.get();
    ADD_FAILURE() << "a count of 0 was sent";
  } catch (const std::system_error& failure) {
    EXPECT_EQ(failure.code(), make_error_code(errc::invalid_argument));
  }
  EXPECT_EQ(server.command({"XRANGE", "s", "-", "+"}), before);
  EXPECT_EQ(s.pending("g").total, 0);
  EXPECT_EQ(s.groups().size(), 1U);
}

class JavaStreamTest : public redisson::test::ServerTest {
 protected:
  void SetUp() override { redisson::test::load_java_fixtures(server); }
};

TEST_F(JavaStreamTest, ReadsJavasEntryAndWritesTheSameBytes) {
  for (const char* name : {"stream_kryo", "stream_string"}) {
    SCOPED_TRACE(name);
    const auto& fixture = redisson::test::java_case(name);
    const auto codec = redisson::test::codec_of_case(fixture);
    const std::string key = fixture["key"];
    Stream<std::string, std::string> java(client, key, codec);
    const auto entries = java.range(StreamMessageId::min(), StreamMessageId::max(), 10);
    ASSERT_EQ(entries.size(), 1U);
    EXPECT_EQ(entries[0].id, StreamMessageId::parse(fixture["id"].get<std::string>()));
    EXPECT_EQ(entries[0].fields, (Fields{{"f1", "v1"}, {"f2", "v2"}}));
    EXPECT_EQ(java.read(StreamMessageId{}, 10), entries);

    // Java's call again, from C++: the same field and value bytes, in the same order.
    Stream<std::string, std::string> ours(client, std::string("ours:") + name, codec);
    const auto id = ours.add({{"f1", "v1"}, {"f2", "v2"}});
    const auto stored = lines(server.command({"XRANGE", ours.name(), "-", "+"}));
    ASSERT_EQ(stored.size(), 5U);
    EXPECT_EQ(stored[0], id.to_string());
    const auto& content = redisson::test::java_dump_entry(key)["content"][0]["fields"];
    ASSERT_EQ(content.size(), 2U);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(to_hex(stored[1 + 2 * i]), content[i][0]["hex"].get<std::string>());
      EXPECT_EQ(to_hex(stored[2 + 2 * i]), content[i][1]["hex"].get<std::string>());
    }
  }
}

}  // namespace

}  // namespace collections_stream_test
