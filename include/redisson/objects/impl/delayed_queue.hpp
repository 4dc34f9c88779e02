// The bodies of DelayedQueue's templates (objects/delayed_queue.hpp).
#pragma once

#include "redisson/objects/delayed_queue.hpp"

namespace redisson {

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto DelayedQueue<T>::async_offer(const T& value, std::chrono::duration<Rep, Period> delay,
                                  CompletionToken&& token) {
  const auto delay_ms = std::chrono::duration_cast<std::chrono::milliseconds>(delay).count();
  return started<void>(token, &detail::reply_ignore, &start_offer, destination_,
                       static_cast<std::int64_t>(delay_ms), value);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_remove(const T& value, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_remove, destination_, value);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "LLEN");
}

}  // namespace redisson
