// ReliablePoll, the reliable topic subscriber's loop, driven by hand: each test feeds the
// outcomes a subscriber would see and checks the step that comes out. No server, no thread.
#include "pubsub/reliable_poll.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace unit_pubsub_reliable_poll_test {

namespace reliable_poll_test {

using redisson::StreamMessageId;
using redisson::detail::ReliableEntry;
using redisson::detail::ReliablePoll;
using Step = ReliablePoll::Step;
using Outcome = ReliablePoll::Outcome;

ReliableEntry entry(std::uint64_t ms, std::string payload) {
  return ReliableEntry{StreamMessageId(ms, 0), std::move(payload)};
}

std::vector<ReliableEntry> entries(std::initializer_list<std::uint64_t> ms) {
  std::vector<ReliableEntry> result;
  for (const auto m : ms) result.push_back(entry(m, "m" + std::to_string(m)));
  return result;
}

std::vector<std::uint64_t> ms_of(const std::vector<StreamMessageId>& ids) {
  std::vector<std::uint64_t> result;
  for (const auto& id : ids) result.push_back(id.ms());
  return result;
}

// Joined, nothing pending: waiting for new entries.
ReliablePoll reading() {
  ReliablePoll poll;
  EXPECT_EQ(poll.start(), Step::join);
  EXPECT_EQ(poll.resume_from(), "0") << "a new subscriber's group starts at 0, as Redisson's";
  EXPECT_EQ(poll.joined(Outcome::ok, {}), Step::read_pending);
  EXPECT_EQ(poll.pending(Outcome::ok, {}), Step::read_new);
  return poll;
}

TEST(ReliablePoll, DeliversThenAcknowledgesUpdatesAndReadsPendingInOneRound) {
  auto poll = reading();
  ASSERT_EQ(poll.read(Outcome::ok, entries({1, 2})), Step::deliver);
  ASSERT_EQ(poll.delivery().size(), 2U);
  EXPECT_EQ(poll.delivery()[0].payload, "m1");
  ASSERT_EQ(poll.delivered(), Step::finish);
  EXPECT_EQ(ms_of(poll.to_acknowledge()), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, AWaitThatEndedWithNothingWaitsAgain) {
  auto poll = reading();
  EXPECT_EQ(poll.read(Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, PendingEntriesAreDeliveredBeforeNewOnes) {
  ReliablePoll poll;
  poll.start();
  ASSERT_EQ(poll.joined(Outcome::ok, {}), Step::read_pending);
  ASSERT_EQ(poll.pending(Outcome::ok, entries({5})), Step::deliver) << "left from a crash";
  ASSERT_EQ(poll.delivered(), Step::finish);
  EXPECT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, AnEntryPendingAgainAfterALostAcknowledgementIsNotDeliveredTwice) {
  auto poll = reading();
  poll.read(Outcome::ok, entries({1, 2}));
  poll.delivered();
  // The XACK was lost: 1 and 2 are still pending, and 3 is new.
  ASSERT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, entries({1, 2, 3})), Step::deliver);
  ASSERT_EQ(poll.delivery().size(), 1U);
  EXPECT_EQ(poll.delivery()[0].id.ms(), 3U);
  ASSERT_EQ(poll.delivered(), Step::finish);
  EXPECT_EQ(ms_of(poll.to_acknowledge()), (std::vector<std::uint64_t>{1, 2, 3}))
      << "the old ones are acknowledged again";
}

TEST(ReliablePoll, OnlyRepeatsPendingOnesAreAcknowledgedWithoutDelivery) {
  auto poll = reading();
  poll.read(Outcome::ok, entries({1}));
  poll.delivered();
  ASSERT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, entries({1})), Step::finish);
  EXPECT_EQ(ms_of(poll.to_acknowledge()), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, AnExpiredSubscriberJoinsAgainAfterWhatItAcknowledged) {
  auto poll = reading();
  poll.read(Outcome::ok, {ReliableEntry{StreamMessageId(7, 3), "x"}});
  poll.delivered();
  ASSERT_EQ(poll.finished(Outcome::ok, false, Outcome::ok, {}), Step::join);
  EXPECT_EQ(poll.rejoin(), ReliablePoll::Rejoin::expired);
  EXPECT_EQ(poll.resume_from(), "7-3");
  EXPECT_EQ(poll.joined(Outcome::ok, {}), Step::read_pending);
  EXPECT_EQ(poll.rejoin(), ReliablePoll::Rejoin::none);
}

TEST(ReliablePoll, ALostGroupJoinsAgain) {
  auto poll = reading();
  ASSERT_EQ(poll.read(Outcome::no_group, {}), Step::join);
  EXPECT_EQ(poll.rejoin(), ReliablePoll::Rejoin::group_lost);
}

TEST(ReliablePoll, AFailedUpdateDoesNotStopTheLoop) {
  auto poll = reading();
  poll.read(Outcome::ok, entries({1}));
  poll.delivered();
  EXPECT_EQ(poll.finished(Outcome::failed, false, Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, OtherFailuresAreRetriedFromThePendingRead) {
  auto poll = reading();
  ASSERT_EQ(poll.read(Outcome::failed, {}), Step::retry);
  EXPECT_EQ(poll.read(Outcome::ok, entries({1})), Step::wait) << "stale answers change nothing";
  EXPECT_EQ(poll.retry_now(), Step::read_pending);
  EXPECT_EQ(poll.pending(Outcome::ok, {}), Step::read_new);
}

TEST(ReliablePoll, AReadWhoseConnectionBrokeLooksAtWhatItMayHaveHandedOutFirst) {
  auto poll = reading();
  poll.read(Outcome::ok, entries({1}));
  poll.delivered();
  poll.finished(Outcome::ok, true, Outcome::ok, {});
  // The reply of the next read was lost: 2 and 3 are pending, 4 came later.
  ASSERT_EQ(poll.read(Outcome::interrupted, {}), Step::read_pending) << "at once, no retry wait";
  ASSERT_EQ(poll.pending(Outcome::ok, entries({2, 3})), Step::deliver);
  EXPECT_EQ(poll.delivery().size(), 2U) << "delivered, not taken for repeats";
  poll.delivered();
  EXPECT_EQ(poll.finished(Outcome::ok, true, Outcome::ok, {}), Step::read_new);
  EXPECT_EQ(poll.read(Outcome::ok, entries({4})), Step::deliver);
}

TEST(ReliablePoll, AFailedFirstJoinEndsTheLoopWithItsError) {
  ReliablePoll poll;
  poll.start();
  const auto ec = std::make_error_code(std::errc::connection_refused);
  EXPECT_EQ(poll.joined(Outcome::failed, ec), Step::stopped);
  EXPECT_EQ(poll.failure(), ec);
  EXPECT_FALSE(poll.running());
}

TEST(ReliablePoll, ALaterJoinThatFailsIsRetried) {
  auto poll = reading();
  poll.read(Outcome::no_group, {});
  ASSERT_EQ(poll.joined(Outcome::failed, {}), Step::retry);
  EXPECT_EQ(poll.retry_now(), Step::join);
}

TEST(ReliablePoll, RemovingTheLastListenerLeavesAndIgnoresTheCancelledRead) {
  auto poll = reading();
  ASSERT_EQ(poll.stop(true), Step::leave);
  EXPECT_FALSE(poll.running());
  EXPECT_EQ(poll.read(Outcome::ended, {}), Step::wait);
  EXPECT_EQ(poll.left(), Step::stopped);
}

TEST(ReliablePoll, AShutdownStopsWithoutLeaving) {
  auto poll = reading();
  EXPECT_EQ(poll.stop(false), Step::stopped);
  EXPECT_EQ(poll.read(Outcome::ended, {}), Step::stopped);
  EXPECT_EQ(poll.stop(true), Step::wait) << "once";
}

TEST(ReliablePoll, AShutdownDuringADeliveryAcknowledgesItWhenTheListenersReturn) {
  auto poll = reading();
  poll.read(Outcome::ok, entries({4, 5}));
  ASSERT_EQ(poll.stop(false), Step::wait);
  EXPECT_TRUE(poll.draining());
  EXPECT_FALSE(poll.running());
  ASSERT_EQ(poll.delivered(), Step::acknowledge);
  EXPECT_EQ(ms_of(poll.to_acknowledge()), (std::vector<std::uint64_t>{4, 5}));
  EXPECT_FALSE(poll.draining());
  EXPECT_EQ(poll.retry_now(), Step::stopped);
}

TEST(ReliablePoll, LeavingDuringTheFirstJoinWaitsForItsAnswer) {
  ReliablePoll poll;
  poll.start();
  ASSERT_EQ(poll.stop(true), Step::wait);
  EXPECT_EQ(poll.joined(Outcome::ok, {}), Step::leave) << "what the join made is removed";

  ReliablePoll refused;
  refused.start();
  refused.stop(true);
  EXPECT_EQ(refused.joined(Outcome::failed, {}), Step::stopped);
}

TEST(ReliablePoll, AnEndedReadStops) {
  auto poll = reading();
  EXPECT_EQ(poll.read(Outcome::ended, {}), Step::stopped);
}

}  // namespace reliable_poll_test

}  // namespace unit_pubsub_reliable_poll_test
