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
template <class CompletionToken>
auto Set<T>::async_read_all(CompletionToken&& token) const {
  return on_key<std::vector<T>>(token, values_reader<T>(), "SMEMBERS");
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_try_add(const std::vector<T>& values, CompletionToken&& token) {
  return members_script<bool>(token, &detail::reply_flag, &detail::start_set_try_add, values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_contains_all(const std::vector<T>& values, CompletionToken&& token) const {
  return members_command<bool>(
      token,
      [](const Reply& reply) {
        if (reply.is_integer()) return true;  // no values: nothing was sent
        for (const auto& element : reply.elements) {
          if (!detail::reply_flag(element)) return false;
        }
        return true;
      },
      "SMISMEMBER", values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_retain_all(const std::vector<T>& values, CompletionToken&& token) {
  return members_script<bool>(token, &detail::reply_flag, &detail::start_set_retain_all, values);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_store_union(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::SetAlgebra::union_store,
                               std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_read_union(std::vector<std::string> names, CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::union_read,
                                 std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_store_intersection(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer,
                               detail::SetAlgebra::intersection_store, std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_read_intersection(std::vector<std::string> names,
                                     CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::intersection_read,
                                 std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_count_intersection(std::vector<std::string> names, std::int64_t limit,
                                      CompletionToken&& token) const {
  return algebra<std::int64_t>(token, &detail::reply_integer,
                               detail::SetAlgebra::intersection_count, std::move(names), limit);
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_store_diff(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::SetAlgebra::diff_store,
                               std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto Set<T>::async_read_diff(std::vector<std::string> names, CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::diff_read,
                                 std::move(names));
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert, class Start>
auto Set<T>::members_script(CompletionToken&& token, Convert convert, Start start,
                            std::vector<T> values) const {
  return detail::async_with_encoded<R>(object_, token, std::move(values), start,
                                       std::move(convert));
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto Set<T>::algebra(CompletionToken&& token, Convert convert, detail::SetAlgebra operation,
                     std::vector<std::string> names, std::int64_t limit) const {
  return started<R>(token, std::move(convert), &detail::start_set_algebra, operation,
                    std::move(names), limit);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto Set<T>::members_command(CompletionToken&& token, Convert convert, const char* verb,
                             std::vector<T> values) const {
  return members_script<R>(
      token, std::move(convert),
      [verb](const detail::ObjectPtr& object, const std::vector<std::string>& members,
             detail::Done<Reply>& done) {
        detail::start_with_arguments(object, verb, members, done);
      },
      std::move(values));
}

}  // namespace redisson
