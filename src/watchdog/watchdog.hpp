// One lease-renewal service per client for every lock it holds without an explicit lease.
//
// Every lease/3 it renews all registered holds with one script call per renewal script
// (Lock, read-write lock, ...): one round trip for any number of locks, not a timer per lock.
// On a cluster, one call per (script, hash slot), since a script may only touch one slot; the
// calls for different masters go out in parallel.
// A hold the server no longer has is reported to its owner once (the lost callback) and
// dropped; it is never silently renewed into existence again.
#pragma once

#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "redisson/script.hpp"

namespace redisson::detail {

class ClientCore;

class Watchdog : public std::enable_shared_from_this<Watchdog> {
 public:
  using LostCallback = std::function<void()>;

  explicit Watchdog(ClientCore& core);

  /// Starts renewing (name, owner_field) with `renew_script`, or adds one more hold to it.
  /// `on_lost` (may be empty) runs on the I/O thread if a renewal finds the hold gone.
  void add(const Script& renew_script, const std::string& name, const std::string& owner_field,
           LostCallback on_lost);
  /// Drops one hold; with `all` (a full unlock, a force unlock) drops the entry.
  void remove(const std::string& name, const std::string& owner_field, bool all);
  /// True once a renewal found the hold gone, until the owner registers it again.
  bool was_lost(const std::string& name, const std::string& owner_field) const;
  /// Registered (name, owner) entries: for tests and `inspect`.
  std::size_t size() const;

  void stop();

 private:
  using Key = std::pair<std::string, std::string>;  // (name, owner field)
  using KeyView = std::pair<std::string_view, std::string_view>;
  // Orders Keys and KeyViews alike, so add() and remove() (on every lock and unlock) look a
  // hold up without copying its two strings into a Key first.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      return KeyView(a.first, a.second) < KeyView(b.first, b.second);
    }
  };
  struct Entry {
    Script script;
    std::uint64_t holds = 0;
    std::uint64_t registration = 0;  // tells a renewal reply from a re-registration after it
    LostCallback on_lost;
  };

  void schedule();
  void renew_all();

  ClientCore& core_;
  std::chrono::milliseconds lease_;
  asio::steady_timer timer_;
  mutable std::mutex mutex_;
  std::map<Key, Entry, KeyLess> entries_;
  std::set<Key, KeyLess> lost_;
  std::uint64_t next_registration_ = 1;
  bool timer_running_ = false;
  bool stopped_ = false;
};

/// The renewal script of the re-entrant lock family (Lock, FairLock, FencedLock, SpinLock).
const Script& lock_renew_script();

}  // namespace redisson::detail
