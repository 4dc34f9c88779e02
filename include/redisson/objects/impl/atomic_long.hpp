// The bodies of AtomicLong's templates (objects/atomic_long.hpp).
#pragma once

#include "redisson/objects/atomic_long.hpp"

namespace redisson {

template <class CompletionToken, class... Args>
auto AtomicLong::counter(CompletionToken&& token, std::string_view verb,
                         const Args&... args) const {
  return on_key<std::int64_t>(token, &detail::reply_counter, verb, args...);
}

template <class CompletionToken>
auto AtomicLong::async_get(CompletionToken&& token) const {
  return counter(token, "GET");
}

template <class CompletionToken>
auto AtomicLong::async_set(std::int64_t value, CompletionToken&& token) {
  return on_key<void>(token, &detail::reply_ignore, "SET", value);
}

template <class CompletionToken>
auto AtomicLong::async_add_and_get(std::int64_t delta, CompletionToken&& token) {
  return counter(token, "INCRBY", delta);
}

template <class CompletionToken>
auto AtomicLong::async_get_and_add(std::int64_t delta, CompletionToken&& token) {
  // INCRBY answers the new value; the old one is that minus delta, exactly (integers).
  return on_key<std::int64_t>(
      token, [delta](const Reply& r) { return detail::reply_counter(r) - delta; }, "INCRBY", delta);
}

template <class CompletionToken>
auto AtomicLong::async_get_and_set(std::int64_t value, CompletionToken&& token) {
  return counter(token, "GETSET", value);
}

template <class CompletionToken>
auto AtomicLong::async_compare_and_set(std::int64_t expect, std::int64_t update,
                                       CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_long_compare_and_set,
                       expect, update);
}

template <class CompletionToken>
auto AtomicLong::async_get_and_delete(CompletionToken&& token) {
  return counter(token, "GETDEL");
}

template <class CompletionToken>
auto AtomicLong::async_set_if_greater(std::int64_t threshold, std::int64_t value,
                                      CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_set_if, true,
                       std::to_string(threshold), std::to_string(value));
}

template <class CompletionToken>
auto AtomicLong::async_set_if_less(std::int64_t threshold, std::int64_t value,
                                   CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_set_if, false,
                       std::to_string(threshold), std::to_string(value));
}

}  // namespace redisson
