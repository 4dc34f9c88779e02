#include "redisson/red_lock.hpp"

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

milliseconds retry_delay() {
  thread_local std::minstd_rand random{std::random_device{}()};
  return milliseconds(std::uniform_int_distribution<int>(5, 50)(random));
}

// One request to every master at once, closed when all answered or at its timer, whichever
// comes first: answers arrive on each master's client's I/O thread, the timer on the first's.
// A late answer from another client may hold the last reference after the first client was
// destroyed, so the Fanout keeps the members (and through them their clients' io_contexts)
// alive until its timer is gone.
class Fanout : public std::enable_shared_from_this<Fanout> {
 public:
  enum class Outcome { pending, ok, refused, failed };
  using Closed = UniqueFunction<void(const std::vector<Outcome>&)>;

  Fanout(LockGroup locks, const asio::any_io_executor& executor, Closed closed)
      : locks_(std::move(locks)),
        timer_(executor),
        outcome_(locks_->size(), Outcome::pending),
        closed_(std::move(closed)) {}

  void arm(milliseconds timeout) {
    timer_.expires_after(timeout);
    timer_.async_wait([self = shared_from_this()](std::error_code) { self->close(); });
  }

  void record(std::size_t member, Outcome result) {
    bool all = false;
    {
      std::lock_guard lock(mutex_);
      if (done_) return;  // a late answer: the round already moved on
      outcome_[member] = result;
      all = ++answered_ == outcome_.size();
    }
    if (all) close();
  }

 private:
  void close() {
    Closed closed;
    std::vector<Outcome> outcome;
    {
      std::lock_guard lock(mutex_);
      if (done_) return;
      done_ = true;
      closed = std::move(closed_);
      outcome = outcome_;
    }
    timer_.cancel();
    closed(outcome);
  }

  LockGroup locks_;  // destroyed after timer_: it keeps the timer's io_context alive
  asio::steady_timer timer_;
  std::mutex mutex_;
  std::vector<Outcome> outcome_;
  std::size_t answered_ = 0;
  bool done_ = false;
  Closed closed_;
};

using MasterOutcome = Fanout::Outcome;

std::size_t count_outcomes(const std::vector<MasterOutcome>& outcome, MasterOutcome wanted) {
  return static_cast<std::size_t>(std::count(outcome.begin(), outcome.end(), wanted));
}

asio::any_io_executor executor_of(const LockGroup& locks) {
  return core_executor(*LockAccess::kind(locks->front())->core);
}

// Releases on every master at once, each answer bounded by master_timeout: `done` gets the
// outcomes (ok, refused = not the owner there, failed, pending = no answer in time).
void release_all(const LockGroup& locks, milliseconds timeout, OwnerId owner,
                 UniqueFunction<void(const std::vector<MasterOutcome>&)> done) {
  auto fanout = std::make_shared<Fanout>(locks, executor_of(locks), std::move(done));
  fanout->arm(timeout);
  for (std::size_t i = 0; i < locks->size(); ++i) {
    LockAccess::kind((*locks)[i])->release(owner, [fanout, i](const Status& status) {
      fanout->record(i, !status                     ? MasterOutcome::ok
                        : status == errc::not_owner ? MasterOutcome::refused
                                                    : MasterOutcome::failed);
    });
  }
}

// Rounds of the Redlock algorithm until a majority is held, the wait ran out or the caller
// cancelled.
class RedAcquire : public std::enable_shared_from_this<RedAcquire> {
 public:
  RedAcquire(LockGroup locks, RedLockOptions options, OwnerId owner,
             std::optional<milliseconds> wait, milliseconds lease, CancellationPtr cancel,
             Done<std::optional<milliseconds>> done)
      : locks_(std::move(locks)),
        options_(options),
        owner_(owner),
        deadline_(wait ? std::optional(Clock::now() + *wait) : std::nullopt),
        lease_(lease),
        cancel_(std::move(cancel)),
        retry_timer_(executor_of(locks_)),
        done_(std::move(done)) {}

  void round() {
    if (cancel_ && cancel_->requested()) {
      return done_(make_error_code(asio::error::operation_aborted), std::nullopt);
    }
    const auto start = Clock::now();
    auto fanout = std::make_shared<Fanout>(
        locks_, executor_of(locks_),
        [self = shared_from_this(), start](const std::vector<MasterOutcome>& outcome) {
          self->round_closed(start, outcome);
        });
    fanout->arm(options_.master_timeout);
    // A late answer only lands in a closed fanout: a hold it took is released by this round's
    // release (sent after the acquire on the same connection) or by unlock().
    for (std::size_t i = 0; i < locks_->size(); ++i) {
      LockAccess::kind((*locks_)[i])
          ->acquire(owner_, milliseconds{0}, lease_, nullptr,
                    [fanout, i](const Status& status, std::optional<std::int64_t> token) {
                      fanout->record(i, status              ? MasterOutcome::failed
                                        : token.has_value() ? MasterOutcome::ok
                                                            : MasterOutcome::refused);
                    });
    }
  }

