// The pipeline of a connection without a connection: each test feeds the events the Connection
// would (submit, write started and done, replies parsed, a deadline, a lost connection) and
// checks what comes out. No socket, no thread, no sleep; times are made up.
#include "net/multiplexer.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/error.hpp"

namespace unit_net_multiplexer_test {

using namespace std::chrono_literals;
using redisson::Command;
using redisson::errc;
using redisson::Reply;
using redisson::ReplyType;
using redisson::detail::Clock;
using redisson::detail::Multiplexer;
using redisson::detail::ReplyCallback;

namespace {

const Clock::time_point kT0 = Clock::time_point{} + 1h;

Reply simple(std::string text) {
  Reply reply;
  reply.type = ReplyType::simple_string;
  reply.str = std::move(text);
  return reply;
}

Reply frame(ReplyType type, std::initializer_list<const char*> words) {
  Reply reply;
  reply.type = type;
  for (const char* word : words) {
    Reply element;
    element.type = ReplyType::bulk_string;
    element.str = word;
    reply.elements.push_back(std::move(element));
  }
  return reply;
}

// What the callbacks a test hands out were called with, by name.
struct Log {
  std::vector<std::string> calls;
  ReplyCallback callback(std::string name) {
    return [this, name = std::move(name)](std::error_code ec, Reply reply) {
      calls.push_back(name + ":" + (ec ? ec.message() : reply.str));
    };
  }
};

void run(std::vector<ReplyCallback>& callbacks, std::error_code ec) {
  for (auto& callback : callbacks) callback(ec, Reply{});
}

std::string encoded(const Command& command) {
  Multiplexer probe(false);
  probe.submit(command, kT0, nullptr);
  std::string bytes;
  probe.start_write(bytes);
  return bytes;
}

// Sends what is unsent, as the Connection's write would; returns the bytes.
std::string write_all(Multiplexer& mux) {
  std::string bytes;
  EXPECT_TRUE(mux.start_write(bytes));
  mux.write_done();
  return bytes;
}

// Routes `replies` and calls each answer's callback with its reply; returns the pushes.
std::vector<Reply> deliver(Multiplexer& mux, std::vector<Reply> replies) {
  Multiplexer::Routing routing;
  EXPECT_TRUE(mux.route_replies(replies, routing));
  std::vector<Reply> pushes;
  std::size_t next = 0;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    if (routing.is_push[i] != 0) {
      pushes.push_back(std::move(replies[i]));
      continue;
    }
    auto& callback = routing.callbacks.at(next++);
    if (callback) callback({}, std::move(replies[i]));
  }
  EXPECT_EQ(next, routing.callbacks.size());
  return pushes;
}

}  // namespace

