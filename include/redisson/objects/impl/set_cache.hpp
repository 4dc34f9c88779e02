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
auto SetCache<T>::async_add_all_timed(const TimedValues& values, CompletionToken&& token) {
  return timed_add<std::int64_t>(token, &detail::reply_integer, detail::SetCacheAdd::every, values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_if_absent(const T& value, std::chrono::milliseconds ttl,
                                      CompletionToken&& token) {
  return timed_add<bool>(token, &detail::reply_flag, detail::SetCacheAdd::if_absent,
                         {{value, ttl}});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_if_exists(const T& value, std::chrono::milliseconds ttl,
                                      CompletionToken&& token) {
  return timed_add<bool>(token, &detail::reply_flag, detail::SetCacheAdd::if_exists,
                         {{value, ttl}});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_if_greater(const T& value, std::chrono::milliseconds ttl,
                                       CompletionToken&& token) {
  return timed_add<bool>(token, &detail::reply_flag, detail::SetCacheAdd::if_greater,
                         {{value, ttl}});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_if_less(const T& value, std::chrono::milliseconds ttl,
                                    CompletionToken&& token) {
  return timed_add<bool>(token, &detail::reply_flag, detail::SetCacheAdd::if_less, {{value, ttl}});
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_all_if_absent(const TimedValues& values, CompletionToken&& token) {
  return timed_add<std::int64_t>(token, &detail::reply_integer, detail::SetCacheAdd::if_absent,
                                 values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_all_if_exist(const TimedValues& values, CompletionToken&& token) {
  return timed_add<std::int64_t>(token, &detail::reply_integer, detail::SetCacheAdd::if_exists,
                                 values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_all_if_greater(const TimedValues& values, CompletionToken&& token) {
  return timed_add<std::int64_t>(token, &detail::reply_integer, detail::SetCacheAdd::if_greater,
                                 values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_add_all_if_less(const TimedValues& values, CompletionToken&& token) {
  return timed_add<std::int64_t>(token, &detail::reply_integer, detail::SetCacheAdd::if_less,
                                 values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_try_add(const std::vector<T>& values, std::chrono::milliseconds ttl,
                                CompletionToken&& token) {
  TimedValues timed;
  timed.reserve(values.size());
  for (const auto& value : values) timed.emplace_back(value, ttl);
  return async_try_add_timed(timed, std::forward<CompletionToken>(token));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_try_add_timed(const TimedValues& values, CompletionToken&& token) {
  return timed_add<bool>(token, &detail::reply_flag, detail::SetCacheAdd::all_or_none, values);
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
auto SetCache<T>::async_contains_all(const std::vector<T>& values, CompletionToken&& token) const {
  return scores_command<bool>(token, &detail::set_cache_all_live, values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_contains_each(const std::vector<T>& values, CompletionToken&& token) const {
  return scores_command<std::vector<bool>>(token, &detail::set_cache_live_each, values);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_retain_all(const std::vector<T>& values, CompletionToken&& token) {
  return detail::async_with_encoded<bool>(object_, token, values,
                                          &detail::start_set_cache_retain_all, &detail::reply_flag);
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
auto SetCache<T>::async_empty(CompletionToken&& token) const {
  return started<bool>(
      token, [](const Reply& size) { return detail::reply_integer(size) == 0; },
      &detail::start_set_cache_size);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_random(CompletionToken&& token) const {
  return started<std::optional<T>>(token, value_reader<T>(), &detail::start_set_cache_random_one,
                                   false);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_random(std::int64_t count, CompletionToken&& token) const {
  return started<std::vector<T>>(token, values_reader<T>(), &detail::start_set_cache_random, count,
                                 false);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_remove_random(CompletionToken&& token) {
  return started<std::optional<T>>(token, value_reader<T>(), &detail::start_set_cache_random_one,
                                   true);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_remove_random(std::int64_t count, CompletionToken&& token) {
  return started<std::vector<T>>(token, values_reader<T>(), &detail::start_set_cache_random, count,
                                 true);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_move(const std::string& destination, const T& value,
                             CompletionToken&& token) {
  return detail::async_started<bool>(
      object_, token,
      [destination, value](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_set_cache_move(object, destination,
                                     detail::encode_value(*object->codec, value), done);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_store_union(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::SetAlgebra::union_store,
                               std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_read_union(std::vector<std::string> names, CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::union_read,
                                 std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_store_intersection(std::vector<std::string> names,
                                           CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer,
                               detail::SetAlgebra::intersection_store, std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_read_intersection(std::vector<std::string> names,
                                          CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::intersection_read,
                                 std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_count_intersection(std::vector<std::string> names, std::int64_t limit,
                                           CompletionToken&& token) const {
  return algebra<std::int64_t>(token, &detail::reply_integer,
                               detail::SetAlgebra::intersection_count, std::move(names), limit);
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_store_diff(std::vector<std::string> names, CompletionToken&& token) {
  return algebra<std::int64_t>(token, &detail::reply_integer, detail::SetAlgebra::diff_store,
                               std::move(names));
}

template <JavaValue T>
template <class CompletionToken>
auto SetCache<T>::async_read_diff(std::vector<std::string> names, CompletionToken&& token) const {
  return algebra<std::vector<T>>(token, values_reader<T>(), detail::SetAlgebra::diff_read,
                                 std::move(names));
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
auto SetCache<T>::timed_add(CompletionToken&& token, Convert convert, detail::SetCacheAdd how,
                            TimedValues values) {
  return detail::async_started<R>(
      object_, token,
      [how, values = std::move(values)](const detail::ObjectPtr& object,
                                        detail::Done<Reply>& done) {
        std::vector<std::chrono::milliseconds> ttls;
        std::vector<std::string> members;
        ttls.reserve(values.size());
        members.reserve(values.size());
        for (const auto& [value, ttl] : values) {
          members.push_back(detail::encode_value(*object->codec, value));
          ttls.push_back(ttl);
        }
        detail::start_set_cache_timed_add(object, how, ttls, members, done);
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

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto SetCache<T>::scores_command(CompletionToken&& token, Convert convert,
                                 std::vector<T> values) const {
  return detail::async_with_encoded<R>(
      object_, token, std::move(values),
      [](const detail::ObjectPtr& object, const std::vector<std::string>& members,
         detail::Done<Reply>& done) {
        detail::start_with_arguments(object, "ZMSCORE", members, done);
      },
      std::move(convert));
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto SetCache<T>::algebra(CompletionToken&& token, Convert convert, detail::SetAlgebra operation,
                          std::vector<std::string> names, std::int64_t limit) const {
  return started<R>(token, std::move(convert), &detail::start_set_cache_algebra, operation,
                    std::move(names), limit);
}

}  // namespace redisson
