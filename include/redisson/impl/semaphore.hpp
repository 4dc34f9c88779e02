// The bodies of Semaphore's templates (semaphore.hpp).
#pragma once

#include "redisson/semaphore.hpp"

namespace redisson {

template <class CompletionToken>
auto Semaphore::async_acquire(std::int64_t permits, std::optional<std::chrono::milliseconds> wait,
                              CompletionToken&& token) const {
  return run_cancellable<bool>(token, &start_acquire, permits, wait);
}

template <class CompletionToken>
auto Semaphore::async_acquire(std::int64_t permits, CompletionToken&& token) const {
  return async_acquire(permits, std::nullopt, std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto Semaphore::async_release(std::int64_t permits, CompletionToken&& token) const {
  return run<void>(token, &start_release, permits);
}

template <class CompletionToken>
auto Semaphore::async_drain_permits(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_drain_permits);
}

template <class CompletionToken>
auto Semaphore::async_available_permits(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_available_permits);
}

}  // namespace redisson
