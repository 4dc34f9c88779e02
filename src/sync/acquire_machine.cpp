#include "sync/acquire_machine.hpp"

#include <algorithm>
#include <charconv>
#include <random>
#include <utility>

namespace redisson::detail {

namespace {

// A semaphore's release message: the count of free permits (decimal text, Redisson's).
std::optional<std::int64_t> release_count(std::string_view message) {
  std::int64_t count = 0;
  const auto* end = message.data() + message.size();
  if (std::from_chars(message.data(), end, count).ptr != end || count < 0) return std::nullopt;
  return count;
}

AcquireAction action_of(AcquireAction::Kind kind) {
  AcquireAction action;
  action.kind = kind;
  return action;
}

std::int64_t default_draw(std::int64_t low, std::int64_t high) {
  thread_local std::minstd_rand random{std::random_device{}()};
  return std::uniform_int_distribution<std::int64_t>(low, high)(random);
}

// How long a waiter trusts the place it learnt (see message()).
constexpr std::chrono::milliseconds kPlaceTrusted{1000};
// When a waiter that counts itself next let a release go by: check then (see message()).
constexpr std::chrono::microseconds kSkipCheck{2000};
// When a waiter was passed over for the one waiter ahead of it (permits were free, kept for the
// order): check then. That waiter was woken by the same release and is on its way; only a
// stalled or dead one would leave the permit unused, so this check can wait longer than the
// other: 2 ms gave that waiter's permit to the newcomer when a loaded machine woke it late.
constexpr std::chrono::microseconds kPassedOverCheck{10000};

}  // namespace

AcquireMachine::AcquireMachine(Settings settings, Clock::time_point started, Draw draw)
    : settings_(settings), started_(started), draw_(draw ? std::move(draw) : Draw(default_draw)) {}

bool AcquireMachine::yields_after_release() const {
  return detail::yields_after_release(settings_.policy);
}

std::int64_t AcquireMachine::permits_wanted() const noexcept {
  const auto* semaphore = std::get_if<SemaphorePolicy>(&settings_.policy);
  return semaphore ? semaphore->permits : 0;
}

// The attempt's script gives a free lock (or free permits) to the longest waiter.
bool AcquireMachine::server_orders_waiters() const noexcept {
  return std::holds_alternative<LockTurnsPolicy>(settings_.policy) ||
         std::holds_alternative<SemaphorePolicy>(settings_.policy);
}

AcquireAction AcquireMachine::start(Clock::time_point /*now*/,
                                    std::optional<ReleaseYield::Window> yield) {
  if (finished_ || giving_up_) return {};  // cancelled before it began
  if (yield && yields_after_release()) {
    // Our release woke several others: they wait with us (wake_delay()).
    if (yield->others >= 2) contended_ = true;
    // No listener yet: a release meanwhile is seen by the attempt after the wait.
    return sleep_until(std::min(yield->until, settings_.deadline));
  }
  return try_once();
}

AcquireAction AcquireMachine::try_once() {
  jittering_ = false;
  if (finished_ || giving_up_) return {};
  if (cancelled_) return give_up_then_finish({}, /*cancelled=*/true);
  attempt_in_flight_ = true;
  heard_in_flight_.clear();
  attempt_after_wake_ = std::exchange(woken_, false) || std::exchange(wake_pending_, false);
  auto action = action_of(AcquireAction::Kind::attempt);
  action.listen = !subscribed_ && !polls();
  return action;
}

void AcquireMachine::listening(std::optional<OwnReleases::Pending> own) {
  subscribed_ = true;
  if (counts_permits()) own_release_ = own;
}

AcquireAction AcquireMachine::replied(Clock::time_point now, Status status,
                                      const AttemptResult& result) {
  attempt_in_flight_ = false;
  if (finished_ || giving_up_) return {};
  if (status) return finish(std::move(status), false);
  if (result.acquired) return finish({}, true);
  ahead_ = result.ahead;
  permits_seen_ = result.available;
  ahead_learnt_ = now;
  // Releases heard while the attempt ran are judged against the place its reply brought.
  const bool judged = place_known(now);
  bool heard_reaches = false;
  for (const auto count : heard_in_flight_) {
    if (!judged || release_reaches(count)) heard_reaches = true;
  }
  if (cancelled_) return give_up_then_finish({}, /*cancelled=*/true);
  if (now >= settings_.deadline) return give_up_then_finish({}, false);
  if (polls()) return sleep(now, next_backoff(result.retry_after));
  // Woken by a release, and someone else got there first: others wait on this lock too.
  if (attempt_after_wake_) contended_ = true;
  // Passed over for the waiters in the order (there were permits enough, kept for them): if the
  // one they were meant for does not come, a check finds out (see kPassedOverCheck).
  const bool passed_over = counts_permits() && result.available >= permits_wanted();
  if (!subscribed_) {
    // The attempt after subscribing (which covers a release meanwhile) waits as that check
    // would: at once, it would take the permit kept for the one ahead.
    const bool check_later = passed_over && one_permit_short(permits_seen_);
    return subscribe(check_later ? kPassedOverCheck : std::chrono::microseconds{});
  }
  // Listening already, but not yet in the server's order (the first attempt is a first-come
  // one): get in line now rather than at the next release. Or a release came meanwhile.
  if (woken_ || heard_reaches || (server_orders_waiters() && result.ahead < 0)) return try_once();
  // Let a release go by, or passed over: a check soon finds out whether it was right to.
  if ((passed_over || !heard_in_flight_.empty()) && one_permit_short(permits_seen_)) {
    const auto check = passed_over && heard_in_flight_.empty() ? kPassedOverCheck : kSkipCheck;
    return sleep_until(std::min(now + check, settings_.deadline));
  }
  return sleep(now, result.retry_after);
}

// Subscribing before the second attempt closes the gap in which a release could be missed.
AcquireAction AcquireMachine::subscribe(std::chrono::microseconds delay) {
  subscribed_ = true;
  subscribe_delay_ = delay;
  return action_of(AcquireAction::Kind::subscribe);
}

AcquireAction AcquireMachine::subscribed(Clock::time_point now, std::error_code ec) {
  if (finished_) return {};
  if (ec) return finish(ec, false);
  if (giving_up_) return {};
  if (subscribe_delay_.count() > 0) {
    // Listening now: a release meanwhile wakes it sooner (message()).
    return sleep_until(std::min(now + subscribe_delay_, settings_.deadline));
  }
  return try_once();
}

AcquireAction AcquireMachine::sleep(Clock::time_point now, std::chrono::milliseconds hint) {
  auto wait = hint.count() >= 0 ? hint : settings_.unknown_hint;
  // A waiting writer's entry lapses unless an attempt renews it in time (WriteSidePolicy).
  if (const auto* writer = std::get_if<WriteSidePolicy>(&settings_.policy)) {
    wait = std::min(wait, writer->renew_every);
  }
  if (settings_.deadline != Clock::time_point::max()) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(settings_.deadline - now);
    wait = std::min(wait, std::max(left, std::chrono::milliseconds{0}));
  }
  return sleep_until(now + wait);
}

