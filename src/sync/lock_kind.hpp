// What a lock of the family (Lock, FairLock, FencedLock, SpinLock, the two sides of a
// ReadWriteLock) is to the library. The flow they share is written once, here:
//
//   acquire: check the arguments, try the kind's acquire script in an AcquireLoop (waiting on
//            pub/sub, or polling), set the server's count when the hold registry says it may be
//            off, undo an acquisition no replica acknowledged (Config::sync_replicas), register
//            the hold (lease, watchdog), give back a grant the caller cancelled;
//   release: the kind's unlock script with a latch (safe to retry after a lost reply), then the
//            registry: released, lost ("not the owner" while the client knew of holds), or no
//            longer renewed when every attempt failed.
//
// A kind supplies only its scripts and how to read their replies (the virtual hooks below).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "client/client_core.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/owner_id.hpp"
#include "script/script_def.hpp"
#include "sync/acquire_loop.hpp"
#include "watchdog/hold_registry.hpp"

namespace redisson::detail {

using OptionalMs = std::optional<std::chrono::milliseconds>;

/// One acquisition, as the hooks see it.
struct AcquireRequest {
  OwnerId owner;
  std::string field;                ///< the owner's hash field
  std::chrono::milliseconds lease;  ///< the lease sent (the watchdog's when none was given)
  /// absent: wait forever; zero: one attempt. Never negative: acquire() refuses that
  /// (errc::invalid_argument) before a request is made.
  OptionalMs wait;
  Clock::time_point started;  ///< when the caller asked: a waiter's age (lock_acquire_in_turn.lua)
  int attempts_sent = 0;      ///< attempts before this one (0: the first)
  /// An unlock of this owner on this lock was still kept to be sent again when an attempt went
  /// out (ReleaseReplay::acquiring): every attempt sets the hold count.
  bool unlocked_lately = false;
};

/// How one acquire attempt went.
struct AttemptReply {
  Status status;  ///< e.g. already_held, protocol_error
  bool acquired = false;
  std::chrono::milliseconds retry_after{-1};  ///< negative: unknown
  std::int64_t token = 0;                     ///< a fencing token, when the kind has them
  std::int64_t ahead = -1;                    ///< AttemptResult::ahead
};

/// One unlock (its first send and any retry), as the hooks see it.
struct UnlockRequest {
  OwnerId owner;
  std::string field;
  std::chrono::milliseconds lease;  ///< re-applied while holds remain
  std::string latch;                ///< P(redisson_unlock_latch, n):<request id>
  std::int64_t wall_clock_ms;       ///< read once, so a retry sends the same time
};

/// How an unlock was answered.
struct UnlockReply {
  bool not_owner = false;
  HoldRegistry::Released released;
  /// On a full release, how many subscribers the release message reached (the publish
  /// command's answer), this client's own subscription among them; 0 when the kind's script
  /// does not say (only a non-fair Lock's does: see release_yield.hpp).
  std::int64_t reached = 0;
};

class LockKind : public std::enable_shared_from_this<LockKind>, public HoldRegistry::HeldLock {
 public:
  /// Releases are published on P(channel_prefix, name). Throws invalid_argument for an empty
  /// name.
  LockKind(std::shared_ptr<ClientCore> core, std::string name, std::string_view channel_prefix);
  virtual ~LockKind() = default;
  LockKind(const LockKind&) = delete;
  LockKind& operator=(const LockKind&) = delete;

  /// Acquires for `owner`; completes with the fencing token (0 for kinds without one), or
  /// nullopt when the wait ran out. `lease` absent: the watchdog's lease, renewed.
  /// `read`: a blocking caller's slot (redisson/detail/read_slot.hpp), which the first attempt
  /// carries when the caller sends it itself.
  void acquire(OwnerId owner, OptionalMs wait, OptionalMs lease, CancellationPtr cancel,
               Done<std::optional<std::int64_t>> done, ReadSlot* read = nullptr);
  /// Releases one hold of `owner`; not_owner when it holds none. `read`: as acquire's, carried
  /// by the first send of the unlock.
  void release(OwnerId owner, Done<void> done, ReadSlot* read = nullptr);
  /// Releases every hold of `owner` (each re-entrant hold, one unlock each, so every release
  /// goes through the kind's unlock script and the last one publishes); not_owner when it held
  /// none. Used when a client shuts down holding locks.
  void release_fully(OwnerId owner, Done<void> done);
  /// Deletes the lock whoever holds it and wakes waiters; true if it was held.
  virtual void force_release(Done<bool> done) = 0;
  /// Sends `request`, an unlock already sent, once more as a retry (its latch answers if it
  /// ran), now as its time: sync/release_replay.hpp. The answer changes nothing here. A kind
  /// with more to mend on a new master sends that too (FairLock: the owner's queue entry).
  virtual void resend_unlock(const UnlockRequest& request);

