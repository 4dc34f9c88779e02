// What a Lock handle shares with its copies: its names, and the leases its owners took.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "client/client_core.hpp"

namespace redisson::detail {

class LockState : public std::enable_shared_from_this<LockState> {
 public:
  LockState(std::shared_ptr<ClientCore> core, std::string name, bool reentrant = true);

  std::string owner_field(std::uint64_t owner) const;
  /// The lease `owner` took (re-applied by a partial unlock); watchdog lease if unknown.
  std::chrono::milliseconds lease_of(std::uint64_t owner) const;
  void remember_lease(std::uint64_t owner, std::chrono::milliseconds lease);
  void forget_lease(std::uint64_t owner);

  /// latch_prefix + ":", with room for the request id that completes an unlock's latch key.
  std::string unlock_latch_prefix() const;

  /// Latch lifetime: covers every retry of one unlock (Redisson's 16-20 s).
  std::chrono::milliseconds unlock_latch_lifetime() const;

  const std::shared_ptr<ClientCore> core;
  const std::string name;
  const std::string channel;                              // P(redisson_lock__channel, n)
  const std::string latch_prefix;                         // P(redisson_unlock_latch, n)
  std::string publish_command = core->publish_command();  // "spublish" on a sharded cluster
  bool reentrant = true;  // false: a second acquire by the holder fails with already_held

  std::mutex mutex;
  std::function<void(std::uint64_t)> on_lost;  // guarded by mutex

 private:
  mutable std::mutex leases_mutex_;
  std::map<std::uint64_t, std::chrono::milliseconds> leases_;
};

}  // namespace redisson::detail
