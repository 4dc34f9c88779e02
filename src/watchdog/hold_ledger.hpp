// What this client knows each (lock, owner) holds, and whether the server may hold more.
//
// Why: Redisson's lock layout counts re-entrant holds on the server (HINCRBY of the owner's
// field). A hold the client never learnt of stays in that count: an acquisition whose reply was
// lost (a timeout, a reset connection), or, in a failover, an unlock the old master took and the
// promoted replica never received. Before, the owner's next acquisition re-entered it (count 2,
// the client knowing of 1), every unlock left one hold behind, and every re-entry renewed its
// lease: as long as that thread kept using the lock nobody else ever got it (found by
// `make chaos`: one worker took the fair lock for 10 s while seven others timed out waiting).
//
// So the ledger counts the holds the client saw granted and not yet released, per lock name and
// owner field, for the whole client (two Lock objects of one name in one thread share the
// server's count). A lost acquisition reply, or an unlock the server answers "still held" while
// the ledger says that was the last hold, marks the pair uncertain; the next acquisition of
// that pair then sets the server's count to what the client knows plus one (reset_count())
// instead of incrementing it, and the hold the client never knew of is gone. Nothing changes
// while the pair is certain, which is the common path.
//
// Limitation: an owner id must not acquire one lock from two places at once (the synchronous
// API's owner is the calling thread, so this is only a rule for async callers with explicit
// owner ids): an acquisition in flight is not counted until its reply arrives.
//
// Threading: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace redisson::detail {

class HoldLedger {
 public:
  /// The count an acquisition of (name, field) must set when it succeeds, or nullopt to
  /// increment the server's count as usual.
  std::optional<std::int64_t> reset_count(std::string_view name, std::string_view field) const;

  /// An acquisition succeeded.
  void acquired(std::string_view name, std::string_view field);
  /// An acquisition sent with reset_count() succeeded: the server counts what the client knows.
  void reconciled(std::string_view name, std::string_view field);
  /// An acquisition may have run but its reply was lost.
  void reply_lost(std::string_view name, std::string_view field);
  /// An unlock answered: `fully` when the key was deleted, else one hold was released and the
  /// owner still holds the lock.
  void released(std::string_view name, std::string_view field, bool fully);
  /// The server says the owner holds nothing (an unlock answered "not the owner", the lock was
  /// lost, or a forced unlock deleted it).
  void forget(std::string_view name, std::string_view field);
  /// A forced unlock deleted the lock: nobody in this client holds it.
  void forget_all(std::string_view name);

  /// The holds the ledger knows of (tests).
  std::int64_t known(std::string_view name, std::string_view field) const;

 private:
  struct Entry {
    std::int64_t held = 0;
    bool uncertain = false;
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

  mutable std::mutex mutex_;
  std::map<Key, Entry, KeyLess> entries_;  // pairs with holds, or uncertain ones
};

}  // namespace redisson::detail
