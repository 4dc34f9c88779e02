// AcquireMachine with a made-up clock: each test feeds the events a waiter would see and checks
// the action that comes out. No server, no thread, no sleep.
#include "sync/acquire_machine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace unit_sync_acquire_machine_test {

using namespace std::chrono_literals;
using redisson::detail::AcquireAction;
using redisson::detail::AcquireMachine;
using redisson::detail::AcquirePolicy;
using redisson::detail::AttemptResult;
using redisson::detail::Clock;
using redisson::detail::FairLockPolicy;
using redisson::detail::FirstComePolicy;
using redisson::detail::LatchPolicy;
using redisson::detail::LockTurnsPolicy;
using redisson::detail::OwnReleases;
using redisson::detail::PollBackoff;
using redisson::detail::PollPolicy;
using redisson::detail::ReleaseYield;
using redisson::detail::SemaphorePolicy;
using redisson::detail::Status;
using redisson::detail::WriteSidePolicy;
using Kind = AcquireAction::Kind;

namespace {

const Clock::time_point kT0 = Clock::time_point{} + 1h;  // when each wait begins

AttemptResult refused(std::chrono::milliseconds retry_after = 30s, std::int64_t ahead = -1,
                      std::int64_t available = -1) {
  AttemptResult result;
  result.retry_after = retry_after;
  result.ahead = ahead;
  result.available = available;
  return result;
}

AttemptResult granted() {
  AttemptResult result;
  result.acquired = true;
  return result;
}

using Range = std::pair<std::int64_t, std::int64_t>;

// The jitter source's script: each draw returns the next value, clamped to the range asked
// (with none left, the range's top), and records the range.
struct Draws {
  std::vector<std::int64_t> values;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
};

// A machine whose jitter draws are scripted.
struct Waiter {
  explicit Waiter(AcquirePolicy policy, Clock::time_point deadline = Clock::time_point::max(),
                  std::chrono::milliseconds unknown_hint = 1000ms)
      : script(std::make_shared<Draws>()),
        draws(script->values),
        ranges(script->ranges),
        machine({std::move(policy), deadline, unknown_hint}, kT0,
                [script = script](std::int64_t low, std::int64_t high) {
                  script->ranges.emplace_back(low, high);
                  if (script->values.empty()) return high;
                  const auto value = script->values.front();
                  script->values.erase(script->values.begin());
                  return std::clamp(value, low, high);
                }) {}

  // Start, fail the first attempt, subscribe: the second attempt is in flight at `now`.
  void to_second_attempt(Clock::time_point now = kT0) {
    ASSERT_EQ(machine.start(now, std::nullopt).kind, Kind::attempt);
    ASSERT_EQ(machine.replied(now, {}, refused()).kind, Kind::subscribe);
    ASSERT_EQ(machine.subscribed(now, {}).kind, Kind::attempt);
  }

  std::shared_ptr<Draws> script;  // shared with the machine's draw (a Waiter may be moved)
  std::vector<std::int64_t>& draws;
  std::vector<std::pair<std::int64_t, std::int64_t>>& ranges;
  AcquireMachine machine;
};

void expect_sleep_until(const AcquireAction& action, Clock::time_point until) {
  EXPECT_EQ(action.kind, Kind::sleep_until);
  EXPECT_EQ(action.until, until) << "off by " << (action.until - until).count() << " ns";
}

}  // namespace

// ---- the loop every waiter shares ----------------------------------------------------------

TEST(AcquireMachine, AFreeLockIsOneAttemptWithNoSubscription) {
  Waiter waiter(LockTurnsPolicy{});
  const auto first = waiter.machine.start(kT0, std::nullopt);
  ASSERT_EQ(first.kind, Kind::attempt);
  EXPECT_TRUE(first.listen);  // a lingering subscription would be joined first
  const auto done = waiter.machine.replied(kT0 + 1ms, {}, granted());
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_TRUE(done.acquired);
  EXPECT_FALSE(done.status);
  EXPECT_TRUE(waiter.machine.finished());
}

TEST(AcquireMachine, ARefusedWaiterSubscribesThenTriesAgainThenSleepsTheRetryHint) {
  Waiter waiter(LatchPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused(5s)).kind, Kind::subscribe);
  const auto second = waiter.machine.subscribed(kT0 + 1ms, {});
  EXPECT_EQ(second.kind, Kind::attempt);
  EXPECT_FALSE(second.listen);  // subscribed already
  expect_sleep_until(waiter.machine.replied(kT0 + 2ms, {}, refused(5s)), kT0 + 2ms + 5s);
  // The retry hint ran out: try again.
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 2ms + 5s).kind, Kind::attempt);
}

