// The bodies of CountDownLatch's templates (count_down_latch.hpp).
#pragma once

#include "redisson/count_down_latch.hpp"

namespace redisson {

template <class CompletionToken>
auto CountDownLatch::async_await(std::optional<std::chrono::milliseconds> wait,
                                 CompletionToken&& token) const {
  return run_cancellable<bool>(token, &start_await, wait);
}

template <class CompletionToken>
auto CountDownLatch::async_count_down(CompletionToken&& token) const {
  return run<void>(token, &start_count_down);
}

template <class CompletionToken>
auto CountDownLatch::async_try_set_count(std::int64_t count, CompletionToken&& token) const {
  return run<bool>(token, &start_try_set_count, count);
}

template <class CompletionToken>
auto CountDownLatch::async_count(CompletionToken&& token) const {
  return run<std::int64_t>(token, &start_count);
}

}  // namespace redisson