AcquireAction AcquireMachine::sleep_until(Clock::time_point when) {
  sleeping_ = true;
  wake_at_ = when;
  auto action = action_of(AcquireAction::Kind::sleep_until);
  action.until = when;
  return action;
}

AcquireAction AcquireMachine::timer_fired(Clock::time_point /*now*/) {
  // A timer the machine no longer waits for (replaced, or woken meanwhile) asks nothing.
  if (!sleeping_) return {};
  sleeping_ = false;
  return try_once();
}

// Equal jitter (half fixed, half random) spreads pollers that started together; the retry
// hint (the holder's remaining lease) caps the step, since retrying later than that is waste.
std::chrono::milliseconds AcquireMachine::next_backoff(std::chrono::milliseconds hint) {
  const auto& backoff = std::get<PollPolicy>(settings_.policy).backoff;
  if (backoff.follow_hint && hint.count() >= 0) return hint;
  auto step = backoff.initial;
  for (int i = 0; i < backoff_round_ && step < backoff.max; ++i) step *= 2;
  step = std::max(std::min(step, backoff.max), std::chrono::milliseconds{1});
  ++backoff_round_;
  const auto half = (step.count() + 1) / 2;
  step = std::chrono::milliseconds(half + draw_(0, step.count() - half));
  if (hint.count() >= 0) step = std::min(step, hint);
  return step;
}

