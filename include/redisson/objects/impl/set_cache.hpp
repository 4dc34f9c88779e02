// The bodies of SetCache's templates (objects/set_cache.hpp).
#pragma once

#include "redisson/objects/set_cache.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add(const T& value, CompletionToken&& token) {
  return add_script<bool>(token, &detail::reply_flag, {value}, {});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add(const T& value, std::chrono::milliseconds ttl,
                            CompletionToken&& token) {
  return add_script<bool>(token, &detail::reply_flag, {value}, ttl);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_all(const std::vector<T>& values, std::chrono::milliseconds ttl,
                                CompletionToken&& token) {
  return add_script<std::int64_t>(token, &detail::reply_integer, values, ttl);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_remove(const T& value, CompletionToken&& token) {
  return remove_script<bool>(token, &detail::reply_flag, {value});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_remove_all(const std::vector<T>& values, CompletionToken&& token) {
  return remove_script<std::int64_t>(token, &detail::reply_integer, values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_contains(const T& value, CompletionToken&& token) const {
  return score_command<bool>(token, &detail::set_cache_live, value);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_remaining_time_to_live(const T& value, CompletionToken&& token) const {
  return score_command<std::chrono::milliseconds>(token, &detail::set_cache_time_left, value);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_size(CompletionToken&& token) const {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_set_cache_size);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_read_all(std::int64_t page_size, CompletionToken&& token) const {
  return started<std::vector<T>>(
      token,
      [codec = object_->codec](const Reply& all) {
        return detail::set_cache_live_members<T>(*codec, all);
      },
      &detail::start_set_cache_read_all, page_size);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_evict_expired(std::int64_t limit, CompletionToken&& token) {
  return started<std::int64_t>(token, &detail::reply_integer, &detail::start_set_cache_sweep,
                               limit);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto SetCache<T>::add_script(CompletionToken&& token, Convert convert, std::vector<T> values,
                             std::chrono::milliseconds ttl) {
  return detail::async_started<R>(
      object_, token,
      [ttl, values = std::move(values)](const detail::ObjectPtr& object,
                                        detail::Done<Reply>& done) {
        detail::start_set_cache_add(object, ttl, encode_all(*object->codec, values), done);
      },
      convert);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto SetCache<T>::remove_script(CompletionToken&& token, Convert convert, std::vector<T> values) {
  return detail::async_started<R>(
      object_, token,
      [values = std::move(values)](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_set_cache_remove(object, encode_all(*object->codec, values), done);
      },
      convert);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto SetCache<T>::score_command(CompletionToken&& token, Convert convert, const T& value) const {
  return detail::async_command<R>(
      object_, token,
      [&] {
        return Command{"ZSCORE", name(), detail::encode_value(codec(), value)};
      },
      convert);
}

}  // namespace redisson