TEST(AcquireMachine, AnAttemptWithNoHintSleepsTheUnknownHint) {
  Waiter waiter(LatchPolicy{}, Clock::time_point::max(), 250ms);
  waiter.to_second_attempt();
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(-1ms)), kT0 + 250ms);
}

TEST(AcquireMachine, AJoinedLingeringSubscriptionNeedsNoSecondSubscribe) {
  Waiter waiter(LatchPolicy{});
  ASSERT_TRUE(waiter.machine.start(kT0, std::nullopt).listen);
  waiter.machine.listening(std::nullopt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(5s)), kT0 + 5s);
}

TEST(AcquireMachine, AReleaseMessageWakesASleepingWaiterAtOnce) {
  Waiter waiter(LatchPolicy{});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 3ms, "0").kind, Kind::attempt);
  // The retry-hint timer it no longer waits for asks nothing (the driver stopped it).
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 30s).kind, Kind::none);
}

TEST(AcquireMachine, AReleaseHeardDuringAnAttemptIsAnsweredByAnotherAttemptAfterTheReply) {
  Waiter waiter(LatchPolicy{});
  waiter.to_second_attempt();
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "0").kind, Kind::none);  // the attempt is out
  EXPECT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(30s)).kind, Kind::attempt);
}

TEST(AcquireMachine, AnInterruptedOrRestoredSubscriptionRechecksAtOnce) {
  Waiter waiter(LockTurnsPolicy{});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s, 0)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.recheck(kT0 + 1s).kind, Kind::attempt);
}

TEST(AcquireMachine, AFailedSubscriptionFinishesWithItsError) {
  Waiter waiter(LatchPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused()).kind, Kind::subscribe);
  const auto done =
      waiter.machine.subscribed(kT0, std::make_error_code(std::errc::connection_reset));
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_EQ(done.status.code, std::make_error_code(std::errc::connection_reset));
  EXPECT_FALSE(done.acquired);
}

TEST(AcquireMachine, AnAttemptsErrorFinishesWithItAndNoGiveUp) {
  Waiter waiter(LockTurnsPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  const auto done = waiter.machine.replied(
      kT0, Status(std::make_error_code(std::errc::timed_out), "no reply"), refused());
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_EQ(done.status.detail, "no reply");
  EXPECT_FALSE(done.cancelled);
}

// ---- deadline and cancel -------------------------------------------------------------------

TEST(AcquireMachine, ASleepNeverPassesTheDeadline) {
  Waiter waiter(LatchPolicy{}, kT0 + 100ms);
  waiter.to_second_attempt();
  expect_sleep_until(waiter.machine.replied(kT0 + 40ms, {}, refused(30s)), kT0 + 100ms);
}

TEST(AcquireMachine, AtTheDeadlineTheWaiterGivesUpThenFinishesNotAcquired) {
  Waiter waiter(LockTurnsPolicy{}, kT0 + 100ms);
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0 + 40ms, {}, refused(30s, 1)).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 100ms).kind, Kind::attempt);  // a last try
  EXPECT_EQ(waiter.machine.replied(kT0 + 101ms, {}, refused(30s, 1)).kind, Kind::give_up);
  // Nothing starts while the waiter leaves the order.
  EXPECT_EQ(waiter.machine.message(kT0 + 102ms, "0").kind, Kind::none);
  const auto done = waiter.machine.gave_up();
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_FALSE(done.acquired);
  EXPECT_FALSE(done.status);
  EXPECT_FALSE(done.cancelled);
}

TEST(AcquireMachine, ACancelWhileSleepingGivesUpAtOnce) {
  Waiter waiter(FairLockPolicy{});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.cancel().kind, Kind::give_up);
  EXPECT_EQ(waiter.machine.cancel().kind, Kind::none);  // asked twice: once is enough
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 30s).kind, Kind::none);
  const auto done = waiter.machine.gave_up();
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_TRUE(done.cancelled);
}

TEST(AcquireMachine, ACancelDuringAnAttemptWaitsForItsReply) {
  Waiter waiter(LockTurnsPolicy{});
  waiter.to_second_attempt();
  EXPECT_EQ(waiter.machine.cancel().kind, Kind::none);
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused()).kind, Kind::give_up);
  EXPECT_TRUE(waiter.machine.gave_up().cancelled);
}

