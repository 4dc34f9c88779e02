// Who reads a connection's socket, without a connection: each test feeds the events the
// Connection would (a blocking caller takes the reading, hands over replies, ends its read; the
// I/O thread's read cycle starts or drains the socket; a deadline, a lost connection, a shutdown)
// and checks the action that comes out. Races are events in the order they could interleave
// under the Connection's lock. No socket, no thread, no sleep.
#include "net/read_ownership.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace unit_net_read_ownership_test {

using redisson::Reply;
using redisson::ReplyType;
using redisson::detail::ReadOwnership;

using Mode = ReadOwnership::Mode;
using CallerEnd = ReadOwnership::CallerEnd;
using HandBack = ReadOwnership::HandBack;
using Kind = ReadOwnership::IoTurn::Kind;
using Wake = ReadOwnership::Wake;

namespace {

Reply simple(std::string text) {
  Reply reply;
  reply.type = ReplyType::simple_string;
  reply.str = std::move(text);
  return reply;
}

std::vector<std::string> texts(const std::vector<Reply>& replies) {
  std::vector<std::string> out;
  out.reserve(replies.size());
  for (const auto& reply : replies) out.push_back(reply.str);
  return out;
}

// A connection whose I/O thread has read (the session's first read cycle) and waits for
// readiness: the state a caller finds it in when it writes on an idle connection.
ReadOwnership waiting_for_readiness() {
  ReadOwnership reading(true);
  EXPECT_EQ(reading.on_io_ready().kind, Kind::read);
  reading.on_io_drained();
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  return reading;
}

}  // namespace

TEST(ReadOwnership, TheIoThreadReadsAFreshConnection) {
  ReadOwnership reading(true);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  EXPECT_FALSE(reading.wake_pending());
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::read);
  EXPECT_TRUE(turn.handed.empty());
  EXPECT_EQ(reading.mode(), Mode::io_reading);
  reading.on_io_drained();
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, ACallerThatWantsItTakesTheReadingOfAnIdleConnection) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  ASSERT_TRUE(grant);
  EXPECT_NE(grant.token, 0U);
  EXPECT_FALSE(grant.drain_wake);
  EXPECT_EQ(reading.mode(), Mode::caller);
  EXPECT_TRUE(reading.held_by(grant.token));
  EXPECT_FALSE(reading.held_by(grant.token + 1));
}

TEST(ReadOwnership, ACallerThatDoesNotWantItLeavesTheReadingToTheIoThread) {
  auto reading = waiting_for_readiness();
  EXPECT_FALSE(reading.take_for_caller(false));
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, WithoutAWayToWakeACallerNoCallerEverReads) {
  ReadOwnership reading(false);
  EXPECT_FALSE(reading.take_for_caller(true));
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  EXPECT_EQ(reading.on_front_expired(), Wake::none);
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
}

TEST(ReadOwnership, NoCallerTakesTheReadingWhileTheIoThreadReads) {
  ReadOwnership reading(true);
  ASSERT_EQ(reading.on_io_ready().kind, Kind::read);
  EXPECT_FALSE(reading.take_for_caller(true));
  // A full read posts the rest of the cycle: still the I/O thread's.
  EXPECT_EQ(reading.on_io_ready().kind, Kind::read);
  EXPECT_FALSE(reading.take_for_caller(true));
  reading.on_io_drained();
  EXPECT_TRUE(reading.take_for_caller(true));
}

TEST(ReadOwnership, OnlyOneCallerReadsAtATime) {
  auto reading = waiting_for_readiness();
  const auto first = reading.take_for_caller(true);
  ASSERT_TRUE(first);
  EXPECT_FALSE(reading.take_for_caller(true));
  EXPECT_TRUE(reading.held_by(first.token));
}

TEST(ReadOwnership, ACallerThatReadOnlyItsReplyLeavesTheIoThreadNothingToDo) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::replied), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  EXPECT_FALSE(reading.held_by(grant.token));
  // The next blocking call takes it again, under a new token.
  const auto next = reading.take_for_caller(true);
  ASSERT_TRUE(next);
  EXPECT_NE(next.token, grant.token);
}

