// The bodies of Increments's templates (objects/increments.hpp).
#pragma once

#include "redisson/objects/increments.hpp"

namespace redisson {

template <class Derived, class Number>
template <class CompletionToken>
auto Increments<Derived, Number>::async_increment_and_get(CompletionToken&& token) {
  return self().async_add_and_get(Number{1}, std::forward<CompletionToken>(token));
}

template <class Derived, class Number>
template <class CompletionToken>
auto Increments<Derived, Number>::async_decrement_and_get(CompletionToken&& token) {
  return self().async_add_and_get(Number{-1}, std::forward<CompletionToken>(token));
}

template <class Derived, class Number>
template <class CompletionToken>
auto Increments<Derived, Number>::async_get_and_increment(CompletionToken&& token) {
  return self().async_get_and_add(Number{1}, std::forward<CompletionToken>(token));
}

template <class Derived, class Number>
template <class CompletionToken>
auto Increments<Derived, Number>::async_get_and_decrement(CompletionToken&& token) {
  return self().async_get_and_add(Number{-1}, std::forward<CompletionToken>(token));
}

}  // namespace redisson
