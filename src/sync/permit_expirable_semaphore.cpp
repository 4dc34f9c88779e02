#include "redisson/permit_expirable_semaphore.hpp"

#include <asio/error.hpp>
#include <charconv>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"
#include "sync/synchronizer.hpp"

namespace redisson {
namespace detail {

struct ExpirableSemaphoreState : SynchronizerState {
  ExpirableSemaphoreState(std::shared_ptr<ClientCore> core_in, const std::string& name_in)
      : SynchronizerState(std::move(core_in), name_in, prefix_name("redisson_sc", name_in)),
        timeouts(suffix_name(name, "timeout")) {}

  // channel: P(redisson_sc, n)
  const std::string timeouts;  // S(n, timeout): permit id -> expiry epoch ms
};

namespace {

using std::chrono::milliseconds;

constexpr std::int64_t kNoExpiry = PermitExpirableSemaphore::kNoExpiry;

Status bad_lease() { return invalid_argument("a lease must be positive"); }
Status bad_permit_id(const std::string& permit_id) {
  return invalid_argument("a permit id is 32 hex characters, got '" + permit_id + "'");
}

/// now + lease in epoch ms, never at or past the "no expiry" score.
std::int64_t expiry_after(std::int64_t now, milliseconds lease) {
  return lease.count() >= kNoExpiry - now ? kNoExpiry - 1 : now + lease.count();
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// A permit id as the API shows it (32 hex characters) -> the 16 bytes stored in Redis.
std::optional<std::string> permit_bytes(std::string_view id) {
  if (id.size() != 32) return std::nullopt;
  std::string bytes;
  bytes.reserve(16);
  for (std::size_t i = 0; i < id.size(); i += 2) {
    const int high = hex_digit(id[i]);
    const int low = hex_digit(id[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

ScriptCall release_call(const ExpirableSemaphoreState& semaphore, const std::string& id_bytes) {
  return lua::expirable_semaphore_release({semaphore.name, semaphore.timeouts, semaphore.channel},
                                          {id_bytes, unix_time_ms(), semaphore.publish_command});
}

/// Sends a release; retries after a lost reply. The script's reply is 1 released, 0 not
/// held, -1 expired. A retry that finds the permit gone reports 1: the lost first attempt
/// most likely released it, and either way the permit is back in the pool.
void send_release(const std::shared_ptr<ClientCore>& core, std::shared_ptr<const ScriptCall> call,
                  int attempts_left, bool retried, Done<std::int64_t> done) {
  core->eval(
      *call,
      [core, call, attempts_left, retried, done = std::move(done)](std::error_code ec,
                                                                   const Reply& reply) mutable {
        if (is_retryable(ec, ReplicaWait::require) && attempts_left > 0) {
          return send_release(core, std::move(call), attempts_left - 1, true, std::move(done));
        }
        if (ec && ec != errc::not_replicated) return done(status_of(ec, reply), 0);
        done(replicated_status(ec, reply, "release permit"),
             retried && reply.integer == 0 ? 1 : reply.integer);
      },
      ReplicaWait::require);
}

/// Releases the permit with these id bytes: completes with the script's answer (see above).
void release_bytes(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                   const std::string& id_bytes, Done<std::int64_t> done) {
  send_release(semaphore->core,
               std::make_shared<const ScriptCall>(release_call(*semaphore, id_bytes)),
               semaphore->core->config().retry_attempts, false, std::move(done));
}

void release_status(const std::shared_ptr<ExpirableSemaphoreState>& semaphore,
                    const std::string& permit_id, Done<std::int64_t> done) {
  const auto id_bytes = permit_bytes(permit_id);
  if (!id_bytes) return done(bad_permit_id(permit_id), 0);
  release_bytes(semaphore, *id_bytes, std::move(done));
}

/// The permit count in a script reply.
std::int64_t count_of(const Reply& reply) {
  if (reply.is_integer()) return reply.integer;
  std::int64_t count = 0;
  std::from_chars(reply.str.data(), reply.str.data() + reply.str.size(), count);
  return count;
}

}  // namespace

}  // namespace detail

namespace {

std::vector<std::string> timeout_key(const std::string& name) {
  return {detail::suffix_name(name, "timeout")};
}

void delete_expirable_semaphore(const detail::ObjectPtr& object, detail::Done<Reply>& done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  detail::eval_delete(
      semaphore->core,
      detail::lua::expirable_semaphore_delete({semaphore->name, semaphore->timeouts}), done);
}

constexpr detail::ObjectHooks kExpirableSemaphore{
    .extra_keys = &timeout_key,
    .make_attached = &detail::make_synchronizer_state<detail::ExpirableSemaphoreState>,
    .delete_keys = &delete_expirable_semaphore};

}  // namespace

PermitExpirableSemaphore::PermitExpirableSemaphore(const Client& client, std::string name)
    : detail::PermitCount(detail::make_object(
          client, std::move(name), nullptr, "permit-expirable semaphore", &kExpirableSemaphore)) {}

void PermitExpirableSemaphore::start_acquire(const detail::ObjectPtr& object, OptionalMs wait,
                                             OptionalMs lease,
                                             const detail::CancellationPtr& cancel,
                                             detail::Done<std::optional<std::string>> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  using namespace detail;
  if (wait && wait->count() < 0) {
    return done(invalid_argument("the wait must not be negative"), std::nullopt);
  }
  if (lease && lease->count() <= 0) return done(bad_lease(), std::nullopt);
  // One id for every attempt of this acquisition: the script treats an id it already holds
  // as acquired, so resending after a lost reply never takes two permits.
  auto id = make_request_id();
  auto id_bytes = *permit_bytes(id);

  Attempt attempt = [semaphore, id_bytes, lease](AttemptCallback callback, ReadSlot* /*read*/) {
    const auto now = unix_time_ms();
    eval_with_retry(
        semaphore->core,
        lua::expirable_semaphore_try_acquire(
            {semaphore->name, semaphore->timeouts, semaphore->channel},
            {id_bytes, lease ? expiry_after(now, *lease) : kNoExpiry, now, kNoExpiry,
             semaphore->publish_command}),
        semaphore->core->config().retry_attempts,
        [semaphore, callback = std::move(callback), id_bytes,
         recheck = semaphore->recheck_interval()](std::error_code ec, const Reply& reply) mutable {
          if (ec == errc::not_replicated && reply.is_string() && reply.str == id_bytes) {
            // No replica acknowledged the permit taken: give it back and say so. The undo does
            // not wait for the replicas (a node that never saw the permit releases nothing).
            return eval_with_retry(
                semaphore->core, release_call(*semaphore, id_bytes),
                semaphore->core->config().retry_attempts,
                [callback = std::move(callback)](std::error_code, const Reply&) mutable {
                  callback(Status(make_error_code(errc::not_replicated),
                                  "acquire permit: no replica acknowledged the "
                                  "permit taken within sync_replicas_timeout; it "
                                  "was given back"),
                           {});
                });
          }
          // (not_replicated without a permit taken: a refusal, which a failover cannot undo.)
          if (ec && ec != errc::not_replicated) return callback(status_of(ec, reply), {});
          if (reply.is_null()) return callback({}, AttemptResult{false, milliseconds{-1}});
          // Compare with the id first: random id bytes may start with ':' too.
          if (reply.is_string() && reply.str == id_bytes) {
            return callback({}, AttemptResult{true, {}});
          }
          std::int64_t nearest = 0;
          const auto* first = reply.str.data();
          const auto* last = first + reply.str.size();
          if (!reply.is_string() || reply.str.empty() || reply.str[0] != ':' ||
              std::from_chars(first + 1, last, nearest).ec != std::errc{}) {
            return callback(make_error_code(errc::protocol_error), {});
          }
          // Sleep until the nearest lease ends (then the retry reclaims it), but re-check
          // at least every re-check interval.
          const milliseconds hint{nearest - unix_time_ms()};
          callback({}, AttemptResult{false, std::clamp(hint, milliseconds{1}, recheck)});
        },
        ReplicaWait::require);
  };

  auto finish = [semaphore, id = std::move(id), id_bytes = std::move(id_bytes), cancel,
                 done = std::move(done)](Status status, bool acquired) mutable {
    if (status) {
      // The failed attempt may have run on the server: give back the permit it may
      // have taken (best effort; harmless when it was not taken). Sent again after a lost
      // reply, as any release: the fault that lost the acquisition's replies may well
      // outlast one more command timeout.
      if (is_retryable(status.code)) {
        release_bytes(semaphore, id_bytes, [](const Status&, std::int64_t) {});
      }
      return done(std::move(status), std::nullopt);
    }
    if (!acquired) return done({}, std::nullopt);
    // A grant that raced the caller's cancel gives the permit back and reports the cancel.
    if (!keep_grant(cancel, [semaphore, id_bytes] {
          release_bytes(semaphore, id_bytes, [](const Status&, std::int64_t) {});
        })) {
      return done(make_error_code(asio::error::operation_aborted), std::nullopt);
    }
    done({}, std::move(id));
  };
  AcquireLoop::start(semaphore->core, wait_options(*semaphore, wait), std::move(attempt),
                     std::move(finish), nullptr, cancel);
}

void PermitExpirableSemaphore::start_release(const detail::ObjectPtr& object,
                                             const std::string& permit_id,
                                             detail::Done<void> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  detail::release_status(
      semaphore, permit_id,
      [permit_id, done = std::move(done)](detail::Status status, std::int64_t released) mutable {
        if (!status && released != 1) {
          status = detail::Status(make_error_code(errc::not_owner),
                                  "permit " + permit_id +
                                      " is not held (never acquired, already "
                                      "released, or its lease ran out)");
        }
        done(std::move(status));
      });
}

void PermitExpirableSemaphore::start_try_release(const detail::ObjectPtr& object,
                                                 const std::string& permit_id,
                                                 detail::Done<bool> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  detail::release_status(
      semaphore, permit_id,
      [done = std::move(done)](detail::Status status, std::int64_t released) mutable {
        const bool ok = !status && released == 1;
        done(std::move(status), ok);
      });
}

void PermitExpirableSemaphore::start_update_lease(const detail::ObjectPtr& object,
                                                  const std::string& permit_id,
                                                  std::chrono::milliseconds lease,
                                                  detail::Done<bool> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  using namespace detail;
  const auto id_bytes = permit_bytes(permit_id);
  if (!id_bytes) return done(bad_permit_id(permit_id), false);
  if (lease.count() <= 0) return done(bad_lease(), false);
  const auto now = unix_time_ms();
  // Setting the same expiry twice is harmless, so a lost reply is simply resent.
  eval_with_retry(
      semaphore->core,
      lua::expirable_semaphore_update_lease(
          {semaphore->name, semaphore->timeouts, semaphore->channel},
          {*id_bytes, expiry_after(now, lease), now, semaphore->publish_command}),
      semaphore->core->config().retry_attempts,
      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        const bool ran = !ec || ec == errc::not_replicated;
        done(replicated_status(ec, reply, "update_lease"), ran && reply.integer == 1);
      },
      ReplicaWait::require);
}

// The count key has the plain semaphore's layout, so these two are the plain semaphore's too.
void PermitExpirableSemaphore::start_available_permits(const detail::ObjectPtr& object,
                                                       detail::Done<std::int64_t> done) {
  start_count_permits(object, "available", std::move(done));
}

void PermitExpirableSemaphore::start_count_permits(const detail::ObjectPtr& object,
                                                   const char* which,
                                                   detail::Done<std::int64_t> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  using namespace detail;
  semaphore->core->eval(lua::expirable_semaphore_available_permits(
                            {semaphore->name, semaphore->timeouts, semaphore->channel},
                            {std::to_string(unix_time_ms()), semaphore->publish_command, which}),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          done(status_of(ec, reply), ec ? 0 : count_of(reply));
                        });
}

void PermitExpirableSemaphore::start_set_permits(const detail::ObjectPtr& object,
                                                 std::int64_t total, detail::Done<void> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  using namespace detail;
  if (total < 0) return done(invalid_argument("set_permits: the total must not be negative"));
  // Setting the same total twice changes nothing, so a lost reply is simply resent.
  eval_with_retry(
      semaphore->core,
      lua::expirable_semaphore_set_permits(
          {semaphore->name, semaphore->timeouts, semaphore->channel},
          {std::to_string(total), semaphore->publish_command}),
      semaphore->core->config().retry_attempts,
      [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        done(replicated_status(ec, reply, "set_permits"));
      },
      ReplicaWait::require);
}

void PermitExpirableSemaphore::start_lease_time(
    const detail::ObjectPtr& object, const std::string& permit_id,
    detail::Done<std::optional<std::chrono::milliseconds>> done) {
  const auto semaphore = detail::state_of<detail::ExpirableSemaphoreState>(object);
  using namespace detail;
  const auto id_bytes = permit_bytes(permit_id);
  if (!id_bytes) return done(bad_permit_id(permit_id), std::nullopt);
  semaphore->core->eval(lua::expirable_semaphore_lease_time(
                            {semaphore->name, semaphore->timeouts, semaphore->channel},
                            {*id_bytes, std::to_string(kNoExpiry), std::to_string(unix_time_ms()),
                             semaphore->publish_command}),
                        [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                          if (ec) return done(status_of(ec, reply), std::nullopt);
                          const std::int64_t left = count_of(reply);
                          if (left == 0) return done(Status{}, std::nullopt);
                          done(Status{}, std::chrono::milliseconds{left});
                        });
}

std::string PermitExpirableSemaphore::acquire() {
  return async_acquire(std::nullopt, std::nullopt,
                       detail::blocking("acquire permit-expirable semaphore", name()))
      .value();
}

std::string PermitExpirableSemaphore::acquire(std::chrono::milliseconds lease) {
  return async_acquire(std::nullopt, lease,
                       detail::blocking("acquire permit-expirable semaphore", name()))
      .value();
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire() {
  return try_acquire_ms(std::chrono::milliseconds{0}, std::nullopt);
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire(std::chrono::milliseconds wait,
                                                                 std::chrono::milliseconds lease) {
  return try_acquire_ms(wait, lease);
}

std::optional<std::string> PermitExpirableSemaphore::try_acquire_ms(std::chrono::milliseconds wait,
                                                                    OptionalMs lease) {
  return async_acquire(wait, lease,
                       detail::blocking("try_acquire permit-expirable semaphore", name()));
}

void PermitExpirableSemaphore::release(const std::string& permit_id) {
  async_release(permit_id, detail::blocking("release permit-expirable semaphore", name()));
}

bool PermitExpirableSemaphore::try_release(const std::string& permit_id) {
  return async_try_release(permit_id,
                           detail::blocking("release permit-expirable semaphore", name()));
}

bool PermitExpirableSemaphore::update_lease(const std::string& permit_id,
                                            std::chrono::milliseconds lease) {
  return async_update_lease(permit_id, lease,
                            detail::blocking("update_lease permit-expirable semaphore", name()));
}

std::int64_t PermitExpirableSemaphore::available_permits() {
  return async_available_permits(
      detail::blocking("available_permits permit-expirable semaphore", name()));
}

std::int64_t PermitExpirableSemaphore::acquired_permits() {
  return async_acquired_permits(
      detail::blocking("acquired_permits permit-expirable semaphore", name()));
}

std::int64_t PermitExpirableSemaphore::permits() {
  return async_permits(detail::blocking("permits permit-expirable semaphore", name()));
}

void PermitExpirableSemaphore::set_permits(std::int64_t total) {
  async_set_permits(total, detail::blocking("set_permits permit-expirable semaphore", name()));
}

std::optional<std::chrono::milliseconds> PermitExpirableSemaphore::lease_time(
    const std::string& permit_id) {
  return async_lease_time(permit_id,
                          detail::blocking("lease_time permit-expirable semaphore", name()));
}

}  // namespace redisson