TEST(Multiplexer, SubmitEncodesCommandsInOrderAndOneWriteSendsThemAll) {
  Multiplexer mux(false);
  Log log;
  EXPECT_TRUE(mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a")));
  EXPECT_FALSE(mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b")));
  EXPECT_EQ(mux.pending(), 2U);
  EXPECT_EQ(mux.sent(), 0U);

  std::string bytes;
  ASSERT_TRUE(mux.start_write(bytes));
  EXPECT_EQ(bytes, "*2\r\n$3\r\nGET\r\n$1\r\na\r\n*2\r\n$3\r\nGET\r\n$1\r\nb\r\n");
  EXPECT_EQ(mux.sent(), 2U);
  EXPECT_TRUE(mux.writing());
  std::string more;
  EXPECT_FALSE(mux.start_write(more));  // nothing unsent, and a write is under way
  mux.write_done();
  EXPECT_FALSE(mux.writing());
  EXPECT_FALSE(mux.start_write(more));
  EXPECT_TRUE(more.empty());
}

TEST(Multiplexer, CommandsSubmittedDuringAWriteWaitForTheNextOne) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  std::string bytes;
  ASSERT_TRUE(mux.start_write(bytes));
  EXPECT_FALSE(mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b")));  // not idle
  EXPECT_FALSE(mux.start_write(bytes));
  EXPECT_EQ(mux.sent(), 1U);
  mux.write_done();
  ASSERT_TRUE(mux.start_write(bytes));
  EXPECT_EQ(bytes, encoded(Command{"GET", "b"}));
  EXPECT_EQ(mux.sent(), 2U);
}

TEST(Multiplexer, RepliesCompleteSentCommandsInOrder) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b"));
  write_all(mux);
  EXPECT_TRUE(deliver(mux, {simple("1")}).empty());
  EXPECT_EQ(mux.sent(), 1U);
  EXPECT_TRUE(deliver(mux, {simple("2")}).empty());
  EXPECT_EQ(log.calls, (std::vector<std::string>{"a:1", "b:2"}));
  EXPECT_EQ(mux.pending(), 0U);
  EXPECT_TRUE(mux.submit(Command{"PING"}, kT0, log.callback("c")));  // idle again
}

TEST(Multiplexer, PushesAreRoutedAsidePlainArraysAreAnswers) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"LRANGE", "l", "0", "-1"}, kT0 + 1s, log.callback("a"));
  write_all(mux);
  auto answer = frame(ReplyType::array, {"message", "ch", "hi"});  // looks like a message
  answer.str = "list";
  const auto pushes =
      deliver(mux, {frame(ReplyType::push, {"invalidate", "key"}), std::move(answer)});
  ASSERT_EQ(pushes.size(), 1U);
  EXPECT_EQ(pushes[0].elements[0].str, "invalidate");
  EXPECT_EQ(log.calls, (std::vector<std::string>{"a:list"}));
}

TEST(Multiplexer, ASubscriberRoutesResp2MessageArraysAsPushesAndConfirmationsAsAnswers) {
  Multiplexer mux(true);
  Log log;
  mux.submit(Command{"SUBSCRIBE", "ch"}, kT0 + 1s, log.callback("sub"));
  write_all(mux);
  auto confirmation = frame(ReplyType::array, {"subscribe", "ch", "1"});
  confirmation.str = "confirmed";
  const auto pushes =
      deliver(mux, {std::move(confirmation), frame(ReplyType::array, {"message", "ch", "hi"})});
  ASSERT_EQ(pushes.size(), 1U);
  EXPECT_EQ(pushes[0].elements[2].str, "hi");
  EXPECT_EQ(log.calls, (std::vector<std::string>{"sub:confirmed"}));
}

TEST(Multiplexer, SunsubscribeConfirmsOnlyAnSunsubscribeOtherwiseItIsAMessage) {
  Multiplexer mux(true);
  Log log;
  mux.submit(Command{"SSUBSCRIBE", "ch"}, kT0 + 1s, log.callback("ssub"));
  mux.submit(Command{"SUNSUBSCRIBE", "ch"}, kT0 + 1s, log.callback("sunsub"));
  write_all(mux);
  // A node dropping a channel whose slot moved, while SSUBSCRIBE is the next command sent:
  // not its answer.
  auto dropped = deliver(mux, {frame(ReplyType::push, {"sunsubscribe", "other", "0"})});
  EXPECT_EQ(dropped.size(), 1U);
  EXPECT_TRUE(log.calls.empty());
  auto confirmation = frame(ReplyType::push, {"sunsubscribe", "ch", "0"});
  confirmation.str = "gone";
  auto ssub = frame(ReplyType::push, {"ssubscribe", "ch", "1"});
  ssub.str = "joined";
  EXPECT_TRUE(deliver(mux, {std::move(ssub), std::move(confirmation)}).empty());
  EXPECT_EQ(log.calls, (std::vector<std::string>{"ssub:joined", "sunsub:gone"}));
  // Nothing sent any more: an unasked sunsubscribe is a message.
  EXPECT_EQ(deliver(mux, {frame(ReplyType::push, {"sunsubscribe", "x", "0"})}).size(), 1U);
}