// A semaphore's release says how many permits are free; the first waiters of the order take
// them. A waiter further back (or needing more than there are) does not try for them: its attempt
// would fail. Each failed attempt says how many wait ahead and how many permits were free; from
// each release's count the waiter then works out how many were taken since (release_reaches())
// and counts those ahead as served, so that it tries once its turn may have come. Wrong the one
// way (someone behind or new took a permit), it tries, fails and learns its place again. Wrong the
// other (a waiter ahead left the order since), it would sleep past a free permit. Two bounds on
// that: a place learnt more than kPlaceTrusted ago (a re-check interval by default) is not trusted
// (every release wakes the waiter, as without the order), and a waiter one permit short sets a
// check kSkipCheck later (one_permit_short()): on a busy semaphore the next release comes sooner
// and settles it; on a slow one a release costs the head's attempt and the next one's check.
// A release heard while an attempt is in flight waits for that attempt's reply, which tells the
// place the release is then judged against (the release may have come before or after the
// attempt ran; counting it after is the safe guess: at worst one attempt too many). One release
// is known to have come before: this client's own, just before the wait began (a worker that
// releases and asks again at once); when its message is still on its way as the waiter starts
// listening, that message and any before it are let go by (sync/own_releases.hpp).
AcquireAction AcquireMachine::message(Clock::time_point now, std::string_view payload) {
  if (counts_permits() && !finished_ && !giving_up_) {
    constexpr std::size_t kHeardMax = 16;  // more while one attempt runs: just try again after it
    if (const auto count = release_count(payload)) {
      // Published before this client's own release from just before this wait (that one
      // included): their permits are seen already.
      if (own_release_ && now <= own_release_->until) {
        if (*count == own_release_->count) own_release_.reset();
        return {};
      }
      own_release_.reset();
      if (attempt_in_flight_ && heard_in_flight_.size() < kHeardMax) {
        heard_in_flight_.push_back(*count);
        return {};
      }
      if (!attempt_in_flight_ && sleeping_ && !jittering_ && place_known(now) &&
          !release_reaches(*count)) {
        if (!one_permit_short(*count)) return {};  // the retry-hint sleep goes on
        return sleep_until(std::min({now + kSkipCheck, wake_at_, settings_.deadline}));
      }
    }
  }
  return wake(now);
}

bool AcquireMachine::place_known(Clock::time_point now) const {
  return ahead_ >= 0 && permits_seen_ >= 0 && now - ahead_learnt_ < kPlaceTrusted;
}

// Between two counts the permits taken are the earlier count, plus those this release freed,
// less the new count. A release frees one permit, or as many as the count grew by when more:
// exact for one-permit releases, and for larger ones with nothing taken meanwhile; otherwise it
// counts fewer taken than were, and the waiter is one release late (the check bounds that).
// Takes by waiters behind or new ones count as served too: the safe side (an early try).
bool AcquireMachine::release_reaches(std::int64_t count) {
  const auto freed = std::max<std::int64_t>(1, count - permits_seen_);
  const auto taken = std::max<std::int64_t>(permits_seen_ + freed - count, 0);
  ahead_ = std::max<std::int64_t>(ahead_ - taken, 0);
  permits_seen_ = count;
  return count - ahead_ >= permits_wanted();
}

// Another permit after this release's would reach this waiter: if it let the release go by
// wrongly, it finds out kSkipCheck later.
bool AcquireMachine::one_permit_short(std::int64_t count) const {
  return ahead_ + permits_wanted() - count <= 1;
}

AcquireAction AcquireMachine::recheck(Clock::time_point now) { return wake(now); }

AcquireAction AcquireMachine::wake(Clock::time_point now) {
  if (finished_ || giving_up_) return {};
  if (attempt_in_flight_) {
    woken_ = true;  // the attempt may have run before the release: try again after it
    return {};
  }
  if (!sleeping_ || jittering_) return {};
  wake_pending_ = true;
  if (const auto delay = wake_delay(now); delay.count() > 0) {
    jittering_ = true;
    // Replaces the retry-hint sleep; never past the deadline.
    return sleep_until(std::min(now + delay, settings_.deadline));
  }
  sleeping_ = false;
  return try_once();
}

