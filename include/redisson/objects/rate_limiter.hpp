// redisson::RateLimiter: a rate limiter shared through Redis, Java Redisson's RRateLimiter.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/object.hpp"

namespace redisson {

/// Whose budget a rate is: every client's together (Redisson's RateType.OVERALL) or each
/// client's own (PER_CLIENT, a client being one Client / RedissonClient).
enum class RateType { overall = 0, per_client = 1 };

/// A limiter's settings as stored in Redis: `rate` permits per `interval`, for `type`;
/// `keep_alive` (0: none) is how long the limiter's keys live after their last use.
struct RateLimiterConfig {
  RateType type = RateType::overall;
  std::int64_t rate = 0;
  std::chrono::milliseconds interval{0};
  std::chrono::milliseconds keep_alive{0};

  friend bool operator==(const RateLimiterConfig&, const RateLimiterConfig&) = default;
};

namespace detail {
/// The limiter's keys besides its name: `{name}:value` and `{name}:permits`, and the client's
/// own `{name}:value:<client id>` and `{name}:permits:<client id>`.
std::vector<std::string> rate_limiter_keys(const std::string& name);
std::vector<std::string> rate_limiter_client_keys(const std::string& name,
                                                  const std::string& client_id);
inline constexpr ObjectHooks rate_limiter_hooks{.extra_keys = &rate_limiter_keys,
                                                .client_keys = &rate_limiter_client_keys};

/// try_set_rate (`only_if_unset`) / set_rate: the arguments are checked (invalid_argument
/// before sending), then one script. Completes with 1/0 (try_set_rate) or nil.
void start_rate_limiter_set_rate(const ObjectPtr& object, bool only_if_unset, RateType type,
                                 std::int64_t rate, std::chrono::milliseconds interval,
                                 std::chrono::milliseconds keep_alive, Done<Reply>& done);
/// An acquisition of `permits`: one attempt (`wait` zero), until `wait` has passed, or for ever
/// (`wait` nullopt), sleeping between attempts for the delay the script returns. A grant that
/// races the caller's cancel is given back.
void start_rate_limiter_acquire(const ObjectPtr& object, std::int64_t permits,
                                std::optional<std::chrono::milliseconds> wait,
                                const CancellationPtr& cancel, Done<bool> done);
void start_rate_limiter_available_permits(const ObjectPtr& object, Done<Reply>& done);
/// rate_limiter_release.lua (permits > 0; 0: nothing sent; negative: invalid_argument).
void start_rate_limiter_release(const ObjectPtr& object, std::int64_t permits, Done<Reply>& done);
/// The config in an HGETALL reply (not_initialized when there is none).
RateLimiterConfig rate_limiter_config_of(const Reply& reply);
}  // namespace detail

/// At most `rate` permits per `interval`, shared by every process that uses the same name on the
/// same Redis, Java Redisson's RRateLimiter included: the same keys, the same entries and the
/// same acquire script (Redisson 3.52), so Java and C++ clients draw from one budget.
///
/// Layout: the hash `name` (`rate`, `interval` in ms, `type` 0 overall / 1 per client,
/// `keepAliveTime` in ms); for an overall rate the string `{name}:value` (permits left) and the
/// sorted set `{name}:permits` (one entry per acquisition, scored by the acquiring client's
/// clock in epoch ms: a 0x10 byte, 16 random bytes, the permit count as a little-endian uint32);
/// for a per-client rate `{name}:value:<client id>` and `{name}:permits:<client id>`. An entry
/// older than the interval returns its permits. The window is the clients' clocks: keep them in
/// sync (as with Java).
///
/// Cost: every operation is one script round trip (get_config: one HGETALL). A waiting acquire
/// sleeps on a timer of the client for exactly the delay the script returned (the time until
/// the oldest acquisition leaves the window, + 3 ms), then tries again: no polling, no thread.
///
/// Errors: an acquire or available_permits on a limiter whose rate was never set (or that was
/// deleted) is errc::not_initialized; asking for more permits than the rate is
/// errc::invalid_argument (the server refuses: "Requested permits amount cannot exceed defined
/// rate"); negative permits or waits, a rate or interval that is not positive, and a keep-alive
/// shorter than the interval are errc::invalid_argument with nothing sent; keys of another type
/// are errc::wrong_type. Permits are consumed, never returned: there is no release.
class RateLimiter : public Object {
  template <class R, class CompletionToken, class Convert>
  auto set_rate_op(CompletionToken&& token, bool only_if_unset, RateType type, std::int64_t rate,
                   std::chrono::milliseconds interval, std::chrono::milliseconds keep_alive,
                   Convert convert);