TEST(Multiplexer, MoreAnswersThanCommandsSentIsOutOfStepAndChangesNothing) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  write_all(mux);
  mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b"));  // unsent: no reply expected
  const std::vector<Reply> replies{simple("1"), simple("2")};
  Multiplexer::Routing routing;
  EXPECT_FALSE(mux.route_replies(replies, routing));
  EXPECT_TRUE(routing.callbacks.empty());
  EXPECT_EQ(mux.pending(), 2U);
  EXPECT_EQ(mux.sent(), 1U);
  auto lost = mux.on_connection_lost();
  EXPECT_EQ(lost.size(), 1U);
}

TEST(Multiplexer, CompleteFrontTakesTheFirstSentCommand) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 5s, log.callback("a"));
  write_all(mux);
  EXPECT_TRUE(mux.front_waiting());
  EXPECT_EQ(mux.front_deadline(), kT0 + 5s);
  auto callback = mux.complete_front();
  callback({}, simple("mine"));
  EXPECT_EQ(log.calls, (std::vector<std::string>{"a:mine"}));
  EXPECT_EQ(mux.pending(), 0U);
  EXPECT_EQ(mux.sent(), 0U);
  EXPECT_FALSE(mux.front_waiting());
}

TEST(Multiplexer, ADeadlineFailsOnlyWhatIsDueAndNamesTheNextOne) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 3s, log.callback("b"));
  mux.submit(Command{"GET", "c"}, kT0 + 2s, log.callback("c"));
  write_all(mux);

  auto nothing = mux.on_deadline(kT0 + 500ms, true);
  EXPECT_TRUE(nothing.expired.empty());
  EXPECT_EQ(nothing.next, kT0 + 1s);

  auto first = mux.on_deadline(kT0 + 1s, true);  // due at exactly its deadline
  ASSERT_EQ(first.expired.size(), 1U);
  EXPECT_TRUE(first.front_expired);
  EXPECT_FALSE(first.presumed_dead);  // one timeout alone is a slow server
  EXPECT_EQ(first.next, kT0 + 2s);
  run(first.expired, make_error_code(errc::timeout));
  EXPECT_EQ(log.calls.size(), 1U);
  EXPECT_FALSE(mux.front_waiting());

  // Its late reply is dropped; the others still get theirs.
  mux.on_bytes_read();
  deliver(mux, {simple("late"), simple("2"), simple("3")});
  ASSERT_EQ(log.calls.size(), 3U);
  EXPECT_EQ(log.calls[1], "b:2");
  EXPECT_EQ(log.calls[2], "c:3");
}

TEST(Multiplexer, CommandsTimedOutUnsentNeverReachTheServer) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 9s, log.callback("b"));
  mux.submit(Command{"GET", "c"}, kT0 + 1s, log.callback("c"));
  auto expiry = mux.on_deadline(kT0 + 1s, false);
  EXPECT_EQ(expiry.expired.size(), 2U);
  EXPECT_FALSE(expiry.presumed_dead);  // nothing sent timed out
  EXPECT_EQ(expiry.next, kT0 + 9s);
  EXPECT_EQ(mux.pending(), 3U);  // dropped at the next write
  EXPECT_EQ(write_all(mux), encoded(Command{"GET", "b"}));
  EXPECT_EQ(mux.pending(), 1U);
  EXPECT_EQ(mux.sent(), 1U);
}

TEST(Multiplexer, AWriteOfOnlyTimedOutCommandsDoesNotStart) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  auto expiry = mux.on_deadline(kT0 + 2s, true);
  EXPECT_EQ(expiry.expired.size(), 1U);
  std::string bytes = "untouched";
  EXPECT_FALSE(mux.start_write(bytes));
  EXPECT_EQ(bytes, "untouched");
  EXPECT_EQ(mux.pending(), 0U);
  EXPECT_FALSE(mux.writing());
}