TEST(AcquireMachine, AnAttemptInFlightThatTookTheLockFinishesAcquiredDespiteACancel) {
  Waiter waiter(LockTurnsPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  EXPECT_EQ(waiter.machine.cancel().kind, Kind::none);
  const auto done = waiter.machine.replied(kT0, {}, granted());
  EXPECT_EQ(done.kind, Kind::finish);
  EXPECT_TRUE(done.acquired);  // the caller gives it back
  EXPECT_FALSE(done.cancelled);
}

TEST(AcquireMachine, ACancelBeforeTheStartEndsTheWaitWithoutAnAttempt) {
  Waiter waiter(LatchPolicy{});
  EXPECT_EQ(waiter.machine.cancel().kind, Kind::give_up);
  EXPECT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::none);
  EXPECT_TRUE(waiter.machine.gave_up().cancelled);
}

// ---- yielding after this client's own release ----------------------------------------------

TEST(AcquireMachine, ALockWaiterHoldsItsFirstAttemptBackWhileItsReleaseYields) {
  Waiter waiter(LockTurnsPolicy{.yield_after_release = true});
  expect_sleep_until(waiter.machine.start(kT0, ReleaseYield::Window{kT0 + 2ms, 1}), kT0 + 2ms);
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 2ms).kind, Kind::attempt);
}

TEST(AcquireMachine, TheYieldNeverPassesTheDeadline) {
  Waiter waiter(FirstComePolicy{.yield_after_release = true}, kT0 + 1ms);
  expect_sleep_until(waiter.machine.start(kT0, ReleaseYield::Window{kT0 + 4ms, 1}), kT0 + 1ms);
}

TEST(AcquireMachine, AWaiterThatDoesNotYieldIgnoresTheWindow) {
  Waiter waiter(FirstComePolicy{.yield_after_release = false});
  EXPECT_EQ(waiter.machine.start(kT0, ReleaseYield::Window{kT0 + 4ms, 3}).kind, Kind::attempt);
  EXPECT_FALSE(waiter.machine.yields_after_release());
}

// ---- LockTurnsPolicy ------------------------------------------------------------------------

TEST(AcquireMachine, ALockWaiterBehindOthersDelaysItsWokenAttemptBy500us) {
  Waiter waiter(LockTurnsPolicy{});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s, 2)).kind, Kind::sleep_until);
  expect_sleep_until(waiter.machine.message(kT0 + 10ms, "0"), kT0 + 10ms + 500us);
  // Another release during that delay changes nothing.
  EXPECT_EQ(waiter.machine.message(kT0 + 10ms + 100us, "0").kind, Kind::none);
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 10ms + 500us).kind, Kind::attempt);
  EXPECT_TRUE(waiter.ranges.empty());  // no randomness in turns
}

TEST(AcquireMachine, TheLockWaiterAtTheHeadTriesAtOnceWhenWoken) {
  Waiter waiter(LockTurnsPolicy{});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s, 0)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 10ms, "0").kind, Kind::attempt);
}

TEST(AcquireMachine, ALockWaiterListeningBeforeItIsInTheOrderGetsInLineAtOnce) {
  Waiter waiter(LockTurnsPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);  // a lingering subscription
  // The first attempt is a first-come one (no place): the next one joins the order.
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused(30s, -1)).kind, Kind::attempt);
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused(30s, 3)).kind, Kind::sleep_until);
}

// ---- FirstComePolicy / FairLockPolicy --------------------------------------------------------

TEST(AcquireMachine, AFirstComeWaiterTriesAtOnceUntilItKnowsOthersWait) {
  Waiter waiter(FirstComePolicy{.yield_after_release = true});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  // A lone waiter pays nothing.
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "0").kind, Kind::attempt);
  // It lost the race after that wake-up: others wait too, so the next wake-up draws a delay.
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(30s)).kind, Kind::sleep_until);
  waiter.draws = {700};
  expect_sleep_until(waiter.machine.message(kT0 + 3ms, "0"), kT0 + 3ms + 700us);
  ASSERT_EQ(waiter.ranges.size(), 1U);
  EXPECT_EQ(waiter.ranges[0], Range(333, 1000));
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 3ms + 700us).kind, Kind::attempt);
}

