// The bodies of RateLimiter's templates (objects/rate_limiter.hpp).
#pragma once

#include "redisson/objects/rate_limiter.hpp"

namespace redisson {

template <class R, class CompletionToken, class Convert>
auto RateLimiter::set_rate_op(CompletionToken&& token, bool only_if_unset, RateType type,
                              std::int64_t rate, std::chrono::milliseconds interval,
                              std::chrono::milliseconds keep_alive, Convert convert) {
  return started<R>(token, convert, &detail::start_rate_limiter_set_rate, only_if_unset, type, rate,
                    interval, keep_alive);
}

template <class CompletionToken>
auto RateLimiter::acquire_op(CompletionToken&& token, std::int64_t permits,
                             std::chrono::milliseconds wait) {
  return detail::async_op<bool>(
      object_->core, token,
      [object = object_, permits, wait](detail::Done<bool> done,
                                        const detail::CancellationPtr& cancel) {
        detail::start_rate_limiter_acquire(object, permits, wait, cancel, std::move(done));
      });
}

template <class CompletionToken>
auto RateLimiter::async_try_set_rate(RateType type, std::int64_t rate,
                                     std::chrono::milliseconds interval,
                                     std::chrono::milliseconds keep_alive,
                                     CompletionToken&& token) {
  return set_rate_op<bool>(token, true, type, rate, interval, keep_alive, &detail::reply_flag);
}

template <class CompletionToken>
auto RateLimiter::async_try_set_rate(RateType type, std::int64_t rate,
                                     std::chrono::milliseconds interval, CompletionToken&& token) {
  return async_try_set_rate(type, rate, interval, std::chrono::milliseconds{0},
                            std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto RateLimiter::async_set_rate(RateType type, std::int64_t rate,
                                 std::chrono::milliseconds interval,
                                 std::chrono::milliseconds keep_alive, CompletionToken&& token) {
  return set_rate_op<void>(token, false, type, rate, interval, keep_alive, &detail::reply_ignore);
}

template <class CompletionToken>
auto RateLimiter::async_set_rate(RateType type, std::int64_t rate,
                                 std::chrono::milliseconds interval, CompletionToken&& token) {
  return async_set_rate(type, rate, interval, std::chrono::milliseconds{0},
                        std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto RateLimiter::async_try_acquire(std::int64_t permits, CompletionToken&& token) {
  return acquire_op(token, permits, std::chrono::milliseconds{0});
}

template <class Rep, class Period, class CompletionToken>
auto RateLimiter::async_try_acquire(std::int64_t permits, std::chrono::duration<Rep, Period> wait,
                                    CompletionToken&& token) {
  return acquire_op(token, permits, detail::saturating_ms(wait));
}

template <class CompletionToken>
auto RateLimiter::async_acquire(std::int64_t permits, CompletionToken&& token) {
  return detail::async_op<void>(
      object_->core, token,
      [object = object_, permits](detail::Done<void> done, const detail::CancellationPtr& cancel) {
        detail::start_rate_limiter_acquire(
            object, permits, std::nullopt, cancel,
            [done = std::move(done)](detail::Status status, bool) mutable {
              done(std::move(status));
            });
      });
}

template <class CompletionToken>
auto RateLimiter::async_available_permits(CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_counter,
                               &detail::start_rate_limiter_available_permits);
}

template <class CompletionToken>
auto RateLimiter::async_release(std::int64_t permits, CompletionToken&& token) {
  return started<void>(token, &detail::reply_ignore, &detail::start_rate_limiter_release, permits);
}

template <class CompletionToken>
auto RateLimiter::async_get_config(CompletionToken&& token) const {
  return on_key<RateLimiterConfig>(token, &detail::rate_limiter_config_of, "HGETALL");
}

}  // namespace redisson