TEST(ReadOwnership, RepliesACallerParsedForOthersReachTheIoThreadInOrderBeforeAnyoneElseReads) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("push-before"));
  reading.hand_over(grant.token, simple("queued-behind"));
  EXPECT_EQ(reading.handed(), 2U);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::replied), HandBack::read_cycle);
  EXPECT_EQ(reading.mode(), Mode::handing_back);
  // Their commands were sent before any new caller's: nobody reads past them.
  EXPECT_FALSE(reading.take_for_caller(true));

  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::read);
  EXPECT_EQ(texts(turn.handed), (std::vector<std::string>{"push-before", "queued-behind"}));
  EXPECT_EQ(reading.handed(), 0U);
  EXPECT_EQ(reading.mode(), Mode::io_reading);
  EXPECT_FALSE(reading.take_for_caller(true));
  reading.on_io_drained();
  EXPECT_TRUE(reading.take_for_caller(true));
}

TEST(ReadOwnership, TheIoThreadsWaitFiringWhileACallerReadsOnlyRearmsIt) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::wait_for_caller);
  EXPECT_TRUE(turn.handed.empty());
  EXPECT_TRUE(reading.held_by(grant.token));
  // Nothing the I/O thread does meanwhile takes the reading back.
  reading.on_io_drained();
  EXPECT_TRUE(reading.held_by(grant.token));
  // Data that woke it may be left unread, and its re-armed wait will not report it again.
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::replied),
            HandBack::read_cycle_if_unread);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, AWaitFiredForAnEarlierCallerIsNotLookedForByTheNext) {
  auto reading = waiting_for_readiness();
  const auto first = reading.take_for_caller(true);
  ASSERT_EQ(reading.on_io_ready().kind, Kind::wait_for_caller);
  ASSERT_EQ(reading.on_caller_done(first.token, CallerEnd::replied),
            HandBack::read_cycle_if_unread);
  const auto second = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_caller_done(second.token, CallerEnd::replied), HandBack::nothing);
}

TEST(ReadOwnership, TheEndOfTheStreamSeenByACallerIsLeftToTheIoThreadsRecv) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::stream_ended), HandBack::read_cycle);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::read);  // its recv finds the end and fails the session
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, GarbageACallerReadFailsTheSessionAfterWhatItParsedBefore) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("before-garbage"));
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::garbage), HandBack::read_cycle);
  EXPECT_EQ(reading.mode(), Mode::handing_back);
  EXPECT_FALSE(reading.take_for_caller(true));
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::fail_garbage);
  EXPECT_EQ(texts(turn.handed), (std::vector<std::string>{"before-garbage"}));
  // Nobody reads a session about to be failed.
  EXPECT_FALSE(reading.take_for_caller(true));
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
  // The next session's first read cycle is an ordinary one.
  EXPECT_EQ(reading.on_io_ready().kind, Kind::read);
}

TEST(ReadOwnership, GarbageWithNothingParsedBeforeStillBlocksCallersUntilTheSessionFails) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::garbage), HandBack::read_cycle);
  EXPECT_FALSE(reading.take_for_caller(true));
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::fail_garbage);
  EXPECT_TRUE(turn.handed.empty());
}

TEST(ReadOwnership, ACallerThatGaveUpHandsBackLikeOneThatReplied) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::gave_up), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::io_thread);

  const auto again = reading.take_for_caller(true);
  reading.hand_over(again.token, simple("queued-behind"));
  EXPECT_EQ(reading.on_caller_done(again.token, CallerEnd::gave_up), HandBack::read_cycle);
  EXPECT_EQ(reading.mode(), Mode::handing_back);
}

TEST(ReadOwnership, ADeadlineWhileACallerReadsWakesItOnceAndTheNextCallerDrainsTheWake) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_front_expired(), Wake::caller);
  EXPECT_TRUE(reading.wake_pending());
  // One count in the eventfd ends its poll: no second write.
  EXPECT_EQ(reading.on_front_expired(), Wake::none);
  // The caller keeps the reading until it sees its command is over and hands it back.
  EXPECT_TRUE(reading.held_by(grant.token));
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::gave_up), HandBack::nothing);
  EXPECT_TRUE(reading.wake_pending());

  // The count left in the eventfd would end the next caller's poll at once.
  const auto next = reading.take_for_caller(true);
  ASSERT_TRUE(next);
  EXPECT_TRUE(next.drain_wake);
  EXPECT_FALSE(reading.wake_pending());
  EXPECT_EQ(reading.on_front_expired(), Wake::caller);
}

TEST(ReadOwnership, ADeadlineWithNoCallerReadingWakesNobody) {
  auto reading = waiting_for_readiness();
  EXPECT_EQ(reading.on_front_expired(), Wake::none);
  EXPECT_FALSE(reading.wake_pending());
  ASSERT_EQ(reading.on_io_ready().kind, Kind::read);
  EXPECT_EQ(reading.on_front_expired(), Wake::none);
}