TEST(AcquireMachine, AWaiterWhoseReleaseWokeACrowdDrawsItsDelayFromTheStart) {
  Waiter waiter(FirstComePolicy{.yield_after_release = true});
  ASSERT_EQ(waiter.machine.start(kT0, ReleaseYield::Window{kT0 + 1ms, 2}).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 1ms).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 1ms, {}, refused()).kind, Kind::subscribe);
  ASSERT_EQ(waiter.machine.subscribed(kT0 + 1ms, {}).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused()).kind, Kind::sleep_until);
  waiter.draws = {400};
  expect_sleep_until(waiter.machine.message(kT0 + 3ms, "0"), kT0 + 3ms + 400us);
}

TEST(AcquireMachine, AFirstComeWaiterThatWaitedLongTriesAtOnceAheadOfTheRest) {
  Waiter waiter(FirstComePolicy{.yield_after_release = true});
  ASSERT_EQ(waiter.machine.start(kT0, ReleaseYield::Window{kT0 + 1ms, 2}).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 1ms).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 1ms, {}, refused()).kind, Kind::subscribe);
  ASSERT_EQ(waiter.machine.subscribed(kT0 + 1ms, {}).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused()).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 30ms, "0").kind, Kind::attempt);  // waited 30 ms
  EXPECT_TRUE(waiter.ranges.empty());
}

TEST(AcquireMachine, AWokenDelayNeverPassesTheDeadline) {
  Waiter waiter(FairLockPolicy{.yield_after_release = true}, kT0 + 10ms + 200us);
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.message(kT0 + 1ms, "0").kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(30s)).kind, Kind::sleep_until);
  expect_sleep_until(waiter.machine.message(kT0 + 10ms, "0"), kT0 + 10ms + 200us);
}

TEST(AcquireMachine, AWaiterThatDoesNotYieldNeverDrawsADelay) {
  Waiter waiter(FirstComePolicy{.yield_after_release = false});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.message(kT0 + 1ms, "0").kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(30s)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 3ms, "0").kind, Kind::attempt);
}

// ---- WriteSidePolicy -----------------------------------------------------------------------

TEST(AcquireMachine, AWaitingWriterTriesAgainInTimeToRenewItsEntry) {
  // Readers hold the lock for 30 s more; the writer's entry (which holds new readers back)
  // lapses unless an attempt renews it, so it never sleeps longer than renew_every.
  Waiter waiter(WriteSidePolicy{.renew_every = 500ms});
  waiter.to_second_attempt();
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(30s)), kT0 + 500ms);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 500ms).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0 + 501ms, {}, refused(200ms)), kT0 + 701ms);
  // The last reader's release wakes it at once.
  EXPECT_EQ(waiter.machine.message(kT0 + 702ms, "0").kind, Kind::attempt);
}

TEST(AcquireMachine, AWaitingWriterSpreadsItsWokenAttemptsAsAFirstComeWaiter) {
  Waiter waiter(WriteSidePolicy{.yield_after_release = true});
  waiter.to_second_attempt();
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
  ASSERT_EQ(waiter.machine.message(kT0 + 1ms, "0").kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(30s)).kind, Kind::sleep_until);
  waiter.draws = {600};
  expect_sleep_until(waiter.machine.message(kT0 + 3ms, "0"), kT0 + 3ms + 600us);
}

// ---- SemaphorePolicy ------------------------------------------------------------------------

namespace {

// A semaphore waiter for `permits`, listening, sleeping with `ahead` before it and `available`
// free as of its last attempt (at kT0).
Waiter semaphore_waiter(std::int64_t ahead, std::int64_t available = 0, std::int64_t permits = 1) {
  Waiter waiter(SemaphorePolicy{permits});
  EXPECT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused(60s, ahead, available)).kind,
            Kind::sleep_until);
  return waiter;
}

}  // namespace

TEST(AcquireMachine, ASemaphoreReleaseWakesOnlyTheWaitersItCanReach) {
  // One permit released, five waiters in line: the head tries, the next checks 2 ms later (it
  // counts itself next), the other three let the release go by.
  for (std::int64_t ahead = 0; ahead < 5; ++ahead) {
    SCOPED_TRACE(ahead);
    auto waiter = semaphore_waiter(ahead);
    const auto action = waiter.machine.message(kT0 + 1ms, "1");
    if (ahead == 0) {
      EXPECT_EQ(action.kind, Kind::attempt);
    } else if (ahead == 1) {
      expect_sleep_until(action, kT0 + 1ms + 2ms);
    } else {
      EXPECT_EQ(action.kind, Kind::none);  // the retry-hint sleep goes on
    }
  }
}

