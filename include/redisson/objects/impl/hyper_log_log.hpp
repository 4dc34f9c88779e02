// The bodies of HyperLogLog's templates (objects/hyper_log_log.hpp).
#pragma once

#include "redisson/objects/hyper_log_log.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto HyperLogLog<T>::async_add(const T& value, CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [&] {
        return Command{"PFADD", name(), detail::encode_value(codec(), value)};
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto HyperLogLog<T>::async_add_all(const std::vector<T>& values, CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [&] {
        Command command{"PFADD", name()};
        for (const auto& value : values) command.arg(detail::encode_value(codec(), value));
        return command;
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto HyperLogLog<T>::async_count(CompletionToken&& token) const {
  return async_count_with({}, std::forward<CompletionToken>(token));
}

template <JavaValue T>
template <class CompletionToken>
auto HyperLogLog<T>::async_count_with(const std::vector<std::string>& others,
                                      CompletionToken&& token) const {
  return detail::async_command<std::int64_t>(
      object_, token, [&] { return detail::with_other_keys("PFCOUNT", name(), others); },
      &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto HyperLogLog<T>::async_merge_with(const std::vector<std::string>& others,
                                      CompletionToken&& token) {
  return detail::async_command<void>(
      object_, token, [&] { return detail::with_other_keys("PFMERGE", name(), others); },
      &detail::reply_ignore);
}

}  // namespace redisson
