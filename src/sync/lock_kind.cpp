#include "sync/lock_kind.hpp"

#include <asio/error.hpp>
#include <asio/post.hpp>
#include <charconv>

#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/names.hpp"
#include "sync/release_replay.hpp"
#include "sync/release_yield.hpp"
#include "sync/retry.hpp"
#include "watchdog/watchdog.hpp"

namespace redisson::detail {
namespace {

// A full release sends one unlock per re-entrant hold; a count beyond this is not a real
// program's re-entrancy but a corrupted hash, left to its lease.
constexpr int kMaxReleasesPerOwner = 64;

}  // namespace

// What an acquisition's attempts share: the request, the token of the attempt that won, and
// whether that attempt set the owner's count (the registry then trusts its own).
struct LockKind::AcquireState {
  AcquireRequest request;
  std::int64_t token = 0;
  bool reconciled = false;
};

LockKind::LockKind(std::shared_ptr<ClientCore> core_in, std::string name_in,
                   std::string_view channel_prefix)
    : core(std::move(core_in)),
      name(std::move(name_in)),
      channel(prefix_name(channel_prefix, name)),
      publish_command(core->publish_command()) {
  if (name.empty()) throw error(errc::invalid_argument, "a lock name must not be empty");
}

HoldRegistry& LockKind::holds() const { return core->service<Watchdog>().holds(); }

std::string LockKind::owner_field(OwnerId owner) const {
  // Sized once: this runs on every acquire and unlock.
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, owner.value()).ptr;
  std::string field;
  field.reserve(core->id().size() + 1 + static_cast<std::size_t>(end - digits));
  field.append(core->id()).append(1, ':').append(digits, end);
  return field;
}

AcquireLoop::Options LockKind::loop_options(const AcquireRequest&) const {
  AcquireLoop::Options options;
  options.channel = channel;
  options.policy = FirstComePolicy{};
  return options;
}

const ScriptDef& LockKind::renew_script() const { return lua::lock_renew; }

void LockKind::acquire(OwnerId owner, OptionalMs wait, OptionalMs lease, CancellationPtr cancel,
                       Done<std::optional<std::int64_t>> done, ReadSlot* read) {
  if ((wait && wait->count() < 0) || (lease && lease->count() <= 0)) {
    return done(errc::invalid_argument, std::nullopt);
  }
  auto state = std::make_shared<AcquireState>();
  state->request =
      AcquireRequest{owner, owner_field(owner),
                     lease.value_or(core->config().lock_watchdog_timeout), wait, Clock::now()};
  auto options = loop_options(state->request);
  if (wait) options.deadline = Clock::now() + *wait;
  // A waiter yields to those a recent release of ours woke (release_yield.hpp); not a single
  // try (wait 0), which asks whether the lock is free now, and never a holder re-entering.
  set_yield_after_release(options.policy, (!wait || wait->count() > 0) &&
                                              holds().known(name, state->request.field) == 0);
  const bool watchdog = !lease.has_value();
  auto attempt = make_attempt(state);
  auto give_up_hook = give_up(state->request);
  AcquireLoop::start(
      core, std::move(options), std::move(attempt),
      [self = shared_from_this(), state, watchdog, cancel, give_up_hook, done = std::move(done)](
          Status status, bool acquired) mutable {
        if (status && give_up_hook && status != errc::already_held && status != errc::shutdown &&
            status != std::error_code(asio::error::operation_aborted)) {
          // A waiter that failed (a lost connection, a subscription that timed out) leaves
          // whatever it joined too (a fair lock's queue), best effort: otherwise a release would
          // be handed to it and everyone behind it would wait out its slot.
          return give_up_hook([status = std::move(status), done = std::move(done)]() mutable {
            done(std::move(status), std::nullopt);
          });
        }
        if (status || !acquired) return done(std::move(status), std::nullopt);
        // Registered on the I/O thread before anyone learns of the hold, so no renewal round
        // can miss it.
        self->register_hold(*state, watchdog);
        if (cancel) {
          const auto owner = state->request.owner;
          if (cancel->requested()) {
            // The grant raced the caller's cancel: give it back, report the cancel.
            self->release(owner, [](const Status&) {});
            return done(make_error_code(asio::error::operation_aborted), std::nullopt);
          }
          cancel->on_success_undo([self, owner] { self->release(owner, [](const Status&) {}); });
        }
        done({}, state->token);
      },
      give_up_hook, cancel, read);
}