TEST(AcquireMachine, ASemaphoreWaiterCountsThePermitsTakenBetweenReleases) {
  // Counts 1 then 2 with nothing taken between: two permits for the three ahead.
  auto waiter = semaphore_waiter(3);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  EXPECT_EQ(waiter.machine.message(kT0 + 2ms, "2").kind, Kind::none);
  // A third (3 free) leaves it one short: it checks a moment later.
  expect_sleep_until(waiter.machine.message(kT0 + 3ms, "3"), kT0 + 3ms + 2ms);
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 5ms).kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreWaiterCountsPermitsTakenAheadAsServed) {
  auto waiter = semaphore_waiter(2);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);  // 2 ahead, 1 free
  // None free after one more release: two were taken, by the two ahead. Now at the head with
  // nothing free, one permit short: it checks soon.
  expect_sleep_until(waiter.machine.message(kT0 + 2ms, "0"), kT0 + 4ms);
  // The next release reaches it.
  EXPECT_EQ(waiter.machine.message(kT0 + 3ms, "1").kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreWaiterNeedingSeveralPermitsWaitsForThatMany) {
  auto waiter = semaphore_waiter(0, 0, 3);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  expect_sleep_until(waiter.machine.message(kT0 + 2ms, "2"), kT0 + 4ms);
  EXPECT_EQ(waiter.machine.message(kT0 + 3ms, "3").kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreWaiterDoesNotTrustAnOldPlace) {
  auto waiter = semaphore_waiter(4);
  // A place learnt a second ago may be wrong: every release wakes it.
  EXPECT_EQ(waiter.machine.message(kT0 + 1s, "1").kind, Kind::attempt);
}

TEST(AcquireMachine, AMessageThatIsNotACountWakesASemaphoreWaiter) {
  auto waiter = semaphore_waiter(4);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "not a count").kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreReleaseHeardDuringAnAttemptWaitsForItsReply) {
  // The reply says three wait ahead: one permit cannot reach the fourth; no second attempt.
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  expect_sleep_until(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 3, 0)), kT0 + 2ms + 60s);
}

TEST(AcquireMachine, ASemaphoreReleaseHeardDuringAnAttemptThatReachesIsTriedAfterTheReply) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  EXPECT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 0, 0)).kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreReleaseHeardDuringAnAttemptOnePermitShortSetsTheCheck) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  expect_sleep_until(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 1, 0)), kT0 + 4ms);
}

TEST(AcquireMachine, ASemaphoreNewcomerPassedOverWaitsTheCheckAfterSubscribing) {
  // Its first attempt found a free permit kept for the one waiter ahead: after subscribing it
  // waits 10 ms (that waiter is on its way) instead of trying at once and taking it.
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(60s, 1, 1)).kind, Kind::subscribe);
  expect_sleep_until(waiter.machine.subscribed(kT0 + 1ms, {}), kT0 + 11ms);
  // A release meanwhile wakes it sooner (one reaching it).
  EXPECT_EQ(waiter.machine.message(kT0 + 2ms, "2").kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreWaiterPassedOverWhileListeningChecksAfter10ms) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(60s, 1, 1)), kT0 + 10ms);
  // The head did not come: the check tries.
  EXPECT_EQ(waiter.machine.timer_fired(kT0 + 10ms).kind, Kind::attempt);
}

TEST(AcquireMachine, ASemaphoreWaiterPassedOverFarBackSleepsTheHint) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(60s, 3, 1)), kT0 + 60s);
}

// A waiter that starts listening while its own client's release message is still on its way
// lets that message go by (its first attempt saw those permits already; sync/own_releases.hpp).
// Counted, the message would look like a permit freed and one taken by a waiter ahead, so the
// waiter, third in line, would believe itself one permit short and check at once.
TEST(AcquireMachine, ASemaphoreWaiterLetsItsOwnClientsReleaseMessageGoBy) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(OwnReleases::Pending{1, kT0 + 50ms});
  // Its message goes by, even during the attempt: the retry-hint sleep follows the reply.
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  expect_sleep_until(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 2, 1)), kT0 + 2ms + 60s);
  // Someone else's release counts: one permit short, it checks.
  expect_sleep_until(waiter.machine.message(kT0 + 3ms, "1"), kT0 + 5ms);
}

