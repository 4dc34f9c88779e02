#include "redisson/semaphore.hpp"

#include <algorithm>
#include <asio/error.hpp>
#include <chrono>
#include <utility>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/own_releases.hpp"
#include "sync/retry.hpp"
#include "sync/semaphore_access.hpp"
#include "sync/synchronizer.hpp"

namespace redisson {
namespace detail {

struct SemaphoreState : SynchronizerState {
  SemaphoreState(std::shared_ptr<ClientCore> core_in, const std::string& name_in)
      : SynchronizerState(std::move(core_in), name_in, prefix_name("redisson_sc", name_in)),
        latch_prefix(prefix_name("redisson_release_latch", name)),
        acquire_latch_prefix(prefix_name("redisson_acquire_latch", name)) {}

  // channel: P(redisson_sc, n)
  const std::string latch_prefix;  // P(redisson_release_latch, n): + request id, per release
  const std::string acquire_latch_prefix;  // P(redisson_acquire_latch, n): + id, per attempt
  const std::string waiters = prefix_name("redisson_semaphore_waiters", name);
  const std::string waiters_seen = prefix_name("redisson_semaphore_waiters_seen", name);
};

// One waiting acquisition, as semaphore_try_acquire_in_turn.lua knows it.
struct SemaphoreWaiter {
  SemaphoreWaiter() { append_request_id(id); }

  std::int64_t waited_us() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count();
  }

