// The bodies of List's asynchronous forms (objects/list.hpp).
#pragma once

#include "redisson/objects/list.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_set(std::int64_t index, const T& value, CompletionToken&& token) {
  return this->template started<std::optional<T>>(token, this->template value_reader<T>(),
                                                  &detail::start_list_set, index,
                                                  this->encoded(value));
}

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_fast_set(std::int64_t index, const T& value, CompletionToken&& token) {
  return this->template with_values<void>(token, &detail::reply_ignore, "LSET", index,
                                          typename Base::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_insert_before(const T& pivot, const T& value, CompletionToken&& token) {
  return this->template with_values<std::int64_t>(token, &detail::reply_integer, "LINSERT",
                                                  "BEFORE", typename Base::Element{pivot},
                                                  typename Base::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_insert_after(const T& pivot, const T& value, CompletionToken&& token) {
  return this->template with_values<std::int64_t>(token, &detail::reply_integer, "LINSERT", "AFTER",
                                                  typename Base::Element{pivot},
                                                  typename Base::Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_remove_at(std::int64_t index, CompletionToken&& token) {
  return this->template started<std::optional<T>>(token, this->template value_reader<T>(),
                                                  &detail::start_list_remove_at, index);
}

template <JavaValue T>
template <class CompletionToken>
auto List<T>::async_trim(std::int64_t from, std::int64_t to, CompletionToken&& token) {
  return this->template on_key<void>(token, &detail::reply_ignore, "LTRIM", from, to);
}

}  // namespace redisson