TEST(ReadOwnership, TheConnectionLostWhileACallerReadsTakesTheReadingBackAndWakesIt) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("for-a-failed-command"));
  EXPECT_EQ(reading.on_connection_lost(), Wake::caller);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  EXPECT_FALSE(reading.held_by(grant.token));
  // What it parsed answers commands that failed with the connection.
  EXPECT_EQ(reading.handed(), 0U);

  // Its late reports, under the lock after the failure, change nothing.
  reading.hand_over(grant.token, simple("late"));
  EXPECT_EQ(reading.handed(), 0U);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::stream_ended), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::io_thread);

  // The next session starts with the I/O thread reading.
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::read);
  EXPECT_TRUE(turn.handed.empty());
}

TEST(ReadOwnership, ADeadlineThenTheConnectionLostWakeTheCallerOnce) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  EXPECT_EQ(reading.on_front_expired(), Wake::caller);
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
  EXPECT_FALSE(reading.held_by(grant.token));
  EXPECT_TRUE(reading.wake_pending());
}

TEST(ReadOwnership, TheConnectionLostWhileTheIoThreadReadsOrAwaitsAHandBackResetsTheReading) {
  auto reading = waiting_for_readiness();
  ASSERT_EQ(reading.on_io_ready().kind, Kind::read);
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
  EXPECT_EQ(reading.mode(), Mode::io_thread);

  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("queued-behind"));
  ASSERT_EQ(reading.on_caller_done(grant.token, CallerEnd::garbage), HandBack::read_cycle);
  // The posted read cycle is dropped with the session: nothing of it survives.
  EXPECT_EQ(reading.on_connection_lost(), Wake::none);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
  EXPECT_EQ(reading.handed(), 0U);
  const auto turn = reading.on_io_ready();
  EXPECT_EQ(turn.kind, Kind::read);
  EXPECT_TRUE(turn.handed.empty());
}

TEST(ReadOwnership, ATokenFromAnEarlierHandOverArrivingLateChangesNothing) {
  auto reading = waiting_for_readiness();
  const auto first = reading.take_for_caller(true);
  ASSERT_EQ(reading.on_connection_lost(), Wake::caller);
  // Reconnected, and another caller holds the reading before the first one reports.
  ASSERT_EQ(reading.on_io_ready().kind, Kind::read);
  reading.on_io_drained();
  const auto second = reading.take_for_caller(true);
  ASSERT_TRUE(second);
  EXPECT_TRUE(second.drain_wake);  // the wake meant for the first caller
  EXPECT_NE(second.token, first.token);

  reading.hand_over(first.token, simple("stale"));
  EXPECT_EQ(reading.on_caller_done(first.token, CallerEnd::replied), HandBack::nothing);
  EXPECT_EQ(reading.on_caller_done(first.token, CallerEnd::garbage), HandBack::nothing);
  EXPECT_EQ(reading.handed(), 0U);
  EXPECT_TRUE(reading.held_by(second.token));
  EXPECT_EQ(reading.mode(), Mode::caller);

  EXPECT_EQ(reading.on_caller_done(second.token, CallerEnd::replied), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, AReadingGivenBackTwiceCountsOnce) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("queued-behind"));
  ASSERT_EQ(reading.on_caller_done(grant.token, CallerEnd::replied), HandBack::read_cycle);
  // E.g. the blocking call's scope gives back a reading already given back: no second cycle.
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::gave_up), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::handing_back);
  EXPECT_EQ(reading.handed(), 1U);
}

TEST(ReadOwnership, AShutdownWhileACallerReadsTakesTheReadingBackAndWakesIt) {
  auto reading = waiting_for_readiness();
  const auto grant = reading.take_for_caller(true);
  reading.hand_over(grant.token, simple("for-a-failed-command"));
  EXPECT_EQ(reading.on_shutdown(), Wake::caller);
  EXPECT_FALSE(reading.held_by(grant.token));
  EXPECT_EQ(reading.handed(), 0U);
  EXPECT_EQ(reading.on_caller_done(grant.token, CallerEnd::replied), HandBack::nothing);
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

TEST(ReadOwnership, AShutdownWithNoCallerReadingWakesNobody) {
  auto reading = waiting_for_readiness();
  EXPECT_EQ(reading.on_shutdown(), Wake::none);
  EXPECT_FALSE(reading.wake_pending());
  EXPECT_EQ(reading.mode(), Mode::io_thread);
}

}  // namespace unit_net_read_ownership_test
