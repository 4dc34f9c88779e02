// The unlocks this client sent in the last few seconds, sent once more when the topology changes
// (a Sentinel switch, a cluster slot moving to another master).
//
// Why: Redis replicates asynchronously. A failover may promote a replica that never received a
// release the old master took: a manual SENTINEL FAILOVER leaves the old master taking writes for
// about a second before clients hear of the switch, and a replica can lag. The new master then
// still has the hold, which nobody renews and nobody releases: the lock stays taken until its
// lease ends (30 s with the watchdog) and its waiters wait that long. Without
// Config::sync_replicas nobody learns of it; with it an unlock is sent again anyway until a
// replica acknowledged it (sync/retry.hpp), so this adds only a repeat.
//
// Sent again with its request id, an unlock runs only where it was lost: the unlock scripts keep
// their result under the request latch (P(redisson_unlock_latch, n):<id>), written in the same
// script as the release and so replicated with it, and answer a repeat from the latch; a hold
// that is gone anyway (the failover lost the acquisition too) answers "not the owner" and nothing
// changes, as long as its owner has not taken the lock again (below).
//
// A fair lock's repeat also takes the owner out of the queue on the new master, where the
// failover may have kept an entry of the owner's the old master had dropped (fair_lock.cpp).
//
// Not semaphore releases: a permit has no owner, so a release sent again to a new master that
// lost the acquisition as well would add a permit nobody took (two holders of a one-permit
// semaphore; the soak of 2026-12-06 saw that happen through the sync_replicas retry).
//
// Never after the owner took the lock again: a failover that lost the acquisition and the
// unlock both leaves no latch and no hold, and the owner's next acquisition makes a hold the
// repeat would then release (the owner would hold nothing while it believes it holds the lock).
// So an acquire attempt of the same owner on the same lock drops its pending repeats, and
// instead that attempt mends a hold the failover brought back: it sets the owner's hold count
// to what the client knows plus one (hold_registry.hpp, reset_count) instead of adding one.
// Without that, an owner that locked again before the repeat went out re-entered the stale hold
// (count 2), its unlock left count 1, and the lock stayed taken for a whole lease with nobody
// renewing it. (The asynchronous chaos soak saw locks come back exactly one lease after a
// switch; whether this way is not known.) Setting the count is right whatever the failover
// kept: a hold it kept is taken over, and where there is none the count set is the one adding
// would give.
// Repeats are sent under the mutex that attempt takes, so one is never sent after an attempt
// that dropped it.
//
// Bounds: an unlock is sent again only within half its latch's lifetime of its first send (a
// repeat whose latch had expired could release a hold taken since): 11 s with the default Config,
// which covers the second a failover loses with room for a slow switch.
// The newest kCapacity are kept. Only clients whose topology can change (Sentinel, Cluster)
// record. Cost there: per unlock, the callable and its key (allocations) and a deque push under
// a mutex; per acquire attempt, its key and a hash lookup under that mutex (far below the round
// trip the attempt makes). One per client: ClientCore::service<ReleaseReplay>().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "client/client_core.hpp"
#include "client/client_services.hpp"
#include "net/connection.hpp"
#include "redisson/owner_id.hpp"

namespace redisson::detail {

class ReleaseReplay : public ClientService {
 public:
  static constexpr std::size_t kCapacity = 4096;

  explicit ReleaseReplay(ClientCore& core);

  /// An unlock by `owner` of the lock `name` was sent for the first time just now; `resend`
  /// sends it again as a retry (its latch read first), ignoring the answer. Nothing when the
  /// topology cannot change; an unlock that cannot be kept (out of memory) is not sent again:
  /// the unlock itself goes on. Any thread.
  template <class Resend>
  static void sent(ClientCore& core, std::string_view name, OwnerId owner,
                   Resend&& resend) noexcept {
    if (!records(core.config())) return;
    try {
      core.service<ReleaseReplay>().keep(key_of(name, owner),
                                         std::function<void()>(std::forward<Resend>(resend)));
    } catch (...) {  // NOLINT(bugprone-empty-catch): see above
    }
  }

  /// `owner` is about to send an acquire attempt on the lock `name`: its unlocks of that lock
  /// sent so far are not sent again. Returns true when one of them was still kept to be sent
  /// again: a failover may have lost it, and the attempt must then set the owner's hold count
  /// (see "Never after the owner took the lock again" above). Any thread; call it before sending
  /// the attempt.
  static bool acquiring(ClientCore& core, std::string_view name, OwnerId owner) noexcept;

  /// Sends every unlock still within its window again. I/O thread.
  void topology_changed() override;

 private:
  /// Whether a client with `config` records its unlocks: a topology that can change.
  static bool records(const Config& config) noexcept;
  /// The lock's name and the owner: what an acquire attempt matches.
  static std::string key_of(std::string_view name, OwnerId owner);
  void keep(std::string key, std::function<void()> resend);
  /// Whether `key` had an entry not dropped yet (expired ones may count: harmless, see above).
  bool drop(const std::string& key);
  /// Pops the oldest entry. Holds mutex_.
  void pop_oldest();

  struct Entry {
    std::string key;
    std::function<void()> resend;
    Clock::time_point until;  // sent again only before this
    std::uint64_t number;     // in the order kept
  };
  /// What is known of one key with entries kept.
  struct KeyState {
    std::size_t kept = 0;             // its entries in entries_
    std::uint64_t newest = 0;         // the number of its newest entry
    std::uint64_t dropped_below = 0;  // its entries numbered below this are not sent again
  };

  const std::chrono::milliseconds window_;  // half the latch's lifetime
  std::mutex mutex_;                        // guards the members below
  std::deque<Entry> entries_;               // oldest first
  std::unordered_map<std::string, KeyState> keys_;
  std::uint64_t next_number_ = 0;
};

}  // namespace redisson::detail