  std::string id;
  Clock::time_point started = Clock::now();
};

// A live waiter tries at least once per re-check interval; one not seen for three of them (and
// never less than 10 s) is taken for gone.
std::int64_t waiter_gone_after_ms(const SynchronizerState& state) {
  return std::max<std::int64_t>(3 * state.recheck_interval().count(), 10'000);
}

}  // namespace detail

namespace {

using detail::Done;
using detail::Status;

Status negative(const char* what) {
  return detail::invalid_argument(std::string(what) + " must not be negative");
}

/// A fresh request-id latch under `prefix` and how long it must live (every retry of it).
std::pair<std::string, std::int64_t> new_latch(const detail::SemaphoreState& semaphore,
                                               const std::string& prefix) {
  auto latch = prefix + ":";
  detail::append_request_id(latch);
  return {std::move(latch), static_cast<std::int64_t>(
                                detail::retry_latch_lifetime(semaphore.core->config()).count())};
}

// Retried after a lost reply or a broken connection: the request-id latch makes a release that
// did run answer the retry without adding its permits twice (a permit has no lease, so a
// release given up on would be lost for good).
void release_permits(const std::shared_ptr<detail::SemaphoreState>& semaphore, std::int64_t permits,
                     Done<void> done) {
  using namespace detail;
  auto [latch, latch_ms] = new_latch(*semaphore, semaphore->latch_prefix);
  auto make = [semaphore, latch = std::move(latch), permits, latch_ms = latch_ms](bool first) {
    return lua::semaphore_release(
        {semaphore->name, semaphore->channel, latch},
        {permits, semaphore->publish_command, latch_ms, first ? "1" : "0"});
  };
  auto first = make(true);
  const auto sent = Clock::now();
  eval_first_then_retry(
      semaphore->core, std::move(first), [make = std::move(make)] { return make(false); },
      semaphore->core->config().retry_attempts,
      [semaphore, sent, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        // A positive count was published: this client's waiters started from now on have seen
        // its permits already, and let its message go by (sync/own_releases.hpp). Recorded on
        // the I/O thread ahead of anything the caller does there next (its next acquire).
        const bool ran = !ec || ec == errc::not_replicated;
        if (ran && reply.type == ReplyType::integer && reply.integer > 0) {
          semaphore->core->run_on_io([semaphore, sent, count = reply.integer, at = Clock::now()] {
            auto& core = *semaphore->core;
            core.service<OwnReleases>().published(semaphore->channel, count, sent, at,
                                                  core.subscriber().received(semaphore->channel));
          });
        }
        done(replicated_status(ec, reply, "release semaphore"));
      },
      // Not sent again when no replica acknowledged it: a new master that lost the acquisition
      // as well would gain a permit nobody took (two holders of one permit). Reported instead;
      // the permit may then be lost, and the caller knows.
      ReplicaWait::report);
}

// Undoes an acquisition where it may have happened: adds `permits` back only when the attempt's
// latch is still there (the attempt took them on this node), and deletes it, so a resend or a
// second undo adds nothing. Not waited for by the replicas: a node that never saw the acquisition
// gives back nothing.
void give_back(const std::shared_ptr<detail::SemaphoreState>& semaphore, const std::string& latch,
               std::int64_t permits, detail::ReplyCallback then) {
  using namespace detail;
  eval_with_retry(semaphore->core,
                  lua::semaphore_give_back({semaphore->name, semaphore->channel, latch},
                                           {permits, semaphore->publish_command}),
                  semaphore->core->config().retry_attempts, std::move(then));
}

}  // namespace

namespace {

void delete_semaphore(const detail::ObjectPtr& object, Done<Reply>& done) {
  detail::eval_delete(object->core, detail::lua::semaphore_delete({object->name}), done);
}

constexpr detail::ObjectHooks kSemaphore{
    .make_attached = &detail::make_synchronizer_state<detail::SemaphoreState>,
    .delete_keys = &delete_semaphore};

}  // namespace

Semaphore::Semaphore(const Client& client, std::string name)
    : detail::PermitCount(
          detail::make_object(client, std::move(name), nullptr, "semaphore", &kSemaphore)) {}

void Semaphore::start_acquire(const detail::ObjectPtr& object, std::int64_t permits,
                              std::optional<std::chrono::milliseconds> wait,
                              const detail::CancellationPtr& cancel, Done<bool> done) {
  const auto semaphore = detail::state_of<detail::SemaphoreState>(object);
  using namespace detail;
  if (permits < 0) return done(negative("permits"), false);
  if (wait && wait->count() < 0) return done(negative("the wait"), false);
  if (permits == 0) return done({}, true);
  // A waiter gets in line in the order of this library's waiters with its first attempt
  // (semaphore_try_acquire_in_turn.lua): its failed attempts say how many wait ahead, and it lets
  // releases that cannot reach it go by (AcquireMachine::message). A single try (wait 0) sends
  // Redisson's script.
  const bool in_line = !wait || wait->count() > 0;
  auto waiter = std::make_shared<SemaphoreWaiter>();
  // Each attempt is a request of its own, sent again after a lost reply: its latch tells the
  // retry whether the first send took the permits (otherwise they would be gone for good).
  Attempt attempt = [semaphore, permits, in_line, waiter](AttemptCallback callback,
                                                          ReadSlot* /*read*/) {
    auto [latch, latch_ms] = new_latch(*semaphore, semaphore->acquire_latch_prefix);
    // Kept for an undo (below); a copy, not the undo's command, which is rarely needed.
    auto taken_latch = latch;
    auto make = [semaphore, latch = std::move(latch), permits, latch_ms = latch_ms, in_line,
                 waiter](bool first) {
      if (!in_line) {
        return lua::semaphore_try_acquire({semaphore->name, latch},
                                          {permits, latch_ms, first ? "1" : "0"});
      }
      return lua::semaphore_try_acquire_in_turn(
          {semaphore->name, latch, semaphore->waiters, semaphore->waiters_seen},
          {permits, latch_ms, first ? "1" : "0", waiter->id, waiter->waited_us(),
           waiter_gone_after_ms(*semaphore)});
    };
    auto first = make(true);
    eval_first_then_retry(
        semaphore->core, std::move(first), [make = std::move(make)] { return make(false); },
        semaphore->core->config().retry_attempts,
        [semaphore, permits, taken_latch = std::move(taken_latch), callback = std::move(callback)](
            std::error_code ec, const Reply& reply) mutable {
          if (ec == errc::not_replicated && reply.type == ReplyType::integer &&
              reply.integer == 1) {
            // No replica acknowledged the permits taken: give them back and say so. Only where
            // they were taken (the latch's node): after a failover the new master never saw the
            // acquisition, and a plain release there would add permits nobody took.
            return give_back(
                semaphore, taken_latch, permits,
                [callback = std::move(callback)](std::error_code, const Reply&) mutable {
                  callback(Status(make_error_code(errc::not_replicated),
                                  "acquire semaphore: no replica acknowledged the permits taken "
                                  "within sync_replicas_timeout; they were given back"),
                           {});
                });
          }
          if (is_retryable(ec)) {
            // No send got its answer (timed out, connection lost, refused as busy), yet one of
            // them may have taken the permits. Nobody would ever release them, a permit having
            // no lease, so they are given back (best effort: the latch must still be there, and
            // it outlives the sends by about one retry interval) and the failure is reported
            // at once.
            give_back(semaphore, taken_latch, permits, [](std::error_code, const Reply&) {});
            return callback(status_of(ec, reply), {});
          }
          // (not_replicated without permits taken: a refusal, which a failover cannot undo.)
          if (ec && ec != errc::not_replicated) return callback(status_of(ec, reply), {});
          if (reply.type == ReplyType::array) {  // {0, ahead, available}: the in-turn refusal
            if (reply.elements.size() != 3) return callback(errc::protocol_error, {});
            return callback(
                {}, AttemptResult{false, std::chrono::milliseconds{-1}, reply.elements[1].integer,
                                  reply.elements[2].integer});
          }
          callback({}, AttemptResult{reply.integer == 1, std::chrono::milliseconds{-1}});
        },
        ReplicaWait::require);
  };
  // A waiter that stops waiting leaves the order (best effort, not waited for: an entry left
  // behind is dropped once it has not been seen for a while).
  auto leave_order = [semaphore, waiter] {
    for (const auto* key : {&semaphore->waiters, &semaphore->waiters_seen}) {
      semaphore->core->submit(Command{"ZREM", *key, waiter->id},
                              [](std::error_code, const Reply&) {});
    }
  };
  auto finish = [semaphore, permits, cancel, in_line, leave_order, done = std::move(done)](
                    Status status, bool acquired) mutable {
    // A waiter that failed (a lost connection, an acquisition no replica acknowledged) leaves
    // the order too, as one that gave up: the next in line need not wait for it to age out.
    if (status && in_line) leave_order();
    if (status || !acquired) return done(std::move(status), acquired);
    // A grant that raced the caller's cancel gives the permits back and reports the cancel.
    if (!keep_grant(cancel, [semaphore, permits] {
          release_permits(semaphore, permits, [](const Status&) {});
        })) {
      return done(make_error_code(asio::error::operation_aborted), false);
    }
    done({}, true);
  };
  auto options = wait_options(*semaphore, wait);
  GiveUp give_up;
  if (in_line) {
    options.policy = SemaphorePolicy{permits};
    give_up = [leave_order](UniqueFunction<void()> finished) {
      leave_order();
      finished();
    };
  }
  AcquireLoop::start(semaphore->core, std::move(options), std::move(attempt), std::move(finish),
                     std::move(give_up), cancel);
}

void Semaphore::start_release(const detail::ObjectPtr& object, std::int64_t permits,
                              Done<void> done) {
  const auto semaphore = detail::state_of<detail::SemaphoreState>(object);
  if (permits < 0) return done(negative("permits"));
  if (permits == 0) return done({});
  release_permits(semaphore, permits, std::move(done));
}

void Semaphore::start_drain_permits(const detail::ObjectPtr& object, Done<std::int64_t> done) {
  const auto semaphore = detail::state_of<detail::SemaphoreState>(object);
  using namespace detail;
  semaphore->core->eval(
      lua::semaphore_drain_permits({semaphore->name}),
      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        const bool ran = !ec || ec == errc::not_replicated;
        done(replicated_status(ec, reply, "drain_permits"), ran ? reply.integer : 0);
      },
      ReplicaWait::require);
}