TEST(Multiplexer, TwoSilentTimeoutsInARowPresumeTheConnectionDead) {
  Multiplexer mux(false);
  Log log;
  mux.on_connected();
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 2s, log.callback("b"));
  write_all(mux);
  EXPECT_FALSE(mux.on_deadline(kT0 + 1s, true).presumed_dead);
  const auto second = mux.on_deadline(kT0 + 2s, true);
  EXPECT_EQ(second.expired.size(), 1U);
  EXPECT_TRUE(second.presumed_dead);
}

TEST(Multiplexer, ABytesReadBetweenTimeoutsKeepsTheConnection) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 2s, log.callback("b"));
  mux.submit(Command{"GET", "c"}, kT0 + 3s, log.callback("c"));
  write_all(mux);
  EXPECT_FALSE(mux.on_deadline(kT0 + 1s, true).presumed_dead);
  mux.on_bytes_read();  // e.g. part of a large reply
  EXPECT_FALSE(mux.on_deadline(kT0 + 2s, true).presumed_dead);
  EXPECT_TRUE(mux.on_deadline(kT0 + 3s, true).presumed_dead);
}

TEST(Multiplexer, TimeoutsOfUnsentCommandsOrWhileNotReadyAreNotSilence) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  mux.submit(Command{"GET", "b"}, kT0 + 2s, log.callback("b"));
  write_all(mux);
  mux.submit(Command{"GET", "c"}, kT0 + 3s, log.callback("c"));
  EXPECT_FALSE(mux.on_deadline(kT0 + 1s, false).presumed_dead);  // e.g. handshaking
  EXPECT_FALSE(mux.on_deadline(kT0 + 2s, true).presumed_dead);   // the first that counts
  EXPECT_FALSE(mux.on_deadline(kT0 + 3s, true).presumed_dead);   // c was never sent
}

TEST(Multiplexer, ALostConnectionFailsTheSentAndKeepsTheUnsentForTheNext) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  std::string bytes;
  ASSERT_TRUE(mux.start_write(bytes));  // the write never finishes: the connection breaks
  mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b"));
  auto lost = mux.on_connection_lost();
  ASSERT_EQ(lost.size(), 1U);
  run(lost, make_error_code(errc::connection_lost));
  EXPECT_EQ(log.calls,
            (std::vector<std::string>{"a:" + make_error_code(errc::connection_lost).message()}));
  EXPECT_FALSE(mux.writing());
  EXPECT_EQ(mux.pending(), 1U);
  EXPECT_EQ(mux.sent(), 0U);
  EXPECT_EQ(write_all(mux), encoded(Command{"GET", "b"}));  // resent on the next connection
}

TEST(Multiplexer, HandshakeCommandsGoAheadOfTheUnsentAsSent) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));  // queued while connecting
  mux.insert_sent(kT0 + 10s, log.callback("hello"));
  EXPECT_EQ(mux.sent(), 1U);
  deliver(mux, {simple("hi")});
  EXPECT_EQ(log.calls, (std::vector<std::string>{"hello:hi"}));
  // cancel_unsent leaves a handshake command alone.
  mux.insert_sent(kT0 + 10s, log.callback("select"));
  auto taken = mux.cancel_unsent();
  EXPECT_EQ(taken.size(), 1U);
  EXPECT_EQ(mux.pending(), 1U);
  EXPECT_EQ(mux.sent(), 1U);
  std::string bytes;
  EXPECT_FALSE(mux.start_write(bytes));  // GET a went with cancel_unsent
}

