// The bodies of Deque's templates (objects/deque.hpp).
#pragma once

#include "redisson/objects/deque.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_add_first(const T& value, CompletionToken&& token) {
  return this->template with_values<std::int64_t>(token, &detail::reply_integer, "LPUSH",
                                                  typename detail::ListBase<T>::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_add_first_if_exists(const T& value, CompletionToken&& token) {
  return this->template with_values<std::int64_t>(token, &detail::reply_integer, "LPUSHX",
                                                  typename detail::ListBase<T>::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_add_last_if_exists(const T& value, CompletionToken&& token) {
  return this->template with_values<std::int64_t>(token, &detail::reply_integer, "RPUSHX",
                                                  typename detail::ListBase<T>::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_add_last(const T& value, CompletionToken&& token) {
  return this->async_add(value, token);
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_poll_first(CompletionToken&& token) {
  return this->async_poll(token);
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_poll_last(CompletionToken&& token) {
  return this->pop_end(token, "RPOP");
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_poll_last(std::int64_t count, CompletionToken&& token) {
  return this->pop_end(token, "RPOP", count);
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_peek_last(CompletionToken&& token) const {
  return this->async_get(-1, token);
}

template <JavaValue T>
template <class CompletionToken>
auto Deque<T>::async_move(const std::string& destination, ListEnd from, ListEnd to,
                          CompletionToken&& token) {
  return this->template on_key<std::optional<T>>(token, this->template value_reader<T>(), "LMOVE",
                                                 destination, detail::list_end_word(from),
                                                 detail::list_end_word(to));
}

}  // namespace redisson
