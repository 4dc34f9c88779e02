// The unlocks this client sent in the last few seconds, sent once more when the topology changes
// (a Sentinel switch, a cluster slot moving to another master).
//
// Why: Redis replicates asynchronously. A failover may promote a replica that never received an
// unlock the old master took: a manual SENTINEL FAILOVER leaves the old master taking writes for
// about a second before clients hear of the switch, and a replica can lag. The new master then
// still has the hold, nobody renews it and nobody releases it: the lock stays taken until its
// lease ends (30 s with the watchdog) and its waiters wait that long. Without
// Config::sync_replicas nobody learns of it; with it the unlock is sent again anyway until a
// replica acknowledged it (sync/retry.hpp), so this adds nothing there but a repeat.
//
// Sent again with its request id, an unlock runs only where it was lost: the unlock scripts keep
// their result under the request latch (P(redisson_unlock_latch, n):<id>), written in the same
// script as the release and so replicated with it, and answer a repeat from the latch; where the
// hold is gone anyway they answer "not the owner" and change nothing. A lost unlock done late is
// still right for a re-entrant hold: counts commute, so when the owner took the lock again on
// the new master meanwhile, the repeat takes back the one hold the failover gave back.
//
// Bounds: an unlock is sent again only within half its latch's lifetime of its first send (a
// repeat whose latch had expired could release a hold taken since): 11 s with the default
// Config, which covers the second a failover loses with room for a slow switch. The newest
// kCapacity are kept. Only clients whose topology can change (Sentinel, Cluster) record.
// Cost per unlock there: two shared_ptr copies and a deque push under a mutex. One per client:
// ClientCore::service<UnlockReplay>().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>

#include "client/client_services.hpp"
#include "net/connection.hpp"

namespace redisson::detail {

class LockKind;
struct UnlockRequest;

class UnlockReplay : public ClientService {
 public:
  static constexpr std::size_t kCapacity = 4096;

  explicit UnlockReplay(ClientCore& core);

  /// `request` of `kind` was sent for the first time just now. Any thread.
  void sent(std::shared_ptr<LockKind> kind, std::shared_ptr<const UnlockRequest> request);
  /// Sends every unlock still within its window again. I/O thread.
  void topology_changed() override;
  /// How many unlocks were sent again so far.
  std::uint64_t resent() const;

 private:
  struct Entry {
    std::shared_ptr<LockKind> kind;
    std::shared_ptr<const UnlockRequest> request;
    Clock::time_point until;  // sent again only before this
  };

  const std::chrono::milliseconds window_;  // half the latch's lifetime
  mutable std::mutex mutex_;                // guards the two below
  std::deque<Entry> entries_;               // oldest first
  std::uint64_t resent_ = 0;
};

}  // namespace redisson::detail
