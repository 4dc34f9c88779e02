// redisson::FencedLock: a lock whose acquisitions return increasing fencing tokens (RFencedLock).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "redisson/basic_lock.hpp"

namespace redisson {

class Client;

/// A re-entrant lock (Lock's hash, channel and unlock) plus a counter P(redisson_lock_token, n)
/// incremented by every successful acquisition, re-entrant ones included. The acquisition
/// returns the counter's new value: a fencing token.
///
/// Why: a holder can lose a lock without knowing it (a GC pause or a network partition longer
/// than the lease) and keep writing. If every write to the protected resource carries the
/// writer's token and the resource rejects tokens older than the newest it has seen, a stale
/// holder's writes are refused. Tokens strictly increase across all clients and processes that
/// share the lock (Java Redisson's included), for as long as the counter key lives.
///
/// Guarantees and cost: as Lock's; the acquire script also INCRs the counter (same round trip).
/// The counter has no expiry: it survives unlocks and force_unlock, so tokens never repeat.
/// Every operation of BasicLock works too (lock() simply drops the token).
class FencedLock : public BasicLock {
 public:
  /// A handle on the lock `name`; sends nothing. Throws invalid_argument for an empty name.
  FencedLock(const Client& client, std::string name);

  /// Waits until acquired (watchdog lease); returns the new fencing token.
  std::int64_t lock_and_get_token();
  /// Waits until acquired, with a fixed lease (no renewal); returns the new token.
  std::int64_t lock_and_get_token(milliseconds lease);
  /// Waits up to `wait`: the new token, or nullopt (not acquired).
  template <class Rep, class Period>
  std::optional<std::int64_t> try_lock_and_get_token(
      const std::chrono::duration<Rep, Period>& wait) {
    return try_lock_token_ms(detail::saturating_ms(wait), std::nullopt);
  }
  /// Waits up to `wait`; on success holds it for `lease` (no renewal).
  template <class Rep, class Period, class Rep2, class Period2>
  std::optional<std::int64_t> try_lock_and_get_token(
      const std::chrono::duration<Rep, Period>& wait,
      const std::chrono::duration<Rep2, Period2>& lease) {
    return try_lock_token_ms(detail::saturating_ms(wait), detail::saturating_ms(lease));
  }
  /// The newest token handed out (0 before the first acquisition).
  std::int64_t token() const;
  /// The counter's key: P(redisson_lock_token, n).
  const std::string& token_key() const noexcept { return token_key_; }

  /// Completes with (error_code, token): the new token, or nullopt when `wait` ran out.
  /// `wait` absent: wait forever; zero: one attempt. `lease` absent: watchdog lease.
  template <class CompletionToken>
  auto async_try_lock_and_get_token(OwnerId owner, std::optional<milliseconds> wait,
                                    std::optional<milliseconds> lease,
                                    CompletionToken&& token) const {
    return detail::async_op<std::optional<std::int64_t>>(
        core(), token,
        [kind = kind(), owner, wait, lease](detail::Done<std::optional<std::int64_t>> done,
                                            detail::CancellationPtr cancel,
                                            detail::ReadSlot* read) {
          start_acquire_token(kind, owner, wait, lease, std::move(cancel), std::move(done), read);
        });
  }

 private:
  std::optional<std::int64_t> try_lock_token_ms(milliseconds wait,
                                                std::optional<milliseconds> lease);

  std::string token_key_;
};

}  // namespace redisson
