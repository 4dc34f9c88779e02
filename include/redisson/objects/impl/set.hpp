// The bodies of Set's templates (objects/set.hpp).
#pragma once

#include "redisson/objects/set.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_add(const T& value, CompletionToken&& token) {
  return members_command<bool>(token, &detail::reply_flag, "SADD", {value});
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_add_all(const std::vector<T>& values, CompletionToken&& token) {
  return members_command<std::int64_t>(token, &detail::reply_integer, "SADD", values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_remove(const T& value, CompletionToken&& token) {
  return members_command<bool>(token, &detail::reply_flag, "SREM", {value});
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_remove_all(const std::vector<T>& values, CompletionToken&& token) {
  return members_command<std::int64_t>(token, &detail::reply_integer, "SREM", values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_contains(const T& value, CompletionToken&& token) const {
  return members_command<bool>(token, &detail::reply_flag, "SISMEMBER", {value});
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_contains_each(const std::vector<T>& values, CompletionToken&& token) const {
  return members_command<std::vector<bool>>(
      token,
      [](const Reply& reply) {
        std::vector<bool> found;
        for (const auto& element : reply.elements) found.push_back(detail::reply_flag(element));
        return found;
      },
      "SMISMEMBER", values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "SCARD");
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_random(CompletionToken&& token) const {
  return on_key<std::optional<T>>(token, value_reader<T>(), "SRANDMEMBER");
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_remove_random(CompletionToken&& token) {
  return on_key<std::optional<T>>(token, value_reader<T>(), "SPOP");
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_move(const std::string& destination, const T& value, CompletionToken&& token) {
  return detail::async_command<bool>(
      object_, token,
      [&] {
        return Command{"SMOVE", name(), destination, detail::encode_value(codec(), value)};
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto Set<T>::members_command(CompletionToken&& token, Convert convert, const char* verb,
                             std::vector<T> values) const {
  return detail::async_started<R>(
      object_, token,
      [verb, values = std::move(values)](const detail::ObjectPtr& object,
                                         detail::Done<Reply>& done) {
        std::vector<std::string> members;
        members.reserve(values.size());
        for (const auto& value : values) {
          members.push_back(detail::encode_value(*object->codec, value));
        }
        detail::start_with_arguments(object, verb, members, done);
      },
      convert);
}

}  // namespace redisson