  /// Whether anyone holds it.
  virtual void is_locked(Done<bool> done);
  /// The holds `owner` has (0 when none).
  void hold_count(OwnerId owner, Done<std::int64_t> done);
  /// PTTL of the lock: -2 ms when not locked, -1 ms when it has no expiry.
  void remaining_lease(Done<std::chrono::milliseconds> done);

  /// The field this lock writes for `owner`: "<client-id>:<owner>".
  virtual std::string owner_field(OwnerId owner) const;
  /// How messages name this kind: "lock", "read lock", ...
  virtual const char* kind_name() const noexcept { return "lock"; }
  bool was_lost(OwnerId owner) const;
  void set_on_lost(std::function<void(OwnerId)> callback);

  // ---- what the hold registry keeps of a held lock --------------------------------------
  /// Runs the lost callback (set_on_lost) for `owner`.
  void hold_lost(OwnerId owner) override;
  /// release_fully().
  void release_all(OwnerId owner, Done<void> done) override {
    release_fully(owner, std::move(done));
  }

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;  ///< where releases are published (a fair lock's prefix)
  const std::string publish_command;

 protected:
  // ---- the kind's hooks -----------------------------------------------------------------
  /// The acquire script for one attempt; `reset`: the hold count to set (hold_registry.hpp).
  virtual ScriptCall attempt_call(const AcquireRequest& request,
                                  std::optional<std::int64_t> reset) const = 0;
  virtual AttemptReply read_attempt(const Reply& reply) const = 0;
  virtual ScriptCall unlock_call(const UnlockRequest& request, bool first) const = 0;
  virtual UnlockReply read_unlock(const Reply& reply) const = 0;
  /// How a waiter waits: the channel to listen on, or polling.
  virtual AcquireLoop::Options loop_options(const AcquireRequest& request) const;
  /// What a waiter does when it stops waiting without the lock (a fair waiter leaves the queue).
  virtual GiveUp give_up(const AcquireRequest& /*request*/) const { return nullptr; }
  /// The watchdog's renewal script for this kind's holds.
  virtual const ScriptDef& renew_script() const;
  /// Whether an acquisition may set the owner's count (false for read holds, which keep a
  /// timeout key per hold that a count set at once would strand).
  virtual bool reconcilable() const { return true; }

  /// Completes a forced unlock from its reply (1 = deleted) and forgets the client's holds.
  void complete_force_release(std::error_code ec, const Reply& reply, Done<bool> done);

 private:
  struct AcquireState;
  /// The client's hold registry (the watchdog's).
  HoldRegistry& holds() const;
  Attempt make_attempt(const std::shared_ptr<AcquireState>& state);
  void undo_acquisition(const AcquireRequest& request, UniqueFunction<void(Status)> done);
  void register_hold(const AcquireState& state, bool watchdog);
  /// A new unlock latch: P(redisson_unlock_latch, n):<request id>. Built per unlock rather than
  /// from a kept prefix: a client may hold 100,000 locks, and the prefix cost each ~100 bytes.
  std::string new_latch() const;
  /// release(), telling the caller also whether the owner now holds nothing.
  void release_one(OwnerId owner, UniqueFunction<void(Status, bool fully)> done,
                   ReadSlot* read = nullptr);
  void release_rest(OwnerId owner, int releases_left, Done<void> done);
  /// After a full release whose message reached `reached` subscribers: when some were other
  /// clients' waiters, this client's next acquisition holds back (release_yield.hpp).
  void yield_to_woken(std::int64_t reached, Clock::duration round_trip);

  mutable std::mutex mutex_;
  std::function<void(OwnerId)> on_lost_;  // guarded by mutex_
};

/// The client's wall-clock time in epoch milliseconds (fair-lock deadlines use it).
std::int64_t wall_clock_ms() noexcept;

/// The hold count in an HGET reply (nil: 0); errc::wrong_type when it is not a number.
Status read_hold_count(std::error_code ec, const Reply& reply, std::int64_t& count);

}  // namespace redisson::detail
