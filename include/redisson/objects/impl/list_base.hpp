// The bodies of ListBase's asynchronous forms (objects/list_base.hpp).
#pragma once

#include "redisson/objects/list_base.hpp"

namespace redisson::detail {

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_get(std::int64_t index, CompletionToken&& token) const {
  return this->template on_key<std::optional<T>>(token, this->template value_reader<T>(), "LINDEX",
                                                 index);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_remove(const T& value, std::int64_t count, CompletionToken&& token) {
  return with_values<std::int64_t>(token, &reply_integer, "LREM", count, Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_index_of(const T& value, CompletionToken&& token) const {
  return with_values<std::optional<std::int64_t>>(token, &optional_index, "LPOS", Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_last_index_of(const T& value, CompletionToken&& token) const {
  return with_values<std::optional<std::int64_t>>(token, &optional_index, "LPOS", Element{value},
                                                  "RANK", std::int64_t{-1});
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_size(CompletionToken&& token) const {
  return this->template on_key<std::int64_t>(token, &reply_integer, "LLEN");
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_range(std::int64_t from, std::int64_t to, CompletionToken&& token) const {
  return this->template on_key<std::vector<T>>(token, this->template values_reader<T>(), "LRANGE",
                                               from, to);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_read_all(CompletionToken&& token) const {
  return async_range(0, -1, std::forward<CompletionToken>(token));
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_contains_all(std::vector<T> values, CompletionToken&& token) const {
  return async_with_encoded<bool>(object_, token, std::move(values), &start_list_contains_all,
                                  &reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_remove_all(std::vector<T> values, CompletionToken&& token) {
  return async_with_encoded<std::int64_t>(object_, token, std::move(values), &start_list_remove_all,
                                          &reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_retain_all(std::vector<T> values, CompletionToken&& token) {
  return async_with_encoded<bool>(object_, token, std::move(values), &start_list_retain_all,
                                  &reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_add(const T& value, CompletionToken&& token) {
  return with_values<std::int64_t>(token, &reply_integer, "RPUSH", Element{value});
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::async_add_all(const std::vector<T>& values, CompletionToken&& token) {
  return elements_command(token, "RPUSH", values);
}

template <JavaValue T>
template <class CompletionToken>
auto ListBase<T>::elements_command(CompletionToken&& token, const char* verb,
                                   std::vector<T> values) const {
  return async_with_encoded<std::int64_t>(
      object_, token, std::move(values),
      [verb](const ObjectPtr& object, const std::vector<std::string>& elements, Done<Reply>& done) {
        start_with_arguments(object, verb, elements, done);
      },
      &reply_integer);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert, class... Args>
auto ListBase<T>::with_values(CompletionToken&& token, Convert convert, const char* verb,
                              const Args&... args) const {
  return async_command<R>(
      object_, token,
      [&] {
        Command command{verb, name()};
        (add_argument(command, args), ...);
        return command;
      },
      convert);
}

}  // namespace redisson::detail
