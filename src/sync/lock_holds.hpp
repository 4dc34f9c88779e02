// Bookkeeping shared by the locks that keep Lock's hash layout (FairLock, FencedLock, SpinLock)
// but acquire or release with scripts of their own: what happens after an acquisition
// succeeded and after an unlock script answered.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <system_error>

#include "redisson/lock.hpp"
#include "redisson/reply.hpp"
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

/// Completes an unlock from its script's reply: nil = not the owner (errc::not_owner),
/// 0 = one hold released, 1 = fully released; updates the watchdog and lease bookkeeping.
void complete_release(const std::shared_ptr<LockState>& lock, std::uint64_t owner,
                      std::error_code ec, const Reply& reply, VoidCallback done);

/// The client's wall-clock time in epoch milliseconds (fair-lock deadlines use it).
std::int64_t wall_clock_ms() noexcept;

}  // namespace redisson::detail
