// The bodies of QueueBase's asynchronous forms (objects/queue.hpp).
#pragma once

#include "redisson/objects/queue.hpp"

namespace redisson::detail {

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::async_poll(CompletionToken&& token) {
  return pop_end(token, "LPOP");
}

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::async_poll(std::int64_t count, CompletionToken&& token) {
  return pop_end(token, "LPOP", count);
}

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::async_peek(CompletionToken&& token) const {
  return this->async_get(0, token);
}

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::async_poll_last_and_offer_first_to(const std::string& destination,
                                                      CompletionToken&& token) {
  return this->template on_key<std::optional<T>>(token, this->template value_reader<T>(),
                                                 "RPOPLPUSH", destination);
}

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::pop_end(CompletionToken&& token, const char* verb) {
  return this->template on_key<std::optional<T>>(token, this->template value_reader<T>(), verb);
}

template <JavaValue T>
template <class CompletionToken>
auto QueueBase<T>::pop_end(CompletionToken&& token, const char* verb, std::int64_t count) {
  return this->template on_key<std::vector<T>>(token, this->template values_reader<T>(), verb,
                                               count);
}

}  // namespace redisson::detail

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto Queue<T>::async_offer(const T& value, CompletionToken&& token) {
  return this->async_add(value, token);
}

}  // namespace redisson
