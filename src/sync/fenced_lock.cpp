#include "redisson/fenced_lock.hpp"

#include <charconv>

#include "client/client_access.hpp"
#include "lua_scripts.hpp"
#include "net/reply_error.hpp"
#include "sync/hash_lock_kind.hpp"
#include "sync/names.hpp"

namespace redisson {
namespace detail {
namespace {

std::string token_key_of(const std::string& name) {
  return prefix_name("redisson_lock_token", name);
}

// Lock's layout, acquired with a script that also INCRs the token counter.
class FencedLockKind final : public HashLockKind {
 public:
  FencedLockKind(std::shared_ptr<ClientCore> core, std::string name)
      : HashLockKind(std::move(core), std::move(name), /*reentrant=*/true),
        token_key(token_key_of(this->name)) {}

  const std::string token_key;

 protected:
  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> reset) const override {
    auto call = lua::fenced_lock_acquire(
        {name, token_key}, {static_cast<std::int64_t>(request.lease.count()), request.field});
    if (reset) call.command.arg(*reset);
    return call;
  }
  // {1, token} when acquired; {0, pttl} otherwise.
  AttemptReply read_attempt(const Reply& reply) const override {
    if (reply.elements.size() != 2) return AttemptReply{errc::protocol_error};
    if (reply.elements[0].integer == 1) {
      return AttemptReply{{}, true, std::chrono::milliseconds{-1}, reply.elements[1].integer};
    }
    return AttemptReply{{}, false, std::chrono::milliseconds(reply.elements[1].integer)};
  }
};

}  // namespace
}  // namespace detail

FencedLock::FencedLock(const Client& client, std::string name)
    : BasicLock(std::make_shared<detail::FencedLockKind>(detail::ClientAccess::core(client),
                                                         std::move(name))),
      token_key_(detail::token_key_of(this->name())) {}

std::int64_t FencedLock::lock_and_get_token() {
  return *async_try_lock_and_get_token(OwnerId::current_thread(), std::nullopt, std::nullopt,
                                       detail::blocking("lock", name()));
}

std::int64_t FencedLock::lock_and_get_token(milliseconds lease) {
  return *async_try_lock_and_get_token(OwnerId::current_thread(), std::nullopt, lease,
                                       detail::blocking("lock", name()));
}

std::optional<std::int64_t> FencedLock::try_lock_token_ms(milliseconds wait,
                                                          std::optional<milliseconds> lease) {
  return async_try_lock_and_get_token(OwnerId::current_thread(), wait, lease,
                                      detail::blocking("try_lock", name()));
}

std::int64_t FencedLock::token() const {
  return detail::async_op<std::int64_t>(
      core(), detail::blocking("token", name()),
      [core = core(), key = token_key_](detail::Done<std::int64_t> done) {
        core->submit(Command{"GET", key},
                     [key, done = std::move(done)](std::error_code ec, const Reply& reply) mutable {
                       if (ec) return done(detail::status_of(ec, reply), 0);
                       if (reply.is_null()) return done({}, 0);
                       std::int64_t token = 0;
                       const auto* end = reply.str.data() + reply.str.size();
                       if (std::from_chars(reply.str.data(), end, token).ptr != end) {
                         return done(detail::Status(make_error_code(errc::wrong_type),
                                                    key + " does not hold an integer"),
                                     0);
                       }
                       done({}, token);
                     });
      });
}

}  // namespace redisson
