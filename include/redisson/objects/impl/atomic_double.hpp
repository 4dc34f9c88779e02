// The bodies of AtomicDouble's templates (objects/atomic_double.hpp).
#pragma once

#include "redisson/objects/atomic_double.hpp"

namespace redisson {

template <class CompletionToken, class... Args>
auto AtomicDouble::number(CompletionToken&& token, std::string_view verb,
                          const Args&... args) const {
  return on_key<double>(token, &detail::reply_double, verb, args...);
}

template <class R, class CompletionToken, class Convert>
auto AtomicDouble::with_decimal(CompletionToken&& token, Convert convert, const char* verb,
                                double x) {
  return detail::async_command<R>(
      object_, token,
      [this, verb, x] {
        return Command{verb, name(), detail::plain_decimal_argument(x)};
      },
      convert);
}

template <class CompletionToken>
auto AtomicDouble::async_get(CompletionToken&& token) const {
  return number(token, "GET");
}

template <class CompletionToken>
auto AtomicDouble::async_set(double value, CompletionToken&& token) {
  return with_decimal<void>(token, &detail::reply_ignore, "SET", value);
}

template <class CompletionToken>
auto AtomicDouble::async_add_and_get(double delta, CompletionToken&& token) {
  return with_decimal<double>(token, &detail::reply_double, "INCRBYFLOAT", delta);
}

template <class CompletionToken>
auto AtomicDouble::async_get_and_add(double delta, CompletionToken&& token) {
  return started<double>(token, &detail::reply_double, &detail::start_atomic_double_get_and_add,
                         delta);
}

template <class CompletionToken>
auto AtomicDouble::async_get_and_set(double value, CompletionToken&& token) {
  return with_decimal<double>(token, &detail::reply_double, "GETSET", value);
}

template <class CompletionToken>
auto AtomicDouble::async_compare_and_set(double expect, double update, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_double_compare_and_set,
                       expect, update);
}

template <class CompletionToken>
auto AtomicDouble::async_get_and_delete(CompletionToken&& token) {
  return number(token, "GETDEL");
}

template <class CompletionToken>
auto AtomicDouble::async_set_if_greater(double threshold, double value, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_set_if, true,
                       detail::plain_decimal_argument(threshold),
                       detail::plain_decimal_argument(value));
}

template <class CompletionToken>
auto AtomicDouble::async_set_if_less(double threshold, double value, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &detail::start_atomic_set_if, false,
                       detail::plain_decimal_argument(threshold),
                       detail::plain_decimal_argument(value));
}

}  // namespace redisson
