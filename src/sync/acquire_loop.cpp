#include "sync/acquire_loop.hpp"

#include <asio/error.hpp>
#include <asio/post.hpp>
#include <utility>

#include "client/client_core.hpp"
#include "sync/own_releases.hpp"
#include "sync/release_yield.hpp"

namespace redisson::detail {

void AcquireLoop::start(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                        AcquireCallback done, GiveUp give_up, const CancellationPtr& cancel,
                        ReadSlot* read) {
  auto loop = std::make_shared<AcquireLoop>(core, std::move(options), std::move(attempt),
                                            std::move(done), std::move(give_up));
  // A caller off the I/O thread sends the first attempt itself when nothing is subscribed (so
  // there is no lingering channel to listen on first, see send_attempt()) and no release of ours
  // asks to yield (begin()): an uncontended acquisition then costs one hand-over between
  // threads (the reply's) instead of two. The loop is the caller's alone until that attempt is
  // sent; everything after it (the reply, a cancellation registered below) runs on the I/O
  // thread.
  const bool first_here = !core->on_io_thread() && core->subscriber().quiet() &&
                          (!loop->machine_.yields_after_release() ||
                           core->service<ReleaseYield>().all_closed(Clock::now()));
  if (first_here) {
    // No yield window open: the machine's first action is the attempt.
    auto action = loop->machine_.start(Clock::now(), std::nullopt);
    if (action.kind == AcquireAction::Kind::attempt) {
      loop->send_attempt(/*listen=*/false, /*on_caller_thread=*/true, read);
    }
  }
  if (cancel) {
    // The request comes on the caller's thread; the loop's state lives on the I/O thread.
    cancel->on_request([weak = std::weak_ptr<AcquireLoop>(loop), core] {
      core->run_on_io([weak] {
        if (auto self = weak.lock()) self->perform(self->machine_.cancel());
      });
    });
  }
  if (!first_here) core->run_on_io([loop] { loop->begin(); });
}

AcquireLoop::AcquireLoop(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                         AcquireCallback done, GiveUp give_up)
    : core_(core),
      channel_(std::move(options.channel)),
      machine_({options.policy, options.deadline, options.unknown_hint}, Clock::now()),
      attempt_(std::move(attempt)),
      done_(std::move(done)),
      give_up_(std::move(give_up)),
      timer_(core->io()) {}

void AcquireLoop::begin() {
  const auto now = Clock::now();
  std::optional<ReleaseYield::Window> yield;
  if (machine_.yields_after_release()) yield = core_->service<ReleaseYield>().window(channel_, now);
  perform(machine_.start(now, yield));
}

void AcquireLoop::perform(AcquireAction action) {
  switch (action.kind) {
    case AcquireAction::Kind::none:
      return;
    case AcquireAction::Kind::attempt:
      stop_timer();
      return send_attempt(action.listen, /*on_caller_thread=*/false);
    case AcquireAction::Kind::subscribe: {
      auto self = shared_from_this();
      listener_id_ = core_->subscriber().add(channel_, make_listener(), [self](std::error_code ec) {
        self->perform(self->machine_.subscribed(Clock::now(), ec));
      });
      return;
    }
    case AcquireAction::Kind::sleep_until:
      return arm_timer(action.until);
    case AcquireAction::Kind::give_up: {
      stop_timer();
      if (!give_up_) return perform(machine_.gave_up());
      auto give_up = std::move(give_up_);
      return give_up([self = shared_from_this()] { self->perform(self->machine_.gave_up()); });
    }
    case AcquireAction::Kind::finish:
      return finish(std::move(action));
  }
}

void AcquireLoop::send_attempt(bool listen, bool on_caller_thread, ReadSlot* read) {
  // (The subscriber is the I/O thread's: a caller's first attempt only comes when it was quiet.)
  if (listen && !on_caller_thread && core_->subscriber().confirmed(channel_)) {
    listener_id_ = core_->subscriber().add(channel_, make_listener(), nullptr);
    std::optional<OwnReleases::Pending> own;
    if (machine_.counts_permits()) {
      own = core_->service<OwnReleases>().pending(channel_, machine_.started(), Clock::now(),
                                                  core_->subscriber().received(channel_));
    }
    machine_.listening(own);
  }
  attempt_(
      [self = shared_from_this()](Status status, AttemptResult result) {
        // A first attempt's reply its caller read (detail/read_slot.hpp) finishes there only on
        // a grant: whatever the loop does next (subscribe, sleep, give up) is the I/O thread's.
        if ((status || !result.acquired) && !self->core_->on_io_thread()) {
          return asio::post(
              self->core_->io(), [self, status = std::move(status), result]() mutable {
                self->perform(self->machine_.replied(Clock::now(), std::move(status), result));
              });
        }
        self->perform(self->machine_.replied(Clock::now(), std::move(status), result));
      },
      read);
}

// The listener holds the loop alive while it waits; finish() removes the listener, which
// breaks the cycle (as does the subscriber's close() at shutdown).
Listener AcquireLoop::make_listener() {
  auto self = shared_from_this();
  return Listener{[self](std::string_view, std::string_view message) {
                    self->perform(self->machine_.message(Clock::now(), message));
                  },
                  [self] { self->perform(self->machine_.recheck(Clock::now())); },
                  // Interrupted: re-check now, so an outage is reported instead of slept on.
                  [self] { self->perform(self->machine_.recheck(Clock::now())); }};
}

void AcquireLoop::arm_timer(Clock::time_point when) {
  timer_armed_ = true;
  const auto generation = ++timer_generation_;
  timer_.expires_at(when);
  timer_.async_wait([self = shared_from_this(), generation](std::error_code) {
    // A wait replaced or stopped since asks nothing; an expired one tells the machine.
    if (!self->timer_armed_ || generation != self->timer_generation_) return;
    self->timer_armed_ = false;
    self->perform(self->machine_.timer_fired(Clock::now()));
  });
}

void AcquireLoop::stop_timer() {
  if (!timer_armed_) return;
  timer_armed_ = false;
  ++timer_generation_;
  timer_.cancel();
}

void AcquireLoop::finish(AcquireAction action) {
  stop_timer();
  if (listener_id_ != 0) {
    // Lingering: a waiter that comes back soon finds the channel subscribed (Config).
    core_->subscriber().remove(std::exchange(listener_id_, 0), core_->config().subscription_linger);
  }
  auto done = std::move(done_);
  if (action.cancelled) return done(make_error_code(asio::error::operation_aborted), false);
  done(std::move(action.status), action.acquired);
}

}  // namespace redisson::detail
