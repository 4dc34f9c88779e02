// Everything this client knows of the holds of its locks: one entry per (lock name, owner field),
// for the whole client (two handles of one lock in one thread share one server count).
//
// An entry is the stack of holds the client saw granted and not yet released, newest last, each
// with its lease and whether the watchdog renews it. From it come:
//  - the lease a partial unlock re-applies (the newest hold's);
//  - the watchdog's work: every entry with a watched hold is renewed (watchdog.hpp), with the
//    renewal script its lock kind registered;
//  - lost(): a hold the server no longer has (a renewal found it gone, an unlock was answered
//    "not the owner" or failed for good) is dropped and marked lost until the owner acquires again;
//  - the hold ledger: Redisson's layout counts re-entrant holds on the server (HINCRBY of the
//    owner's field). A hold the client never learnt of (an acquisition whose reply was lost, or an
//    unlock a failover forgot) would stay in that count, and every re-entry would renew it, so
//    nobody else would get the lock while the owner kept using it. Such a pair is marked
//    uncertain, and its next acquisition sets the server's count to what the client knows plus
//    one (reset_count()) instead of adding one;
//  - the end of an owner: a thread that exits while holding (owner_exited(): its holds are no
//    longer renewed, so their leases end them), and a client that shuts down (renewed_holds():
//    what it releases, each with its lock kind's full release).
//
// Limitation: an owner must not acquire one lock from two places at once (the blocking API's owner
// is its thread, so this binds only async callers with explicit owners): an acquisition in flight
// is not counted until its reply arrives.
//
// Threading: every method may be called from any thread; callbacks are never run under the lock.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/detail/status.hpp"
#include "redisson/owner_id.hpp"

namespace redisson::detail {

class ScriptDef;

class HoldRegistry {
 public:
  /// Runs (once) when the hold's entry is found gone by a renewal.
  using LostCallback = std::function<void()>;
  /// Releases every hold of the entry's owner on the server (all re-entrant holds), publishing
  /// the release as an unlock does.
  using ReleaseAll = std::function<void(Done<void>)>;

  /// The lock an entry's holds belong to (its lock kind), as the registry reaches it. An entry
  /// keeps it alive, so that a shutdown can release the hold when every handle is gone; one
  /// pointer per entry instead of two callbacks (a client may hold 100,000 locks).
  class HeldLock {
   public:
    /// The hold of `owner` was lost: the lock's lost callback. Never throws.
    virtual void hold_lost(OwnerId owner) = 0;
    /// Releases every hold of `owner` (ReleaseAll).
    virtual void release_all(OwnerId owner, Done<void> done) = 0;

   protected:
    ~HeldLock() = default;
  };

  /// How an unlock of one hold was answered.
  struct Released {
    bool fully = false;                ///< the owner holds nothing any more
    std::optional<std::int64_t> left;  ///< holds the server says remain, when it says
  };

  /// One entry's renewal, as the watchdog sends it.
  struct Renewal {
    const ScriptDef* script;
    std::string name;
    std::string field;
    std::uint64_t registration;  ///< tells this entry's answer from a later re-registration
  };

  /// A watched hold whose owner is gone (owner_exited()).
  struct Abandoned {
    std::string name;
    std::string field;
    LostCallback on_lost;
  };

  /// A watched hold, with the way to release it (renewed_holds()).
  struct Held {
    std::string name;
    std::string field;
    ReleaseAll release_all;
  };

