#include "sync/synchronizer.hpp"

#include <charconv>

#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "redisson/detail/synchronizer_base.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

SynchronizerState::SynchronizerState(std::shared_ptr<ClientCore> core_in, std::string name_in,
                                     std::string channel_in)
    : core(std::move(core_in)),
      name(std::move(name_in)),
      channel(std::move(channel_in)),
      publish_command(core->publish_command()) {}

void SynchronizerState::set_recheck_interval(std::chrono::milliseconds interval, const char* kind) {
  if (interval.count() <= 0) {
    throw error(errc::invalid_argument,
                std::string(kind) + " '" + name + "': the re-check interval must be positive");
  }
  recheck_ms = interval.count();
}

Status invalid_argument(std::string reason) {
  return {make_error_code(errc::invalid_argument), std::move(reason)};
}

std::error_code parse_count(const Reply& reply, std::int64_t& count) {
  count = 0;
  if (reply.is_null()) return {};
  const auto& text = reply.str;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (!reply.is_string() || ec != std::errc{} || end != text.data() + text.size()) {
    return make_error_code(errc::wrong_type);
  }
  return {};
}

void get_count(const SynchronizerState& state, Done<std::int64_t> done) {
  state.core->submit(Command{"GET", state.name},
                     [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                       if (ec) return done(status_of(ec, reply), 0);
                       std::int64_t count = 0;
                       Status status = parse_count(reply, count);
                       done(std::move(status), count);
                     });
}

Status replicated_status(std::error_code ec, const Reply& reply, std::string_view what) {
  if (ec != errc::not_replicated) return status_of(ec, reply);
  return {ec, std::string(what) +
                  ": done on the master, but no replica acknowledged it within "
                  "sync_replicas_timeout; a failover now would lose it (do not repeat it)"};
}

void eval_status(const std::shared_ptr<ClientCore>& core, ScriptCall call, std::string_view what,
                 Done<void> done) {
  core->eval(
      std::move(call),
      [what, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        done(replicated_status(ec, reply, what));
      },
      ReplicaWait::require);
}

void eval_delete(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply>& done) {
  core->eval(std::move(call),
             [done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
               done(status_of(ec, reply), reply);
             });
}

void eval_flag(const std::shared_ptr<ClientCore>& core, ScriptCall call, std::string_view what,
               Done<bool> done) {
  core->eval(
      std::move(call),
      [what, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
        const bool ran = !ec || ec == errc::not_replicated;
        done(replicated_status(ec, reply, what), ran && reply.integer == 1);
      },
      ReplicaWait::require);
}

AcquireLoop::Options wait_options(const SynchronizerState& state,
                                  std::optional<std::chrono::milliseconds> wait) {
  AcquireLoop::Options options;
  options.channel = state.channel;
  options.policy = LatchPolicy{};
  options.unknown_hint = state.recheck_interval();
  if (wait) options.deadline = Clock::now() + *wait;
  return options;
}

bool keep_grant(const CancellationPtr& cancel, const std::function<void()>& give_back) {
  if (!cancel) return true;
  if (cancel->requested()) {
    give_back();
    return false;
  }
  cancel->on_success_undo([give_back] { give_back(); });
  return true;
}

void try_set_permits(const SynchronizerState& semaphore, std::int64_t permits, Done<bool> done) {
  if (permits < 0) return done(invalid_argument("permits must not be negative"), false);
  eval_flag(semaphore.core,
            lua::semaphore_try_set_permits({semaphore.name, semaphore.channel},
                                           {permits, semaphore.publish_command}),
            "try_set_permits", std::move(done));
}

void add_permits(const SynchronizerState& semaphore, std::int64_t delta, Done<void> done) {
  eval_status(semaphore.core,
              lua::semaphore_add_permits({semaphore.name, semaphore.channel},
                                         {delta, semaphore.publish_command}),
              "add_permits", std::move(done));
}

}  // namespace redisson::detail

namespace redisson::detail {

void Synchronizer::set_recheck_interval(std::chrono::milliseconds interval) {
  state_of(object_)->set_recheck_interval(interval, "synchronizer");
}

std::chrono::milliseconds Synchronizer::recheck_interval() const noexcept {
  return state_of(object_)->recheck_interval();
}

bool PermitCount::try_set_permits(std::int64_t permits) {
  return async_try_set_permits(permits, blocking("try_set_permits", name()));
}

void PermitCount::add_permits(std::int64_t delta) {
  async_add_permits(delta, blocking("add_permits", name()));
}

void PermitCount::start_try_set_permits(const ObjectPtr& object, std::int64_t permits,
                                        Done<bool> done) {
  detail::try_set_permits(*state_of(object), permits, std::move(done));
}

void PermitCount::start_add_permits(const ObjectPtr& object, std::int64_t delta, Done<void> done) {
  detail::add_permits(*state_of(object), delta, std::move(done));
}

}  // namespace redisson::detail
