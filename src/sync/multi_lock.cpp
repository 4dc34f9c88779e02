#include "redisson/multi_lock.hpp"

#include <asio/error.hpp>
#include <asio/steady_timer.hpp>
#include <mutex>
#include <random>

#include "client/failure_report.hpp"
#include "sync/lock_access.hpp"
#include "sync/lock_group.hpp"

namespace redisson {
namespace detail {
namespace {

using std::chrono::milliseconds;

milliseconds random_between(int low, int high) {
  thread_local std::minstd_rand random{std::random_device{}()};
  return milliseconds(std::uniform_int_distribution<int>(low, high)(random));
}

// How long a member may be waited on while others are already held: a random slice, so two
// MultiLocks that block each other (opposite member orders) do not retry in lockstep.
milliseconds held_member_wait() { return random_between(50, 250); }

// The pause after a round gave back what it took: whoever waits for those members gets a chance
// to take them, instead of losing them again to this round's next attempt (sent right behind its
// unlock, it would win every time, and two MultiLocks in opposite orders would livelock).
milliseconds pause_after_round() { return random_between(10, 60); }

// One acquisition of every member, in rounds: members are taken in order; a round that meets a
// busy member gives back what it took and starts again, until the deadline. Each step runs on
// the I/O thread of the member that answered; steps never overlap.
class MultiAcquire : public std::enable_shared_from_this<MultiAcquire> {
 public:
  MultiAcquire(LockGroup locks, OwnerId owner, std::optional<milliseconds> wait,
               std::optional<milliseconds> lease, CancellationPtr cancel, Done<bool> done)
      : locks_(std::move(locks)),
        owner_(owner),
        deadline_(wait ? std::optional(Clock::now() + *wait) : std::nullopt),
        lease_(lease),
        cancel_(std::move(cancel)),
        pause_(core_executor(*LockAccess::kind(locks_->front())->core)),
        done_(std::move(done)) {}

  void start() {
    if (cancel_) {
      cancel_->on_request([weak = weak_from_this()] {
        if (auto self = weak.lock()) self->forward_cancel();
      });
    }
    round();
  }

 private:
  void round() {
    if (cancelled()) return done_(make_error_code(asio::error::operation_aborted), false);
    taken_ = 0;
    next();
  }

  void next() {
    if (taken_ == locks_->size()) return acquired_all();
    // What this member may be waited on: everything left while nothing is held (no one can be
    // blocked by us), only a short slice once we hold others.
    std::optional<milliseconds> member_wait;
    if (deadline_) {
      member_wait =
          std::max(std::chrono::ceil<milliseconds>(*deadline_ - Clock::now()), milliseconds{0});
    }
    if (taken_ > 0) {
      member_wait = member_wait ? std::min(*member_wait, held_member_wait()) : held_member_wait();
    }
    auto member_cancel = std::make_shared<Cancellation>();
    {
      std::lock_guard lock(mutex_);
      member_cancel_ = member_cancel;
      if (cancelled_) member_cancel->request();
    }
    LockAccess::kind((*locks_)[taken_])
        ->acquire(owner_, member_wait, lease_, member_cancel,
                  [self = shared_from_this()](Status status, std::optional<std::int64_t> token) {
                    self->on_member(std::move(status), token.has_value());
                  });
  }

  void on_member(Status status, bool acquired) {
    if (status) return give_back(std::move(status));
    if (acquired) {
      ++taken_;
      return next();
    }
    if (cancelled() || (deadline_ && Clock::now() >= *deadline_)) return give_back({});
    unlock_group(locks_, taken_, owner_, [self = shared_from_this()](const Status&) {
      self->pause_.expires_after(pause_after_round());
      self->pause_.async_wait([self](std::error_code) { self->round(); });
    });
  }

  // Not acquired (busy until the deadline, failed or cancelled): release what this round took,
  // then report.
  void give_back(Status status) {
    unlock_group(locks_, taken_, owner_,
                 [self = shared_from_this(), status = std::move(status)](const Status&) mutable {
                   if (!status && self->cancelled()) {
                     status = make_error_code(asio::error::operation_aborted);
                   }
                   self->done_(std::move(status), false);
                 });
  }

  void acquired_all() {
    if (cancel_) {
      if (cancel_->requested()) {
        return give_back(make_error_code(asio::error::operation_aborted));
      }
      cancel_->on_success_undo([locks = locks_, owner = owner_] {
        unlock_group(locks, locks->size(), owner, [](const Status&) {});
      });
    }
    done_({}, true);
  }

  void forward_cancel() {
    CancellationPtr member;
    {
      std::lock_guard lock(mutex_);
      cancelled_ = true;
      member = member_cancel_;
    }
    if (member) member->request();
  }

  bool cancelled() {
    std::lock_guard lock(mutex_);
    return cancelled_;
  }

  const LockGroup locks_;
  const OwnerId owner_;
  const std::optional<Clock::time_point> deadline_;
  const std::optional<milliseconds> lease_;
  const CancellationPtr cancel_;
  asio::steady_timer pause_;  // on the first member's I/O thread
  Done<bool> done_;
  std::size_t taken_ = 0;

  std::mutex mutex_;  // the caller's cancel request comes on its own thread
  bool cancelled_ = false;
  CancellationPtr member_cancel_;
};

}  // namespace
}  // namespace detail

MultiLock::MultiLock(std::vector<BasicLock> locks)
    : locks_(std::make_shared<const std::vector<BasicLock>>(std::move(locks))) {
  if (locks_->empty()) throw error(errc::invalid_argument, "a MultiLock needs at least one lock");
}

void MultiLock::start_acquire(const Members& locks, OwnerId owner, std::optional<milliseconds> wait,
                              std::optional<milliseconds> lease, detail::CancellationPtr cancel,
                              detail::Done<bool> done, detail::ReadSlot* /*read*/) {
  if ((wait && wait->count() < 0) || (lease && lease->count() <= 0)) {
    return done(errc::invalid_argument, false);
  }
  std::make_shared<detail::MultiAcquire>(locks, owner, wait, lease, std::move(cancel),
                                         std::move(done))
      ->start();
}

void MultiLock::start_release(const Members& locks, OwnerId owner, detail::Done<void> done,
                              detail::ReadSlot* /*read*/) {
  detail::unlock_group(locks, locks->size(), owner, std::move(done));
}

void MultiLock::unlock() noexcept {
  detail::unlock_reporting(
      detail::LockAccess::kind(locks_->front())->core->config(), "MultiLock",
      [&](const detail::Blocking& token) { async_unlock(OwnerId::current_thread(), token); });
}

}  // namespace redisson