  /// An acquisition by `owner` (whose hash field is `field`) succeeded: one more hold of `lease`.
  /// `renew` (null: a fixed lease) is the script the watchdog renews it with; `held` (may be
  /// null) replaces the entry's lock. `reconciled`: it was sent with reset_count(), so the server
  /// now counts what we know. Returns true when the entry is now renewed by the watchdog.
  bool acquired(std::string_view name, std::string_view field, OwnerId owner,
                std::chrono::milliseconds lease, const ScriptDef* renew,
                std::shared_ptr<HeldLock> held, bool reconciled);
  /// An unlock was answered. Holds go newest first.
  void released(std::string_view name, std::string_view field, Released outcome);
  /// The server says the owner holds nothing (an unlock answered "not the owner"). Returns true
  /// when the client believed it held something: the hold was lost (and is marked so).
  bool not_held(std::string_view name, std::string_view field);
  /// An unlock failed for good (its reply never came): the hold is no longer renewed, so it ends
  /// with its lease; it is marked lost and uncertain.
  void unlock_failed(std::string_view name, std::string_view field);
  /// An acquisition may have run but its reply was lost.
  void reply_lost(std::string_view name, std::string_view field);
  /// A forced unlock deleted the lock: nobody in this client holds it.
  void forget_all(std::string_view name);
  /// `owner` (a thread) exited: every entry of it is dropped, so nothing of it is renewed any
  /// more and its holds end with their leases. Returns the watched ones, marked lost.
  std::vector<Abandoned> owner_exited(OwnerId owner);

  /// The count an acquisition of (name, field) must set when it succeeds, or nullopt to
  /// increment the server's count as usual. `unlocked_lately`: an unlock of this pair may have
  /// been lost by a failover (sync/release_replay.hpp): the count is set then too.
  std::optional<std::int64_t> reset_count(std::string_view name, std::string_view field,
                                          bool unlocked_lately = false) const;
  /// The lease an unlock re-applies while holds remain: the newest hold's, else `otherwise`.
  std::chrono::milliseconds newest_lease(std::string_view name, std::string_view field,
                                         std::chrono::milliseconds otherwise) const;
  /// True once the pair's hold was lost, until it acquires again.
  bool was_lost(std::string_view name, std::string_view field) const;

  /// What the watchdog renews now.
  std::vector<Renewal> renewals() const;
  /// Up to `limit` of what the watchdog renews now, in the registry's order, after the pair
  /// (`after_name`, `after_field`) (nullptr: from the first). A round walks the registry a page
  /// at a time with it, so a client holding 100,000 locks never copies them all at once (glibc
  /// keeps such a peak: RSS per held lock grew by ~400 B after the first rounds).
  std::vector<Renewal> renewals_after(const Renewal* after, std::size_t limit) const;
  /// A renewal answered that the entry is gone: drops it, marks it lost and returns its lost
  /// callback (possibly empty), or nullopt when it was unlocked or acquired again since the
  /// renewal was sent (the answer is stale).
  std::optional<LostCallback> renewal_found_gone(const Renewal& renewal);

  /// Entries with a watched hold (tests and `inspect`).
  std::size_t watched() const;
  /// Holds the client knows of for the pair (tests; a re-entering acquisition never yields).
  std::int64_t known(std::string_view name, std::string_view field) const;
  /// The watched holds, for a shutdown that releases them.
  std::vector<Held> renewed_holds() const;
  /// Stops everything (client shutdown): no renewals, no callbacks. lost() answers stay.
  void clear();

 private:
  struct Hold {
    std::chrono::milliseconds lease;
    bool watched;
  };
  struct Entry {
    std::vector<Hold> holds;  // newest last
    const ScriptDef* renew = nullptr;
    std::shared_ptr<HeldLock> lock;
    OwnerId owner;
    std::uint64_t registration = 0;
    bool uncertain = false;
    bool watched() const;
  };
  struct Key {
    std::string name, field;
  };
  struct KeyView {
    std::string_view name, field;
  };
  // Orders Keys and KeyViews alike, so lookups (one per acquisition and unlock) build no string.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      const std::string_view a_name = a.name, b_name = b.name;
      if (a_name != b_name) return a_name < b_name;
      return std::string_view(a.field) < std::string_view(b.field);
    }
  };
  Entry& entry_locked(std::string_view name, std::string_view field);
  void erase_if_idle_locked(std::map<Key, Entry, KeyLess>::iterator it);
  void mark_lost_locked(std::string_view name, std::string_view field);

  mutable std::mutex mutex_;
  std::map<Key, Entry, KeyLess> entries_;  // pairs with holds, or uncertain ones
  std::set<Key, KeyLess> lost_;
  std::uint64_t next_registration_ = 1;
};

}  // namespace redisson::detail