TEST(AcquireMachine, ASemaphoreWaiterCountsTheFirstMessageWhenItsOwnCameBeforeItListened) {
  // The driver found the release's message received already: nothing pending, the first
  // message it hears counts (here: during the attempt, so the check follows the reply).
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(std::nullopt);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::none);
  expect_sleep_until(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 2, 1)), kT0 + 4ms);
}

TEST(AcquireMachine, AnOwnReleaseIsForgottenOnceItsMessageIsLate) {
  Waiter waiter(SemaphorePolicy{1});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(OwnReleases::Pending{1, kT0 + 50ms});
  ASSERT_EQ(waiter.machine.replied(kT0 + 2ms, {}, refused(60s, 0, 0)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 51ms, "1").kind, Kind::attempt);
}

TEST(AcquireMachine, ALockPolicyIgnoresAReleasesPayload) {
  Waiter waiter(LockTurnsPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  waiter.machine.listening(OwnReleases::Pending{1, kT0 + 50ms});  // not a semaphore: ignored
  ASSERT_EQ(waiter.machine.replied(kT0, {}, refused(60s, 0)).kind, Kind::sleep_until);
  EXPECT_EQ(waiter.machine.message(kT0 + 1ms, "1").kind, Kind::attempt);
}

// ---- PollPolicy -----------------------------------------------------------------------------

TEST(AcquireMachine, APollerNeverSubscribes) {
  Waiter waiter(PollPolicy{});
  const auto first = waiter.machine.start(kT0, std::nullopt);
  ASSERT_EQ(first.kind, Kind::attempt);
  EXPECT_FALSE(first.listen);
  EXPECT_EQ(waiter.machine.replied(kT0, {}, refused(30s)).kind, Kind::sleep_until);
}

TEST(AcquireMachine, APollersBackoffDoublesUpToItsCapWithEqualJitter) {
  Waiter waiter(PollPolicy{});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  auto now = kT0;
  // With the draws at their top each step is whole: 1, 2, 4, ..., 128, 128 ms.
  for (const auto step : {1, 2, 4, 8, 16, 32, 64, 128, 128}) {
    SCOPED_TRACE(step);
    const auto action = waiter.machine.replied(now, {}, refused(30s));
    expect_sleep_until(action, now + std::chrono::milliseconds(step));
    now = action.until;
    ASSERT_EQ(waiter.machine.timer_fired(now).kind, Kind::attempt);
  }
  // The draw is the half above the fixed half: [0, step - half].
  EXPECT_EQ(waiter.ranges[0], Range(0, 0));
  EXPECT_EQ(waiter.ranges[3], Range(0, 4));
  // With the draw at its bottom, a step is its fixed half.
  waiter.draws = {0};
  expect_sleep_until(waiter.machine.replied(now, {}, refused(30s)), now + 64ms);
}

TEST(AcquireMachine, APollersBackoffIsCappedByTheHintAndTheDeadline) {
  Waiter waiter(PollPolicy{PollBackoff{.initial = 8ms}}, kT0 + 20ms);
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(3ms)), kT0 + 3ms);  // the hint
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 3ms).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0 + 15ms, {}, refused(30s)), kT0 + 20ms);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 20ms).kind, Kind::attempt);
  EXPECT_EQ(waiter.machine.replied(kT0 + 20ms, {}, refused(30s)).kind, Kind::give_up);
}

TEST(AcquireMachine, ARateLimiterPollSleepsExactlyTheHint) {
  Waiter waiter(PollPolicy{PollBackoff{.follow_hint = true}});
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(37ms)), kT0 + 37ms);
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 37ms).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0 + 37ms, {}, refused(400ms)), kT0 + 437ms);
  EXPECT_TRUE(waiter.ranges.empty());
  // No hint: the backoff.
  ASSERT_EQ(waiter.machine.timer_fired(kT0 + 437ms).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0 + 437ms, {}, refused(-1ms)), kT0 + 438ms);
}

TEST(AcquireMachine, ARateLimiterPollNeverPassesTheDeadline) {
  Waiter waiter(PollPolicy{PollBackoff{.follow_hint = true}}, kT0 + 100ms);
  ASSERT_EQ(waiter.machine.start(kT0, std::nullopt).kind, Kind::attempt);
  expect_sleep_until(waiter.machine.replied(kT0, {}, refused(1s)), kT0 + 100ms);
}

}  // namespace unit_sync_acquire_machine_test
