// What a client does with the holds it still renews when it shuts down
// (Config::release_locks_on_shutdown): release them, so that other processes need not wait for
// the leases to end. Java Redisson only stops renewing; its locks end with lockWatchdogTimeout.
#pragma once

#include <chrono>

#include "redisson/config.hpp"
#include "watchdog/hold_registry.hpp"

namespace redisson::detail {

/// Releases every hold of `holds` that is still renewed, each fully (every re-entrant hold)
/// through its lock kind's unlock script, so that the release is published and waiters wake.
/// Waits at most `deadline` for the answers; a failure, or a release still unanswered then, goes
/// to `config`'s error_handler (that hold then ends with its lease). Holds with an explicit lease
/// are left to it. Call from a thread other than the client's I/O thread, before the connections
/// close.
void release_renewed_holds(const HoldRegistry& holds, const Config& config,
                           std::chrono::milliseconds deadline) noexcept;

}  // namespace redisson::detail