// Every waiter on a non-fair lock hears each release at once, and the first attempt to reach the
// server wins. Left alone, that is whoever Redis writes the message to first (it writes to the
// channel's subscribers in the order they subscribed) and whoever the kernel schedules first: the
// same processes win again and again, and a waiter elsewhere can wait for seconds.
//
// A Lock's waiters take turns on the server (LockTurnsPolicy, lock_acquire_in_turn.lua): a free
// lock goes to the longest waiter, and each failed attempt says how many wait ahead. Only that
// one's attempt can win, so the others let it go first: a waiter with anyone ahead waits
// kBehindDelay after a wake-up, so that its attempt (which will fail) does not queue before the
// head's at the server or take the CPU from it. Measured with the `contention` bench (16
// processes, 2 cores, 1 ms holds): busy 0.63 with no delay, 0.68 with 150 us, 0.74 with 300-500
// us, 0.68 with 1 ms and 0.53 with 2.5 ms (the delayed attempts then land on the next release);
// wait p99 24 ms at 500 us.
//
// The other non-fair kinds (FirstComePolicy: FencedLock, a ReadWriteLock's read side;
// WriteSidePolicy; and FairLockPolicy's waits) keep the first-come rule and spread the wins
// instead: once a waiter knows others wait too (it lost a race after a wake-up, or its own release
// just woke two or more other clients), a wake-up makes it wait a random moment first, unless it
// has waited kWakeAgeFull or more: the long waiters try at once, ahead of the rest, and the draw
// spreads the wins among the others (with a Lock before it took turns: the least lucky process went
// from 0.16-0.19 of the mean acquisitions to 0.91-0.93, wait p99 49-63 ms). A lone waiter (the
// two-party hand-over) neither lost a race nor woke a crowd, so it pays nothing under either
// rule. Java waiters are unaffected.
//
// A semaphore's waiter that tries at all was told of enough free permits for its place: it tries
// at once. So do latches and pollers (which are never woken).
std::chrono::microseconds AcquireMachine::wake_delay(Clock::time_point now) {
  if (std::holds_alternative<LockTurnsPolicy>(settings_.policy)) {
    constexpr std::chrono::microseconds kBehindDelay{500};
    return ahead_ > 0 ? kBehindDelay : std::chrono::microseconds{};
  }
  const bool first_come = std::holds_alternative<FirstComePolicy>(settings_.policy) ||
                          std::holds_alternative<WriteSidePolicy>(settings_.policy) ||
                          std::holds_alternative<FairLockPolicy>(settings_.policy);
  if (!first_come || !yields_after_release() || !contended_) return {};
  constexpr std::chrono::microseconds kWakeJitter{1000};
  constexpr std::chrono::microseconds kWakeAgeFull{30000};
  const auto waited = std::chrono::duration_cast<std::chrono::microseconds>(now - started_);
  if (waited >= kWakeAgeFull) return {};
  return std::chrono::microseconds(draw_(kWakeJitter.count() / 3, kWakeJitter.count()));
}

AcquireAction AcquireMachine::cancel() {
  if (finished_ || giving_up_ || cancelled_) return {};
  cancelled_ = true;
  // An attempt in flight may take the lock: its reply decides (replied()).
  if (attempt_in_flight_) return {};
  return give_up_then_finish({}, /*cancelled=*/true);
}

// Not acquired: a fair waiter leaves its queue first (the give-up), then the caller hears.
AcquireAction AcquireMachine::give_up_then_finish(Status status, bool cancelled) {
  giving_up_ = true;
  sleeping_ = false;
  stop_status_ = std::move(status);
  stop_cancelled_ = cancelled;
  return action_of(AcquireAction::Kind::give_up);
}

AcquireAction AcquireMachine::gave_up() {
  return finish(std::move(stop_status_), false, stop_cancelled_);
}

AcquireAction AcquireMachine::finish(Status status, bool acquired, bool cancelled) {
  if (finished_) return {};
  finished_ = true;
  sleeping_ = false;
  auto action = action_of(AcquireAction::Kind::finish);
  action.status = std::move(status);
  action.cancelled = cancelled;
  action.acquired = acquired;
  return action;
}

}  // namespace redisson::detail
