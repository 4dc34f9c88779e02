// One lease-renewal service per client for every lock hold it has without an explicit lease.
//
// Every lease/3 it renews the watched entries of the client's HoldRegistry with one script call
// per renewal script (Lock's family, the read-write lock) and 500 locks, a few calls in flight at
// a time, not a timer per lock; it walks the registry a call's page at a time, so a round never
// copies every hold. On a cluster, one call per (script, hash slot), since a script may only
// touch one slot (that round takes every hold at once to group them by slot); the calls for
// different masters go out in parallel. A hold the server no
// longer has is reported once (its lock's lost callback, and Config::error_handler with
// errc::lock_lost) and dropped; it is never silently renewed into existence again. The timer
// runs only while something is watched.
//
// A thread that exits while holding (the blocking API's owner is its thread) can never unlock:
// owner_exited() stops renewing its holds, so they end with their leases as a crashed process's
// would, and reports each as lost.
//
// A service of the client (ClientCore::service<Watchdog>(), client/client_services.hpp), made
// when a lock first asks for its holds; it keeps the client's HoldRegistry. At shutdown it stops
// renewing, then releases the holds it renewed (Config::release_locks_on_shutdown,
// watchdog/release_on_shutdown.hpp), and once nothing of the client runs any more drops them.
#pragma once

#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "client/client_services.hpp"
#include "redisson/owner_id.hpp"
#include "redisson/reply.hpp"
#include "watchdog/hold_registry.hpp"

namespace redisson::detail {

class ClientCore;

class Watchdog : public ClientService, public std::enable_shared_from_this<Watchdog> {
 public:
  explicit Watchdog(ClientCore& core);

  /// The holds of this client's locks, as far as it knows. Any thread.
  HoldRegistry& holds() noexcept { return holds_; }
  /// Something is watched: starts the renewal timer unless it runs. Any thread.
  void wake();
  /// Stops renewing (shutdown). Any thread.
  void stop();
  /// The thread whose owner is `owner` exited: its holds are no longer renewed; each watched one
  /// is reported (its lost callback, Config::error_handler with errc::lock_lost). I/O thread.
  void owner_exited(OwnerId owner) override;
  /// Stops renewing; when it `can_wait`, releases the holds it renewed
  /// (Config::release_locks_on_shutdown), waiting at most the command timeout.
  void shutdown_started(bool can_wait) noexcept override;
  /// Stops renewing (again: the timer is cancelled on the I/O thread before the connections close).
  void closing() noexcept override;
  /// Drops every hold: each keeps its lock kind, which keeps the client.
  void stopped() noexcept override;

 private:
  struct Round;  // one renewal round's calls not sent yet (watchdog.cpp)
  void schedule();
  void renew_all();
  /// Moves the round's next calls from the registry to its waiting list (not a cluster: one
  /// page; a cluster: all, by slot). False when it took nothing.
  bool take_from_registry(Round& round);
  void send_next(const std::shared_ptr<Round>& round);
  void check_answers(const std::vector<HoldRegistry::Renewal>& batch, std::error_code ec,
                     const Reply& reply);

  ClientCore& core_;
  HoldRegistry holds_;
  std::chrono::milliseconds lease_;
  asio::steady_timer timer_;  // I/O thread
  std::atomic<bool> running_{false};
  std::atomic<bool> stopped_{false};
};

}  // namespace redisson::detail
