#include "redisson/spin_lock.hpp"

#include "client/client_access.hpp"
#include "lua_scripts.hpp"
#include "sync/hash_lock_kind.hpp"

namespace redisson {
namespace detail {
namespace {

// Lock's acquire script; the spin lock differs in how it waits, publishes nothing on unlock, and
// is forced open with a plain DEL (nobody listens for it).
class SpinLockKind final : public HashLockKind {
 public:
  SpinLockKind(std::shared_ptr<ClientCore> core, std::string name)
      : HashLockKind(std::move(core), std::move(name), /*reentrant=*/true) {}

  void force_release(Done<bool> done) override {
    core->submit(Command{"DEL", name}, [self = shared_from_this(), done = std::move(done)](
                                           std::error_code ec, const Reply& reply) mutable {
      static_cast<SpinLockKind&>(*self).complete_force_release(ec, reply, std::move(done));
    });
  }

 protected:
  AcquireLoop::Options loop_options(const AcquireRequest&) const override {
    AcquireLoop::Options options;
    options.policy = PollPolicy{};
    return options;
  }
  ScriptCall unlock_call(const UnlockRequest& request, bool first) const override {
    return lua::spin_lock_unlock({name, request.latch},
                                 {static_cast<std::int64_t>(request.lease.count()), request.field,
                                  latch_lifetime_ms(), first ? "1" : "0"});
  }
};

}  // namespace
}  // namespace detail

SpinLock::SpinLock(const Client& client, std::string name)
    : BasicLock(std::make_shared<detail::SpinLockKind>(detail::ClientAccess::core(client),
                                                       std::move(name))) {}

}  // namespace redisson
