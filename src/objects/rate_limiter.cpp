// RateLimiter's operations: the scripts (objects/lua/rate_limiter_*.lua) and the waiting
// acquire, an AcquireLoop that sleeps for the delay the script returned.
#include "redisson/objects/rate_limiter.hpp"

#include <asio/error.hpp>
#include <charconv>
#include <cstdint>
#include <limits>
#include <memory>

#include "batch/batch_state.hpp"
#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "client/wall_clock.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "objects/send.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/names.hpp"
#include "sync/synchronizer.hpp"

namespace redisson::detail {
namespace {

/// KEYS of every limiter script but try_set_rate: the config, then value and permits for each
/// type (Redisson's order).
std::vector<std::string> script_keys(const ObjectState& object) {
  const auto value = suffix_name(object.name, "value");
  const auto permits = suffix_name(object.name, "permits");
  const auto& id = object.core->id();
  return {object.name, value, suffix_name(value, id), permits, suffix_name(permits, id)};
}

/// A script's status: the refusals Redisson raises as Lua errors get their own codes.
Status limiter_status(std::error_code ec, const Reply& reply) {
  auto status = status_of(ec, reply);
  if (status.code == errc::server_error) {
    if (reply.str.find("RateLimiter is not initialized") != std::string::npos) {
      status.code = make_error_code(errc::not_initialized);
    } else if (reply.str.find("cannot exceed defined rate") != std::string::npos) {
      status.code = make_error_code(errc::invalid_argument);
    }
  }
  return status;
}

void eval_limiter(const ObjectPtr& object, ScriptCall call, Done<Reply> done) {
  ReplyCallback on_reply = [done = std::move(done)](std::error_code ec, Reply reply) mutable {
    // The status first: the argument moved from could otherwise be read after the move.
    auto status = limiter_status(ec, reply);
    done(std::move(status), std::move(reply));
  };
  if (object->batch) return object->batch->add(std::move(call), std::move(on_reply));
  object->core->eval(std::move(call), std::move(on_reply));
}

void give_back(const ObjectPtr& object, const std::string& tag, std::int64_t permits) {
  object->core->eval(
      lua::rate_limiter_give_back(script_keys(*object), {tag, std::to_string(permits)}),
      [](std::error_code, const Reply&) {});
}

/// One attempt: the acquire script with the client's clock and `tag` for the entry. Completes
/// with acquired, or the delay the script asks to wait.
void attempt_acquire(const ObjectPtr& object, std::int64_t permits, const std::string& tag,
                     AttemptCallback callback) {
  object->core->eval(
      lua::rate_limiter_acquire(script_keys(*object),
                                {std::to_string(permits), std::to_string(unix_time_ms()), tag}),
      [callback = std::move(callback)](std::error_code ec, const Reply& reply) mutable {
        if (ec) return callback(limiter_status(ec, reply), {});
        if (reply.is_null()) return callback({}, AttemptResult{true});
        if (!reply.is_integer()) {
          return callback({make_error_code(errc::wrong_type),
                           "expected nil or a delay from the rate limiter script, got " +
                               reply.to_display_string()},
                          {});
        }
        // The script's delay is when the oldest acquisition leaves the window.
        const auto delay = std::max<std::int64_t>(reply.integer, 0);
        callback({}, AttemptResult{false, std::chrono::milliseconds{delay}});
      });
}

/// Completes an acquisition; a grant that raced the caller's cancel gives the permits of the
/// entry `tag` back and reports the cancel.
void finish_acquire(const ObjectPtr& object, std::int64_t permits, const std::string& tag,
                    const CancellationPtr& cancel, Status status, bool acquired, Done<bool>& done) {
  if (status || !acquired) return done(std::move(status), acquired);
  if (cancel && !keep_grant(cancel, [object, tag, permits] { give_back(object, tag, permits); })) {
    return done(make_error_code(asio::error::operation_aborted), false);
  }
  done({}, true);
}

std::optional<std::int64_t> field_integer(const Reply& hash, std::string_view field) {
  for (std::size_t i = 0; i + 1 < hash.elements.size(); i += 2) {
    if (hash.elements[i].str != field) continue;
    const auto& text = hash.elements[i + 1].str;
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return n;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> rate_limiter_keys(const std::string& name) {
  return {suffix_name(name, "value"), suffix_name(name, "permits")};
}

std::vector<std::string> rate_limiter_client_keys(const std::string& name,
                                                  const std::string& client_id) {
  return {suffix_name(suffix_name(name, "value"), client_id),
          suffix_name(suffix_name(name, "permits"), client_id)};
}

void start_rate_limiter_set_rate(const ObjectPtr& object, bool only_if_unset, RateType type,
                                 std::int64_t rate, std::chrono::milliseconds interval,
                                 std::chrono::milliseconds keep_alive, Done<Reply>& done) {
  if (rate <= 0) throw_invalid_argument("the rate must be positive");
  if (interval.count() <= 0) throw_invalid_argument("the rate interval must be positive");
  if (keep_alive.count() < 0) throw_invalid_argument("the keep-alive time must not be negative");
  if (keep_alive.count() != 0 && keep_alive < interval) {
    throw_invalid_argument("the keep-alive time must be 0 or at least the rate interval");
  }
  const std::int64_t type_code = type == RateType::per_client ? 1 : 0;
  const std::initializer_list<ScriptArg> args{rate, std::int64_t{interval.count()}, type_code,
                                              std::int64_t{keep_alive.count()}};
  if (only_if_unset) {
    return eval_reply(*object, lua::rate_limiter_try_set_rate({object->name}, args),
                      std::move(done));
  }
  const auto keys = script_keys(*object);
  eval_reply(*object,
             lua::rate_limiter_set_rate({keys[0], keys[1], keys[2], keys[3], keys[4]}, args),
             std::move(done));
}

void start_rate_limiter_acquire(const ObjectPtr& object, std::int64_t permits,
                                std::optional<std::chrono::milliseconds> wait,
                                const CancellationPtr& cancel, Done<bool> done) {
  if (object->batch) return done(batch_refusal("RateLimiter's acquire (it waits)"), false);
  if (permits < 0) return done(invalid_argument("permits must not be negative"), false);
  // The entry's permit count is a 32-bit field (struct 'I').
  if (permits > std::int64_t{std::numeric_limits<std::uint32_t>::max()}) {
    return done(invalid_argument("permits must fit in 32 bits"), false);
  }
  if (wait && wait->count() < 0) {
    return done(invalid_argument("the wait must not be negative"), false);
  }
  // One attempt (try_acquire without a wait): no loop, no timer.
  if (wait && wait->count() == 0) {
    auto tag = make_id_bytes();
    return attempt_acquire(object, permits, tag,
                           [object, permits, cancel, tag, done = std::move(done)](
                               Status status, AttemptResult result) mutable {
                             finish_acquire(object, permits, tag, cancel, std::move(status),
                                            result.acquired, done);
                           });
  }
  // The tag of the attempt that succeeded (the last one), for finish_acquire.
  auto last_tag = std::make_shared<std::string>();
  Attempt attempt = [object, permits, last_tag](AttemptCallback callback, ReadSlot* /*read*/) {
    *last_tag = make_id_bytes();  // attempts run one at a time, on the I/O thread
    attempt_acquire(object, permits, *last_tag, std::move(callback));
  };
  auto finish = [object, permits, cancel, last_tag, done = std::move(done)](Status status,
                                                                            bool acquired) mutable {
    finish_acquire(object, permits, *last_tag, cancel, std::move(status), acquired, done);
  };
  AcquireLoop::Options options;
  // No pub/sub: nothing announces freed permits; the script says when the window frees up.
  options.policy = PollPolicy{PollBackoff{.follow_hint = true}};
  if (wait) options.deadline = Clock::now() + *wait;
  AcquireLoop::start(object->core, std::move(options), std::move(attempt), std::move(finish),
                     nullptr, cancel);
}

void start_rate_limiter_available_permits(const ObjectPtr& object, Done<Reply>& done) {
  eval_limiter(
      object,
      lua::rate_limiter_available_permits(script_keys(*object), {std::to_string(unix_time_ms())}),
      std::move(done));
}

void start_rate_limiter_release(const ObjectPtr& object, std::int64_t permits, Done<Reply>& done) {
  if (permits < 0) throw_invalid_argument("release: the permits must not be negative");
  if (permits == 0) return done(Status{}, integer_reply(0));
  eval_limiter(object, lua::rate_limiter_release(script_keys(*object), {std::to_string(permits)}),
               std::move(done));
}

RateLimiterConfig rate_limiter_config_of(const Reply& reply) {
  if (!reply.is_aggregate()) throw_unexpected_reply("a hash", reply);
  const auto rate = field_integer(reply, "rate");
  const auto interval = field_integer(reply, "interval");
  const auto type = field_integer(reply, "type");
  if (!rate || !interval || !type) {
    throw error(errc::not_initialized, "RateLimiter is not initialized");
  }
  RateLimiterConfig config;
  config.type = *type == 1 ? RateType::per_client : RateType::overall;
  config.rate = *rate;
  config.interval = std::chrono::milliseconds{*interval};
  // Limiters made by Redisson before keepAliveTime existed have no such field.
  config.keep_alive = std::chrono::milliseconds{field_integer(reply, "keepAliveTime").value_or(0)};
  return config;
}

}  // namespace redisson::detail

namespace redisson {

bool RateLimiter::try_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                               std::chrono::milliseconds keep_alive) {
  return async_try_set_rate(type, rate, interval, keep_alive,
                            detail::blocking("try_set_rate", name()));
}

void RateLimiter::set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                           std::chrono::milliseconds keep_alive) {
  async_set_rate(type, rate, interval, keep_alive, detail::blocking("set_rate", name()));
}

bool RateLimiter::try_acquire(std::int64_t permits) {
  return async_try_acquire(permits, detail::blocking("try_acquire", name()));
}

void RateLimiter::acquire(std::int64_t permits) {
  async_acquire(permits, detail::blocking("acquire", name()));
}

void RateLimiter::release(std::int64_t permits) {
  async_release(permits, detail::blocking("release", name()));
}

std::int64_t RateLimiter::available_permits() {
  return async_available_permits(detail::blocking("available_permits", name()));
}

RateLimiterConfig RateLimiter::get_config() const {
  return async_get_config(detail::blocking("get_config", name()));
}

}  // namespace redisson
