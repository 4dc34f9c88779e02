#include "sync/acquire_loop.hpp"

#include <algorithm>
#include <asio/error.hpp>
#include <asio/post.hpp>
#include <charconv>
#include <optional>
#include <random>
#include <utility>

#include "client/client_core.hpp"
#include "sync/release_yield.hpp"

namespace redisson::detail {

namespace {

// A semaphore's release message: the count of free permits (decimal text, Redisson's).
std::optional<std::int64_t> release_count(std::string_view message) {
  std::int64_t count = 0;
  const auto* end = message.data() + message.size();
  if (std::from_chars(message.data(), end, count).ptr != end || count < 0) return std::nullopt;
  return count;
}

// How long a waiter trusts the place it learnt (see on_message()).
constexpr std::chrono::milliseconds kPlaceTrusted{1000};
// When a waiter that counts itself next let a release go by: check then (see on_message()).
constexpr std::chrono::microseconds kSkipCheck{2000};
// When a waiter was passed over for the one waiter ahead of it (permits were free, kept for the
// order): check then. That waiter was woken by the same release and is on its way; only a
// stalled or dead one would leave the permit unused, so this check can wait longer than the
// other: 2 ms gave that waiter's permit to the newcomer when a loaded machine woke it late.
constexpr std::chrono::microseconds kPassedOverCheck{10000};

}  // namespace

void AcquireLoop::start(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                        AcquireCallback done, GiveUp give_up, const CancellationPtr& cancel) {
  auto loop = std::make_shared<AcquireLoop>(core, std::move(options), std::move(attempt),
                                            std::move(done), std::move(give_up));
  // A caller off the I/O thread sends the first attempt itself when nothing is subscribed (so
  // there is no lingering channel to listen on first, see try_once()) and no release of ours
  // asks to yield (begin()): an uncontended acquisition then costs one hand-over between
  // threads (the reply's) instead of two. The loop is the caller's alone until that attempt is
  // sent; everything after it (the reply, a cancellation registered below) runs on the I/O
  // thread.
  const bool first_here =
      !core->on_io_thread() && core->subscriber().quiet() &&
      (!loop->options_.yield_after_release || core->release_yield().all_closed(Clock::now()));
  if (first_here) loop->try_once(/*on_caller_thread=*/true);
  if (cancel) {
    // The request comes on the caller's thread; the loop's state lives on the I/O thread.
    cancel->on_request([weak = std::weak_ptr<AcquireLoop>(loop), core] {
      core->run_on_io([weak] {
        if (auto self = weak.lock()) self->cancel();
      });
    });
  }
  if (!first_here) core->run_on_io([loop] { loop->begin(); });
}

AcquireLoop::AcquireLoop(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                         AcquireCallback done, GiveUp give_up)
    : core_(core),
      options_(std::move(options)),
      attempt_(std::move(attempt)),
      done_(std::move(done)),
      give_up_(std::move(give_up)),
      timer_(core->io()),
      started_(Clock::now()) {}

void AcquireLoop::begin() {
  if (finished_ || giving_up_) return;  // cancelled before it began
  if (options_.yield_after_release) {
    const auto now = Clock::now();
    if (const auto window = core_->release_yield().window(options_.channel, now)) {
      // Our release woke several others: they wait with us (wake_delay()).
      if (window->others >= 2) contended_ = true;
      // No listener yet: a release meanwhile is seen by the attempt after the wait.
      return sleep_until(std::min(window->until, options_.deadline));
    }
  }
  try_once();
}

void AcquireLoop::try_once(bool on_caller_thread) {
  jittering_ = false;
  if (finished_ || giving_up_) return;
  if (cancelled_) return give_up_then_finish(make_error_code(asio::error::operation_aborted));
  // (The subscriber is the I/O thread's: a caller's first attempt only comes when it was quiet.)
  if (!on_caller_thread && !subscribed_ && !options_.poll &&
      core_->subscriber().confirmed(options_.channel)) {
    subscribed_ = true;
    listener_id_ = core_->subscriber().add(options_.channel, make_listener(), nullptr);
    if (options_.permits_wanted > 0) {
      own_release_ = core_->own_releases().pending(options_.channel, started_, Clock::now(),
                                                   core_->subscriber().received(options_.channel));
    }
  }
  attempt_in_flight_ = true;
  heard_in_flight_.clear();
  attempt_after_wake_ = std::exchange(woken_, false) || std::exchange(wake_pending_, false);
  attempt_([self = shared_from_this()](Status status, AttemptResult result) {
    // A first attempt's reply its caller read (detail/caller_read.hpp) finishes there only on
    // a grant: whatever the loop does next (subscribe, sleep, give up) is the I/O thread's.
    if ((status || !result.acquired) && !self->core_->on_io_thread()) {
      return asio::post(self->core_->io(), [self, status = std::move(status), result]() mutable {
        self->attempt_in_flight_ = false;
        self->on_attempt(std::move(status), result);
      });
    }
    self->attempt_in_flight_ = false;
    self->on_attempt(std::move(status), result);
  });
}

void AcquireLoop::on_attempt(Status status, AttemptResult result) {
  if (finished_ || giving_up_) return;
  if (status) return finish(std::move(status), false);
  if (result.acquired) return finish({}, true);
  ahead_ = result.ahead;
  permits_seen_ = result.available;
  ahead_learnt_ = Clock::now();
  // Releases heard while the attempt ran are judged against the place its reply brought.
  const bool judged = place_known(ahead_learnt_);
  bool heard_reaches = false;
  for (const auto count : heard_in_flight_) {
    if (!judged || release_reaches(count)) heard_reaches = true;
  }
  if (cancelled_) return give_up_then_finish(make_error_code(asio::error::operation_aborted));
  if (Clock::now() >= options_.deadline) return give_up_then_finish({});
  if (options_.poll) return sleep(next_backoff(result.retry_after));
  // Woken by a release, and someone else got there first: others wait on this lock too.
  if (attempt_after_wake_) contended_ = true;
  // Passed over for the waiters in the order (there were permits enough, kept for them): if the
  // one they were meant for does not come, a check finds out (see kPassedOverCheck).
  const bool passed_over =
      options_.permits_wanted > 0 && result.available >= options_.permits_wanted;
  if (!subscribed_) {
    // The attempt after subscribing (which covers a release meanwhile) waits as that check
    // would: at once, it would take the permit kept for the one ahead.
    const bool check_later = passed_over && one_permit_short(permits_seen_);
    return subscribe_then_retry(check_later ? kPassedOverCheck : std::chrono::microseconds{});
  }
  // Listening already, but not yet in the server's order (the first attempt is a first-come
  // one): get in line now rather than at the next release. Or a release came meanwhile.
  if (woken_ || heard_reaches || (options_.server_orders_waiters && result.ahead < 0)) {
    return try_once();
  }
  // Let a release go by, or passed over: a check soon finds out whether it was right to.
  if ((passed_over || !heard_in_flight_.empty()) && one_permit_short(permits_seen_)) {
    const auto check = passed_over && heard_in_flight_.empty() ? kPassedOverCheck : kSkipCheck;
    return sleep_until(std::min(Clock::now() + check, options_.deadline));
  }
  sleep(result.retry_after);
}

// The listener holds the loop alive while it waits; finish() removes the listener, which
// breaks the cycle (as does the subscriber's close() at shutdown).
Listener AcquireLoop::make_listener() {
  auto self = shared_from_this();
  return Listener{[self](std::string_view message) { self->on_message(message); },
                  [self] { self->wake(); },
                  // Interrupted: re-check now, so an outage is reported instead of slept on.
                  [self] { self->wake(); }};
}

// Subscribing before the second attempt closes the gap in which a release could be missed.
void AcquireLoop::subscribe_then_retry(std::chrono::microseconds delay) {
  subscribed_ = true;
  auto self = shared_from_this();
  listener_id_ =
      core_->subscriber().add(options_.channel, make_listener(), [self, delay](std::error_code ec) {
        if (self->finished_) return;
        if (ec) return self->finish(ec, false);
        if (delay.count() > 0) {
          // Listening now: a release meanwhile wakes it sooner (on_message()).
          return self->sleep_until(std::min(Clock::now() + delay, self->options_.deadline));
        }
        self->try_once();
      });
}

void AcquireLoop::sleep(std::chrono::milliseconds hint) {
  auto wait = hint.count() >= 0 ? hint : options_.unknown_hint;
  if (options_.deadline != Clock::time_point::max()) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(options_.deadline - Clock::now());
    wait = std::min(wait, std::max(left, std::chrono::milliseconds{0}));
  }
  sleep_until(Clock::now() + wait);
}

