// The Lock's two scripts (acquire, unlock) as plain EVALSHA commands, for the benchmark's
// reference paths: the library's own embedded scripts (src/sync/lua/lock_acquire.lua and
// lock_unlock.lua, built into lua_scripts.hpp) called through its own ScriptDef with the
// arguments HashLockKind sends on a first attempt (src/sync/hash_lock_kind.cpp). The scripts
// are exactly what a Lock sends, so a "script pair" measures the server's work of a lock/unlock
// pair without the library's bookkeeping.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "client/client_access.hpp"
#include "client/client_core.hpp"
#include "lua_scripts.hpp"
#include "redisson/redisson.hpp"
#include "sync/names.hpp"
#include "sync/retry.hpp"

namespace redisson_bench {

class LockScriptPair {
 public:
  /// Loads both scripts on `client`'s server (so EVALSHA finds them) and fixes the arguments a
  /// Lock of `client` would send: the watchdog lease, the latch lifetime, the publish command.
  LockScriptPair(redisson::Client& client, std::string owner_field)
      : owner_field_(std::move(owner_field)),
        lease_ms_(client.config().lock_watchdog_timeout.count()),
        latch_ms_(redisson::detail::retry_latch_lifetime(client.config()).count()),
        publish_command_(redisson::detail::ClientAccess::core(client)->publish_command()) {
    load(client, redisson::detail::lua::lock_acquire);
    load(client, redisson::detail::lua::lock_unlock);
  }

  /// The acquire script's SHA-1 (for redis-benchmark's EVALSHA).
  static std::string acquire_sha() { return std::string(redisson::detail::lua::lock_acquire.sha1); }

  /// EVALSHA of the acquire script on lock `name`: nil = acquired, else the lock's PTTL.
  redisson::Command acquire(const std::string& name) const {
    return redisson::detail::lua::lock_acquire({name}, {lease_ms_, owner_field_}).command;
  }

  /// EVALSHA of the unlock script on lock `name`, first attempt of request `request_id` (which
  /// must be unique: a reused latch would make the release a no-op "retry").
  redisson::Command release(const std::string& name, const std::string& request_id) const {
    const auto channel = redisson::detail::prefix_name("redisson_lock__channel", name);
    const auto latch =
        redisson::detail::prefix_name("redisson_unlock_latch", name) + ":" + request_id;
    return redisson::detail::lua::lock_unlock(
               {name, channel, latch},
               {"0", lease_ms_, owner_field_, publish_command_, latch_ms_, "1"})
        .command;
  }

 private:
  static void load(redisson::Client& client, const redisson::detail::ScriptDef& script) {
    const auto sha = client.execute(redisson::Command{"SCRIPT", "LOAD", script.source}).str;
    if (sha != script.sha1) {
      throw std::runtime_error("SCRIPT LOAD of " + std::string(script.name) + " answered " + sha +
                               ", expected " + std::string(script.sha1));
    }
  }

  std::string owner_field_;
  std::int64_t lease_ms_;
  std::int64_t latch_ms_;
  std::string publish_command_;
};

}  // namespace redisson_bench