Attempt LockKind::make_attempt(const std::shared_ptr<AcquireState>& state) {
  return [self = shared_from_this(), state](AttemptCallback callback, ReadSlot* read) {
    auto& request = state->request;
    // An unlock of this owner sent again after this attempt would release what it takes; one
    // a failover lost instead is mended by setting the count (release_replay.hpp).
    if (ReleaseReplay::acquiring(*self->core, self->name, request.owner)) {
      request.unlocked_lately = true;
    }
    std::optional<std::int64_t> reset;
    if (self->reconcilable()) {
      reset = self->holds().reset_count(self->name, request.field, request.unlocked_lately);
    }
    // (Attempts of one acquisition never overlap: the next is made after this one's reply.)
    auto call = self->attempt_call(request, reset);
    ++request.attempts_sent;
    self->core->eval(
        std::move(call),
        [self, state, reset_sent = reset.has_value(), callback = std::move(callback)](
            std::error_code ec, const Reply& reply) mutable {
          const auto& request = state->request;
          if ((ec == errc::timeout || ec == errc::connection_lost) && self->reconcilable()) {
            // The script may have run: the server may count a hold this client never learns of.
            self->holds().reply_lost(self->name, request.field);
          }
          if (ec && ec != errc::not_replicated) return callback(status_of(ec, reply), {});
          auto outcome = self->read_attempt(reply);
          if (ec == errc::not_replicated && outcome.acquired) {
            // No replica acknowledged the acquisition: take it back and say so.
            return self->undo_acquisition(request,
                                          [callback = std::move(callback)](Status undone) mutable {
                                            callback(std::move(undone), {});
                                          });
          }
          // (not_replicated without an acquisition: nothing a replica needed was written.)
          if (outcome.status) return callback(std::move(outcome.status), {});
          if (outcome.acquired) {
            state->token = outcome.token;
            state->reconciled = reset_sent;
          }
          callback({}, AttemptResult{outcome.acquired, outcome.retry_after, outcome.ahead});
        },
        ReplicaWait::require, read);
  };
}

void LockKind::register_hold(const AcquireState& state, bool watchdog) {
  const auto& request = state.request;
  // The entry keeps this kind alive while the hold is registered, so that a shutdown can
  // release it even when the caller dropped every handle of the lock.
  const bool watched =
      holds().acquired(name, request.field, request.owner, request.lease,
                       watchdog ? &renew_script() : nullptr, shared_from_this(), state.reconciled);
  if (watched) core->service<Watchdog>().wake();
}

std::string LockKind::new_latch() const {
  constexpr std::string_view kPrefix = "redisson_unlock_latch";
  std::string latch;
  // prefix, ":{", name, "}", ':', the request id: one allocation.
  latch.reserve(kPrefix.size() + name.size() + 4 + 48);
  append_prefixed_name(latch, kPrefix, name).append(1, ':');
  append_request_id(latch);
  return latch;
}

void LockKind::undo_acquisition(const AcquireRequest& request, UniqueFunction<void(Status)> done) {
  // The hold was never registered: only the server's count is taken back.
  UnlockRequest unlock{request.owner, request.field, request.lease, new_latch(), wall_clock_ms()};
  core->eval(unlock_call(unlock, /*first=*/true),
             [self = shared_from_this(), field = request.field, done = std::move(done)](
                 std::error_code ec, const Reply&) mutable {
               // An undo that may not have run leaves a hold the registry must not trust.
               if (ec && self->reconcilable()) self->holds().reply_lost(self->name, field);
               done(errc::not_replicated);
             });
}

void LockKind::resend_unlock(const UnlockRequest& request) {
  auto again = request;
  again.wall_clock_ms = wall_clock_ms();
  core->eval(unlock_call(again, /*first=*/false), [](std::error_code, const Reply&) {});
}

void LockKind::release(OwnerId owner, Done<void> done, ReadSlot* read) {
  release_one(
      owner, [done = std::move(done)](Status status, bool) mutable { done(std::move(status)); },
      read);
}

void LockKind::release_fully(OwnerId owner, Done<void> done) {
  release_rest(owner, kMaxReleasesPerOwner, std::move(done));
}

void LockKind::release_rest(OwnerId owner, int releases_left, Done<void> done) {
  release_one(owner, [self = shared_from_this(), owner, releases_left, done = std::move(done)](
                         Status status, bool fully) mutable {
    // A release no replica acknowledged was still done: go on, and report it at the end.
    if ((status && status != errc::not_replicated) || fully) return done(std::move(status));
    if (releases_left <= 1) {
      return done(Status(make_error_code(errc::server_error),
                         "still held after " + std::to_string(kMaxReleasesPerOwner) +
                             " releases; its lease ends it"));
    }
    self->release_rest(owner, releases_left - 1,
                       [status = std::move(status), done = std::move(done)](Status rest) mutable {
                         done(rest ? std::move(rest) : std::move(status));
                       });
  });
}