  template <class CompletionToken>
  auto acquire_op(CompletionToken&& token, std::int64_t permits, std::chrono::milliseconds wait);

 public:
  /// A handle on the limiter `name`; sends nothing.
  RateLimiter(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::long_text(), "RateLimiter",
               &detail::rate_limiter_hooks) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_try_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                          std::chrono::milliseconds keep_alive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_try_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                          CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                      std::chrono::milliseconds keep_alive, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                      CompletionToken&& token);
  /// Completes with (error_code, acquired): one attempt, no waiting.
  template <class CompletionToken>
  auto async_try_acquire(std::int64_t permits, CompletionToken&& token);
  /// Completes with (error_code, acquired) within about `wait`. Honours Asio per-operation
  /// cancellation: a cancelled wait holds nothing (a grant that raced the cancel is given
  /// back) and completes with asio::error::operation_aborted.
  template <class Rep, class Period, class CompletionToken>
  auto async_try_acquire(std::int64_t permits, std::chrono::duration<Rep, Period> wait,
                         CompletionToken&& token);
  /// Waits as long as it takes; completes with (error_code). Cancellation as above.
  template <class CompletionToken>
  auto async_acquire(std::int64_t permits, CompletionToken&& token);
  /// Completes with (error_code, permits available now).
  template <class CompletionToken>
  auto async_available_permits(CompletionToken&& token);
  /// Completes with (error_code).
  template <class CompletionToken>
  auto async_release(std::int64_t permits, CompletionToken&& token);
  /// Completes with (error_code, RateLimiterConfig).
  template <class CompletionToken>
  auto async_get_config(CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Sets the rate if the limiter has none yet (Redisson's trySetRate); true if set. An existing
  /// rate is kept, whatever it is (get_config tells).
  bool try_set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                    std::chrono::milliseconds keep_alive = std::chrono::milliseconds{0});
  /// Sets the rate, replacing any (Redisson's setRate): the permits taken so far under this
  /// type are forgotten, so the full rate is available again.
  void set_rate(RateType type, std::int64_t rate, std::chrono::milliseconds interval,
                std::chrono::milliseconds keep_alive = std::chrono::milliseconds{0});
  /// Takes `permits` if available now; one round trip, no waiting.
  bool try_acquire(std::int64_t permits = 1);
  /// Takes `permits`, waiting at most `wait` for them; false if they did not free up in time.
  template <class Rep, class Period>
  bool try_acquire(std::int64_t permits, std::chrono::duration<Rep, Period> wait) {
    return async_try_acquire(permits, wait, detail::blocking("try_acquire", name()));
  }
  /// Takes `permits`, waiting as long as it takes.
  void acquire(std::int64_t permits = 1);
  /// The permits available now (entries older than the interval given back first).
  std::int64_t available_permits();
  /// Gives `permits` back to the current window (Redisson's release): the available permits
  /// grow by them, never above the rate. A limiter without a rate is errc::not_initialized.
  void release(std::int64_t permits);
  /// The limiter's settings.
  RateLimiterConfig get_config() const;
};

}  // namespace redisson

#include "redisson/objects/impl/rate_limiter.hpp"
