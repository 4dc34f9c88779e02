// Bookkeeping shared by the locks that keep Lock's hash layout (FairLock, FencedLock, SpinLock)
// but acquire or release with scripts of their own: what happens after an acquisition
// succeeded and after an unlock script answered.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "redisson/detail/unique_function.hpp"
#include "redisson/lock.hpp"
#include "redisson/reply.hpp"
#include "sync/acquire_loop.hpp"
#include "sync/lock_state.hpp"

namespace redisson::detail {

/// invalid_argument for a negative wait or a lease that is not positive; success otherwise.
std::error_code check_acquire_arguments(std::optional<std::chrono::milliseconds> wait,
                                        std::optional<std::chrono::milliseconds> lease);

/// After an acquisition: remembers `owner`'s lease (re-applied by partial unlocks) and, when the
/// lease is the watchdog's, registers the hold for renewal (lock_renew_script(), so the hash
/// layout must be Lock's). Call it on the I/O thread before anyone learns of the hold, so no
/// renewal round can miss it.
void register_hold(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                   std::chrono::milliseconds lease, bool watchdog);
/// The same, with `owner`'s field already at hand (lock->owner_field(owner)).
void register_hold(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                   const std::string& field, std::chrono::milliseconds lease, bool watchdog);

/// Completes an unlock from its script's reply: nil = not the owner (errc::not_owner),
/// 0 = one hold released, 1 = fully released; updates the watchdog and lease bookkeeping.
void complete_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::error_code ec, const Reply& reply, VoidCallback done);

/// Config::sync_replicas: takes back the one hold that `owner` just acquired on a lock with
/// Lock's hash layout and that no replica acknowledged (Lock's unlock script, no watchdog or
/// lease bookkeeping: the hold was never registered), then calls `done` with
/// errc::not_replicated. If the undo itself fails, the hold expires with its lease.
void undo_acquisition(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::chrono::milliseconds lease, UniqueFunction<void(std::error_code)> done);

/// What the acquire script of (lock, field) must be told so that it sets the owner's hold count
/// instead of adding one (watchdog/hold_ledger.hpp), or nullopt: the usual increment.
std::optional<std::int64_t> reset_count(const LockState& lock, std::string_view field);

/// Tells the client's hold ledger how an acquire attempt ended: a lost reply (the script may
/// have run), or an acquisition sent with reset_count() that succeeded.
void note_attempt(const LockState& lock, std::uint64_t owner, std::error_code ec, bool acquired,
                  bool reset_sent);

/// One try of Lock's acquire script (re-entrant or not, as the lock is) for `owner`, whose
/// field is `field`, as the AcquireLoop wants it; shared by Lock and SpinLock, which differ only
/// in how they wait between tries.
Attempt make_acquire_attempt(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                             std::string field, std::chrono::milliseconds lease);

/// The client's wall-clock time in epoch milliseconds (fair-lock deadlines use it).
std::int64_t wall_clock_ms() noexcept;

}  // namespace redisson::detail