 private:
  void round_closed(Clock::time_point start, const std::vector<MasterOutcome>& outcome) {
    const auto elapsed = std::chrono::ceil<milliseconds>(Clock::now() - start);
    const auto drift = milliseconds(static_cast<milliseconds::rep>(
                           static_cast<double>(lease_.count()) * options_.drift_factor)) +
                       options_.drift_base;
    const auto validity = lease_ - elapsed - drift;
    const bool cancelled = cancel_ && cancel_->requested();
    if (!cancelled && count_outcomes(outcome, MasterOutcome::ok) >= quorum() &&
        validity.count() > 0) {
      if (cancel_) {
        cancel_->on_success_undo(
            [locks = locks_, owner = owner_, timeout = options_.master_timeout] {
              release_all(locks, timeout, owner, [](const std::vector<MasterOutcome>&) {});
            });
      }
      return done_({}, validity);
    }
    release_all(
        locks_, options_.master_timeout, owner_,
        [self = shared_from_this()](const std::vector<MasterOutcome>&) { self->after_release(); });
  }

  void after_release() {
    if (cancel_ && cancel_->requested()) {
      return done_(make_error_code(asio::error::operation_aborted), std::nullopt);
    }
    auto delay = retry_delay();
    if (deadline_) {
      const auto left = std::chrono::ceil<milliseconds>(*deadline_ - Clock::now());
      if (left.count() <= 0) return done_({}, std::nullopt);
      delay = std::min(delay, left);
    }
    retry_timer_.expires_after(delay);
    retry_timer_.async_wait([self = shared_from_this()](std::error_code) { self->round(); });
  }

  std::size_t quorum() const { return locks_->size() / 2 + 1; }

  const LockGroup locks_;
  const RedLockOptions options_;
  const OwnerId owner_;
  const std::optional<Clock::time_point> deadline_;
  const milliseconds lease_;
  const CancellationPtr cancel_;
  asio::steady_timer retry_timer_;
  Done<std::optional<milliseconds>> done_;
};

}  // namespace
}  // namespace detail

RedLock::RedLock(std::vector<BasicLock> locks, RedLockOptions options)
    : locks_(std::make_shared<const std::vector<BasicLock>>(std::move(locks))), options_(options) {
  if (locks_->empty()) throw error(errc::invalid_argument, "a RedLock needs at least one lock");
  if (options_.master_timeout.count() <= 0) {
    throw error(errc::invalid_argument, "RedLock master_timeout must be positive");
  }
}

void RedLock::start_acquire(const Members& locks, const RedLockOptions& options, OwnerId owner,
                            std::optional<milliseconds> wait, milliseconds lease,
                            detail::CancellationPtr cancel,
                            detail::Done<std::optional<milliseconds>> done) {
  if ((wait && wait->count() < 0) || lease.count() <= 0) {
    return done(errc::invalid_argument, std::nullopt);
  }
  std::make_shared<detail::RedAcquire>(locks, options, owner, wait, lease, std::move(cancel),
                                       std::move(done))
      ->round();
}

void RedLock::start_release(const Members& locks, const RedLockOptions& options, OwnerId owner,
                            detail::Done<void> done) {
  detail::release_all(
      locks, options.master_timeout, owner,
      [done = std::move(done)](const std::vector<detail::MasterOutcome>& outcome) mutable {
        const bool held_nowhere =
            detail::count_outcomes(outcome, detail::MasterOutcome::ok) == 0 &&
            detail::count_outcomes(outcome, detail::MasterOutcome::refused) > 0;
        if (!held_nowhere) return done({});
        done(detail::Status(make_error_code(errc::not_owner), "the owner holds it on no master"));
      });
}

std::optional<RedLock::milliseconds> RedLock::try_lock(milliseconds lease) {
  return async_try_lock(OwnerId::current_thread(), milliseconds{0}, lease,
                        detail::blocking("try_lock", "RedLock"));
}

std::optional<RedLock::milliseconds> RedLock::try_lock_for(milliseconds wait, milliseconds lease) {
  return async_try_lock(OwnerId::current_thread(), wait, lease,
                        detail::blocking("try_lock", "RedLock"));
}

RedLock::milliseconds RedLock::lock(milliseconds lease) {
  return *async_try_lock(OwnerId::current_thread(), std::nullopt, lease,
                         detail::blocking("lock", "RedLock"));
}

void RedLock::unlock(std::error_code& ec) noexcept {
  try {
    async_unlock(OwnerId::current_thread(), detail::blocking(ec, "unlock", "RedLock"));
  } catch (const std::exception&) {
    // Could not even start (no memory): noexcept, so the failure goes in `ec`, as unlock()'s does.
    ec = make_error_code(errc::shutdown);
  }
}

void RedLock::unlock() noexcept {
  detail::unlock_reporting(
      detail::LockAccess::kind(locks_->front())->core->config(), "RedLock",
      [&](const detail::Blocking& token) { async_unlock(OwnerId::current_thread(), token); });
}

}  // namespace redisson