void LockKind::release_one(OwnerId owner, UniqueFunction<void(Status, bool fully)> done,
                           ReadSlot* read) {
  auto request = std::make_shared<UnlockRequest>();
  request->owner = owner;
  request->field = owner_field(owner);
  request->lease = holds().newest_lease(name, request->field, core->config().lock_watchdog_timeout);
  request->latch = new_latch();
  request->wall_clock_ms = wall_clock_ms();
  // A failover may lose this unlock: sent again when the topology changes (release_replay.hpp).
  ReleaseReplay::sent(*core, name, owner,
                      [self = shared_from_this(), request] { self->resend_unlock(*request); });
  const auto sent = Clock::now();
  // The latch makes a retry of an unlock that did run return the first result instead of
  // releasing a second hold; the first send may skip reading it (it cannot exist yet).
  eval_first_then_retry(
      core, unlock_call(*request, /*first=*/true),
      [self = shared_from_this(), request] { return self->unlock_call(*request, false); },
      core->config().retry_attempts,
      [self = shared_from_this(), request, sent, done = std::move(done)](
          std::error_code ec, const Reply& reply) mutable {
        auto& holds = self->holds();
        // Done on the master, not acknowledged by a replica: released here, and the caller is
        // told (a failover now would bring the hold back until its lease ends; nobody renews it).
        Status released_status;
        if (ec == errc::not_replicated) {
          ec = {};
          released_status = Status(make_error_code(errc::not_replicated),
                                   "unlock: done on the master, but no replica acknowledged it "
                                   "within sync_replicas_timeout; a failover now would bring the "
                                   "hold back until its lease ends (do not unlock again)");
        }
        if (ec) {
          // Every attempt failed: the client cannot know whether it still holds the lock, so it
          // stops renewing it (the lease ends the hold) and the owner finds it lost().
          holds.unlock_failed(self->name, request->field);
          return done(status_of(ec, reply), false);
        }
        const auto outcome = self->read_unlock(reply);
        if (outcome.not_owner) {
          holds.not_held(self->name, request->field);
          return done(errc::not_owner, false);
        }
        holds.released(self->name, request->field, outcome.released);
        // A failover may bring back the hold this unlock ended: the owner's next acquisition
        // sets the count to what it knows instead of adding to a count it no longer has (else
        // an owner that takes the lock again before the lease ends keeps it held for good).
        if (released_status && self->reconcilable()) holds.reply_lost(self->name, request->field);
        if (outcome.released.fully && outcome.reached > 0) {
          const auto round_trip = Clock::now() - sent;
          if (!self->core->on_io_thread()) {
            // Read by its caller (ReadSlot): the yield lives on the I/O thread, and must be
            // in place before the caller hears (its next lock() looks at it).
            return asio::post(self->core->io(), [self, reached = outcome.reached, round_trip,
                                                 released_status = std::move(released_status),
                                                 done = std::move(done)]() mutable {
              self->yield_to_woken(reached, round_trip);
              done(std::move(released_status), true);
            });
          }
          self->yield_to_woken(outcome.reached, round_trip);
        }
        done(std::move(released_status), outcome.released.fully);
      },
      ReplicaWait::require, read);
}

// Runs on the I/O thread (the unlock's reply), where the subscriber and the yield live.
void LockKind::yield_to_woken(std::int64_t reached, Clock::duration round_trip) {
  // Our own subscription (lingering after a wait, or serving another of our waiters) was
  // counted too. Seen now rather than when the script ran: a linger that ended in between
  // makes us yield once for nothing (a few ms at most), a subscription confirmed in between
  // makes us skip one yield.
  const std::int64_t own = core->subscriber().confirmed(channel) ? 1 : 0;
  if (reached - own <= 0) return;
  auto& yield = core->service<ReleaseYield>();
  yield.released(channel, Clock::now() + yield.window_for(round_trip), reached - own);
}

void LockKind::complete_force_release(std::error_code ec, const Reply& reply, Done<bool> done) {
  if (ec) return done(status_of(ec, reply), false);
  const bool deleted = reply.integer == 1;
  if (deleted) holds().forget_all(name);
  done({}, deleted);
}

void LockKind::is_locked(Done<bool> done) {
  core->submit(Command{"EXISTS", name},
               [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                 done(status_of(ec, reply), !ec && reply.integer == 1);
               });
}

void LockKind::hold_count(OwnerId owner, Done<std::int64_t> done) {
  core->submit(Command{"HGET", name, owner_field(owner)},
               [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                 std::int64_t count = 0;
                 auto status = read_hold_count(ec, reply, count);
                 done(std::move(status), count);
               });
}

void LockKind::remaining_lease(Done<std::chrono::milliseconds> done) {
  core->submit(Command{"PTTL", name},
               [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                 done(status_of(ec, reply), std::chrono::milliseconds(reply.integer));
               });
}

bool LockKind::was_lost(OwnerId owner) const { return holds().was_lost(name, owner_field(owner)); }

void LockKind::hold_lost(OwnerId owner) {
  std::function<void(OwnerId)> callback;
  {
    std::lock_guard guard(mutex_);
    callback = on_lost_;
  }
  if (callback) callback(owner);
}

void LockKind::set_on_lost(std::function<void(OwnerId)> callback) {
  std::lock_guard guard(mutex_);
  on_lost_ = std::move(callback);
}

std::int64_t wall_clock_ms() noexcept {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status read_hold_count(std::error_code ec, const Reply& reply, std::int64_t& count) {
  count = 0;
  if (ec) return status_of(ec, reply);
  if (reply.is_null()) return {};
  const auto* end = reply.str.data() + reply.str.size();
  if (std::from_chars(reply.str.data(), end, count).ptr != end) {
    count = 0;
    return errc::wrong_type;  // not a lock's hash
  }
  return {};
}

}  // namespace redisson::detail
