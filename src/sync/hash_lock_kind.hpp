// Lock's layout and scripts (Redisson's RLock): hash n { <client-id>:<owner> -> hold count },
// released on channel P(redisson_lock__channel, n). FencedLock and SpinLock keep the layout and
// override what differs.
#pragma once

#include "sync/lock_kind.hpp"

namespace redisson::detail {

class HashLockKind : public LockKind {
 public:
  HashLockKind(std::shared_ptr<ClientCore> core, std::string name, bool reentrant);

  void force_release(Done<bool> done) override;

 protected:
  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> reset) const override;
  AttemptReply read_attempt(const Reply& reply) const override;
  ScriptCall unlock_call(const UnlockRequest& request, bool first) const override;
  UnlockReply read_unlock(const Reply& reply) const override;

  /// Latch lifetime: covers every retry of one unlock (Redisson's 16-20 s).
  std::int64_t latch_lifetime_ms() const;

 private:
  const bool reentrant_;
};

}  // namespace redisson::detail
