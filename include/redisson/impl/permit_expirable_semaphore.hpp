// The bodies of PermitExpirableSemaphore's templates (permit_expirable_semaphore.hpp).
#pragma once

#include "redisson/permit_expirable_semaphore.hpp"

namespace redisson {

template <class CompletionToken>
auto PermitExpirableSemaphore::async_acquire(std::optional<std::chrono::milliseconds> wait,
                                             std::optional<std::chrono::milliseconds> lease,
                                             CompletionToken&& token) const {
  return run_cancellable<std::optional<std::string>>(token, &start_acquire, wait, lease);
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_release(std::string permit_id, CompletionToken&& token) const {
  return run<void>(token, &start_release, std::move(permit_id));
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_try_release(std::string permit_id,
                                                 CompletionToken&& token) const {
  return run<bool>(token, &start_try_release, std::move(permit_id));
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_update_lease(std::string permit_id,
                                                  std::chrono::milliseconds lease,
                                                  CompletionToken&& token) const {
  return run<bool>(token, &start_update_lease, std::move(permit_id), lease);
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_available_permits(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_available_permits);
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_acquired_permits(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_count_permits, "acquired");
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_permits(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_count_permits, "total");
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_set_permits(std::int64_t total,
                                                 CompletionToken&& token) const {
  return run<void>(token, &start_set_permits, total);
}

template <class CompletionToken>
auto PermitExpirableSemaphore::async_lease_time(std::string permit_id,
                                                CompletionToken&& token) const {
  return run<std::optional<std::chrono::milliseconds>>(token, &start_lease_time,
                                                       std::move(permit_id));
}

}  // namespace redisson
