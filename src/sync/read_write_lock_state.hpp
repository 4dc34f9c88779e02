// What the handles of one read-write lock share: its names, the leases its writers took, how
// many holds of each owner the watchdog renews, and the lost-hold callbacks.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "client/client_core.hpp"
#include "redisson/read_write_lock.hpp"

namespace redisson::detail {

class RwLockState {
 public:
  RwLockState(std::shared_ptr<ClientCore> core, std::string name);

  /// "<client-id>:<owner>": the reader field.
  std::string reader_field(std::uint64_t owner) const;
  /// "<client-id>:<owner>:write": the writer field.
  std::string writer_field(std::uint64_t owner) const;
  std::string field(RwSide side, std::uint64_t owner) const {
    return side == RwSide::read ? reader_field(owner) : writer_field(owner);
  }
  /// S(n, reader field) + ":rwlock_timeout": read hold i of `owner` is this + ":" + i.
  std::string hold_timeout_prefix(std::uint64_t owner) const;

  /// The lease `owner` last took for the write hold (re-applied by a partial unlock);
  /// the watchdog lease if unknown.
  std::chrono::milliseconds write_lease_of(std::uint64_t owner) const;
  void remember_write_lease(std::uint64_t owner, std::chrono::milliseconds lease);

  /// Counts one more hold of (side, owner) that the watchdog renews.
  void add_watched(RwSide side, std::uint64_t owner);
  /// The owner has `left` holds of `side` after an unlock: returns how many watched holds to
  /// drop from the watchdog (holds are released newest first, so watched ones beyond `left`).
  std::uint64_t trim_watched(RwSide side, std::uint64_t owner, std::uint64_t left);
  /// Forgets every watched hold and write lease of (side, owner) (full unlock, lost hold).
  void forget(RwSide side, std::uint64_t owner);

  /// Latch lifetime: covers every retry of one unlock (Redisson's 16-20 s).
  std::chrono::milliseconds unlock_latch_lifetime() const;

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;       // P(redisson_rwlock, n)
  const std::string latch_prefix;  // P(redisson_unlock_latch, n)
  const std::string tagged_name;   // "{n}", or n when it has a '{': S(n, x) = tagged_name:x
  std::string publish_command = core->publish_command();  // "spublish" on a sharded cluster

  std::mutex mutex;
  std::function<void(std::uint64_t)> on_read_lost;   // guarded by mutex
  std::function<void(std::uint64_t)> on_write_lost;  // guarded by mutex

 private:
  using Key = std::pair<RwSide, std::uint64_t>;
  mutable std::mutex books_mutex_;
  std::map<std::uint64_t, std::chrono::milliseconds> write_leases_;
  std::map<Key, std::uint64_t> watched_;
};

}  // namespace redisson::detail