TEST(Multiplexer, CancelUnsentKeepsTheSentWaitingAndSkipsTheTimedOut) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  write_all(mux);
  mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b"));
  mux.submit(Command{"GET", "c"}, kT0 + 9s, log.callback("c"));
  auto expiry = mux.on_deadline(kT0 + 1s, true);
  EXPECT_EQ(expiry.expired.size(), 2U);  // a (sent) and b (unsent)
  auto taken = mux.cancel_unsent();
  EXPECT_EQ(taken.size(), 1U);  // c; b's caller was told already
  EXPECT_EQ(mux.pending(), 1U);
  EXPECT_EQ(mux.sent(), 1U);
  std::string bytes;
  EXPECT_FALSE(mux.start_write(bytes));
}

TEST(Multiplexer, TakeAllTakesEveryCommandSentOrNot) {
  Multiplexer mux(false);
  Log log;
  mux.submit(Command{"GET", "a"}, kT0 + 1s, log.callback("a"));
  write_all(mux);
  mux.submit(Command{"GET", "b"}, kT0 + 1s, log.callback("b"));
  mux.submit(Command{"GET", "c"}, kT0 + 9s, log.callback("c"));
  EXPECT_EQ(mux.on_deadline(kT0 + 1s, true).expired.size(), 2U);  // a and b
  auto all = mux.take_all();
  EXPECT_EQ(all.size(), 1U);
  run(all, make_error_code(errc::shutdown));
  EXPECT_EQ(log.calls,
            (std::vector<std::string>{"c:" + make_error_code(errc::shutdown).message()}));
  EXPECT_EQ(mux.pending(), 0U);
  EXPECT_EQ(mux.sent(), 0U);
  std::string bytes;
  EXPECT_FALSE(mux.start_write(bytes));
}

TEST(Multiplexer, AGroupIsWrittenWholeAndOnlyItsAnsweredCommandsTakeReplies) {
  Multiplexer mux(false);
  Log log;
  const std::vector<Command> group{Command{"CLIENT", "REPLY", "OFF"}, Command{"SET", "k", "v"},
                                   Command{"CLIENT", "REPLY", "ON"}};
  std::vector<ReplyCallback> callbacks;
  callbacks.emplace_back();  // no reply under CLIENT REPLY OFF
  callbacks.emplace_back();
  callbacks.push_back(log.callback("on"));
  mux.submit(Command{"GET", "before"}, kT0 + 1s, log.callback("before"));
  const std::vector<const Command*> pointers{&group[0], &group[1], &group[2]};
  mux.submit_group(pointers, kT0 + 1s, callbacks);
  mux.submit(Command{"GET", "after"}, kT0 + 1s, log.callback("after"));
  EXPECT_EQ(mux.pending(), 3U);  // before, the group's one answered command, after
  EXPECT_EQ(write_all(mux), encoded(Command{"GET", "before"}) + encoded(group[0]) +
                                encoded(group[1]) + encoded(group[2]) +
                                encoded(Command{"GET", "after"}));
  deliver(mux, {simple("b"), simple("OK"), simple("a")});
  EXPECT_EQ(log.calls, (std::vector<std::string>{"before:b", "on:OK", "after:a"}));
}

TEST(Multiplexer, AGroupTimedOutUnsentIsDroppedWhole) {
  Multiplexer mux(false);
  Log log;
  const std::vector<Command> group{Command{"MULTI"}, Command{"INCR", "n"}, Command{"EXEC"}};
  std::vector<ReplyCallback> callbacks;
  callbacks.push_back(log.callback("multi"));
  callbacks.emplace_back();
  callbacks.push_back(log.callback("exec"));
  const std::vector<const Command*> pointers{&group[0], &group[1], &group[2]};
  mux.submit_group(pointers, kT0 + 1s, callbacks);
  mux.submit(Command{"GET", "later"}, kT0 + 5s, log.callback("later"));
  auto expiry = mux.on_deadline(kT0 + 1s, true);
  run(expiry.expired, redisson::make_error_code(errc::timeout));
  // Neither MULTI nor INCR nor EXEC reaches the server: only what did not time out.
  EXPECT_EQ(write_all(mux), encoded(Command{"GET", "later"}));
}

}  // namespace unit_net_multiplexer_test