void AcquireLoop::sleep_until(Clock::time_point when) {
  sleeping_ = true;
  const auto generation = ++sleep_generation_;
  timer_.expires_at(when);
  timer_.async_wait([self = shared_from_this(), generation](std::error_code) {
    // A cancelled wait was already handled by wake(); an expired one means: try again.
    if (!self->sleeping_ || generation != self->sleep_generation_) return;
    self->sleeping_ = false;
    self->try_once();
  });
}

// Equal jitter (half fixed, half random) spreads pollers that started together; the retry
// hint (the holder's remaining lease) caps the step, since retrying later than that is waste.
std::chrono::milliseconds AcquireLoop::next_backoff(std::chrono::milliseconds hint) {
  const auto& backoff = *options_.poll;
  if (backoff.follow_hint && hint.count() >= 0) return hint;
  auto step = backoff.initial;
  for (int i = 0; i < backoff_round_ && step < backoff.max; ++i) step *= 2;
  step = std::max(std::min(step, backoff.max), std::chrono::milliseconds{1});
  ++backoff_round_;
  thread_local std::minstd_rand random{std::random_device{}()};
  const auto half = (step.count() + 1) / 2;
  std::uniform_int_distribution<std::chrono::milliseconds::rep> jitter(0, step.count() - half);
  step = std::chrono::milliseconds(half + jitter(random));
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
void AcquireLoop::on_message(std::string_view message) {
  if (options_.permits_wanted > 0 && !finished_ && !giving_up_) {
    constexpr std::size_t kHeardMax = 16;  // more while one attempt runs: just try again after it
    if (const auto count = release_count(message)) {
      // Published before this client's own release from just before this wait (that one
      // included): their permits are seen already.
      if (own_release_ && Clock::now() <= own_release_->until) {
        if (*count == own_release_->count) own_release_.reset();
        return;
      }
      own_release_.reset();
      if (attempt_in_flight_ && heard_in_flight_.size() < kHeardMax) {
        return heard_in_flight_.push_back(*count);
      }
      const auto now = Clock::now();
      if (!attempt_in_flight_ && sleeping_ && !jittering_ && place_known(now) &&
          !release_reaches(*count)) {
        if (!one_permit_short(*count)) return;  // the retry-hint sleep goes on
        return sleep_until(std::min({now + kSkipCheck, timer_.expiry(), options_.deadline}));
      }
    }
  }
  wake();
}

bool AcquireLoop::place_known(Clock::time_point now) const {
  return ahead_ >= 0 && permits_seen_ >= 0 && now - ahead_learnt_ < kPlaceTrusted;
}

// Between two counts the permits taken are the earlier count, plus those this release freed,
// less the new count. A release frees one permit, or as many as the count grew by when more:
// exact for one-permit releases, and for larger ones with nothing taken meanwhile; otherwise it
// counts fewer taken than were, and the waiter is one release late (the check bounds that).
// Takes by waiters behind or new ones count as served too: the safe side (an early try).
bool AcquireLoop::release_reaches(std::int64_t count) {
  const auto freed = std::max<std::int64_t>(1, count - permits_seen_);
  const auto taken = std::max<std::int64_t>(permits_seen_ + freed - count, 0);
  ahead_ = std::max<std::int64_t>(ahead_ - taken, 0);
  permits_seen_ = count;
  return count - ahead_ >= options_.permits_wanted;
}

// Another permit after this release's would reach this waiter: if it let the release go by
// wrongly, it finds out kSkipCheck later.
bool AcquireLoop::one_permit_short(std::int64_t count) const {
  return ahead_ + options_.permits_wanted - count <= 1;
}

void AcquireLoop::wake() {
  if (finished_ || giving_up_) return;
  if (attempt_in_flight_) {
    woken_ = true;  // the attempt may have run before the release: try again after it
    return;
  }
  if (!sleeping_ || jittering_) return;
  wake_pending_ = true;
  if (const auto delay = wake_delay(); delay.count() > 0) {
    jittering_ = true;
    // Replaces the retry-hint sleep; never past the deadline.
    return sleep_until(std::min(Clock::now() + delay, options_.deadline));
  }
  sleeping_ = false;
  timer_.cancel();
  try_once();
}

// Every waiter on a non-fair lock hears each release at once, and the first attempt to reach the
// server wins. Left alone, that is whoever Redis writes the message to first (it writes to the
// channel's subscribers in the order they subscribed) and whoever the kernel schedules first: the
// same processes win again and again, and a waiter elsewhere can wait for seconds.
//
// A Lock's waiters take turns on the server (lock_acquire_in_turn.lua): a free lock goes to the
// longest waiter, and each failed attempt says how many wait ahead. Only that one's attempt can
// win, so the others let it go first: a waiter with anyone ahead waits kBehindDelay after a
// wake-up, so that its attempt (which will fail) does not queue before the head's at the server
// or take the CPU from it. Measured with the `contention` bench (16 processes, 2 cores, 1 ms
// holds): busy 0.63 with no delay, 0.68 with 150 us, 0.74 with 300-500 us, 0.68 with 1 ms and 0.53
// with 2.5 ms (the delayed attempts then land on the next release); wait p99 24 ms at 500 us.
//
// The other non-fair kinds (FencedLock, a ReadWriteLock's write side) keep the first-come rule and
// spread the wins instead: once a waiter knows others wait too (it lost a race after a wake-up,
// or its own release just woke two or more other clients), a wake-up makes it wait a random
// moment first, unless it has waited kWakeAgeFull or more: the long waiters try at once, ahead of
// the rest, and the draw spreads the wins among the others (with a Lock before it took turns: the
// least lucky process went from 0.16-0.19 of the mean acquisitions to 0.91-0.93, wait p99 49-63
// ms). A lone waiter (the two-party hand-over) neither lost a race nor woke a crowd, so it pays
// nothing under either rule. Java waiters are unaffected.
std::chrono::microseconds AcquireLoop::wake_delay() {
  if (options_.server_orders_waiters) {
    // (A semaphore's waiter that tries at all was told of enough free permits for its place.)
    constexpr std::chrono::microseconds kBehindDelay{500};
    return ahead_ > 0 && options_.permits_wanted == 0 ? kBehindDelay : std::chrono::microseconds{};
  }
  if (!options_.yield_after_release || !contended_) return {};
  constexpr std::chrono::microseconds kWakeJitter{1000};
  constexpr std::chrono::microseconds kWakeAgeFull{30000};
  const auto waited =
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_);
  if (waited >= kWakeAgeFull) return {};
  thread_local std::minstd_rand random{std::random_device{}()};
  std::uniform_int_distribution<std::chrono::microseconds::rep> draw(kWakeJitter.count() / 3,
                                                                     kWakeJitter.count());
  return std::chrono::microseconds(draw(random));
}

void AcquireLoop::cancel() {
  if (finished_ || giving_up_ || cancelled_) return;
  cancelled_ = true;
  // An attempt in flight may take the lock: its reply decides (on_attempt).
  if (attempt_in_flight_) return;
  give_up_then_finish(make_error_code(asio::error::operation_aborted));
}

// Not acquired: a fair waiter leaves its queue first (give_up_), then the caller hears.
void AcquireLoop::give_up_then_finish(Status status) {
  if (!give_up_) return finish(std::move(status), false);
  giving_up_ = true;
  sleeping_ = false;
  timer_.cancel();
  auto give_up = std::move(give_up_);
  give_up([self = shared_from_this(), status = std::move(status)]() mutable {
    self->finish(std::move(status), false);
  });
}

void AcquireLoop::finish(Status status, bool acquired) {
  if (finished_) return;
  finished_ = true;
  sleeping_ = false;
  timer_.cancel();
  if (listener_id_ != 0) {
    // Lingering: a waiter that comes back soon finds the channel subscribed (Config).
    core_->subscriber().remove(std::exchange(listener_id_, 0), core_->config().subscription_linger);
  }
  auto done = std::move(done_);
  done(std::move(status), acquired);
}

}  // namespace redisson::detail