void Semaphore::start_available_permits(const detail::ObjectPtr& object, Done<std::int64_t> done) {
  const auto semaphore = detail::state_of<detail::SemaphoreState>(object);
  detail::get_count(*semaphore, std::move(done));
}

void Semaphore::acquire(std::int64_t permits) {
  async_acquire(permits, detail::blocking("acquire semaphore", name()));
}

bool Semaphore::try_acquire(std::int64_t permits) {
  return try_acquire_ms(std::chrono::milliseconds{0}, permits);
}

bool Semaphore::try_acquire_ms(std::chrono::milliseconds wait, std::int64_t permits) {
  return async_acquire(permits, wait, detail::blocking("try_acquire semaphore", name()));
}

void Semaphore::release(std::int64_t permits) {
  async_release(permits, detail::blocking("release semaphore", name()));
}

std::int64_t Semaphore::drain_permits() {
  return async_drain_permits(detail::blocking("drain_permits semaphore", name()));
}

std::int64_t Semaphore::available_permits() const {
  return async_available_permits(detail::blocking("available_permits semaphore", name()));
}

}  // namespace redisson

namespace redisson::detail {

struct SemaphoreAccess {
  static void try_acquire(const std::shared_ptr<ClientCore>& core, std::string name,
                          std::int64_t permits, std::chrono::milliseconds wait, Done<bool> done) {
    auto object = std::make_shared<ObjectState>();
    object->core = core;
    object->codec = core->config().codec;
    object->name = std::move(name);
    object->kind = "semaphore";
    object->hooks = &kSemaphore;
    object->attached = kSemaphore.make_attached(*object, nullptr);
    Semaphore::start_acquire(object, permits, wait, nullptr, std::move(done));
  }
};

void start_semaphore_try_acquire(const std::shared_ptr<ClientCore>& core, std::string name,
                                 std::int64_t permits, std::chrono::milliseconds wait,
                                 Done<bool> done) {
  SemaphoreAccess::try_acquire(core, std::move(name), permits, wait, std::move(done));
}

}  // namespace redisson::detail
