// Lock's layout and scripts (Redisson's RLock): hash n { <client-id>:<owner> -> hold count },
// released on channel P(redisson_lock__channel, n). FencedLock and SpinLock keep the layout and
// override what differs.
#pragma once

#include <cstdint>

#include "sync/lock_kind.hpp"

namespace redisson::detail {

/// The acquire scripts' reply (hash and fair locks) when a non-re-entrant lock's holder asks
/// again.
inline constexpr std::int64_t kAcquireAlreadyHeld = -3;

class HashLockKind : public LockKind {
 public:
  /// `waiters_take_turns`: a waiter (an acquisition that may wait, after its first attempt)
  /// tries with lock_acquire_in_turn.lua, where a free lock goes to this library's longest
  /// waiter, instead of Redisson's first-come script. A first attempt (the uncontended path)
  /// and a single try (wait 0) keep the first-come script: it is a third cheaper on the server.
  HashLockKind(std::shared_ptr<ClientCore> core, std::string name, bool reentrant,
               bool waiters_take_turns = false);

  void force_release(Done<bool> done) override;

 protected:
  ScriptCall attempt_call(const AcquireRequest& request,
                          std::optional<std::int64_t> reset) const override;
  AttemptReply read_attempt(const Reply& reply) const override;
  ScriptCall unlock_call(const UnlockRequest& request, bool first) const override;
  UnlockReply read_unlock(const Reply& reply) const override;
  AcquireLoop::Options loop_options(const AcquireRequest& request) const override;
  GiveUp give_up(const AcquireRequest& request) const override;

  /// Latch lifetime: covers every retry of one unlock (Redisson's 16-20 s).
  std::int64_t latch_lifetime_ms() const;

 private:
  /// Whether `request` waits in the order once its first attempt failed.
  bool takes_turns(const AcquireRequest& request) const;
  /// P(redisson_lock_waiters, n): the order of waiters that take turns.
  std::string waiters_key() const;

  const bool reentrant_;
  const bool waiters_take_turns_;
};

}  // namespace redisson::detail
