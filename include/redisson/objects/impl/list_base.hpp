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
  return async_started<std::int64_t>(
      object_, token,
      [verb, values = std::move(values)](const ObjectPtr& object, Done<Reply>& done) {
        std::vector<std::string> elements;
        elements.reserve(values.size());
        for (const auto& value : values) elements.push_back(encode_value(*object->codec, value));
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
