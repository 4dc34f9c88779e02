// The bodies of Sortable's templates (objects/sortable.hpp).
#pragma once

#include "redisson/objects/sortable.hpp"

namespace redisson {

template <class Derived, class Value>
template <class CompletionToken>
auto Sortable<Derived, Value>::async_read_sort(SortOptions options, CompletionToken&& token) const {
  const detail::ObjectPtr& object = self().object_;
  return detail::async_started<std::vector<Value>>(
      object, token,
      [options = std::move(options)](const detail::ObjectPtr& target, detail::Done<Reply>& done) {
        detail::start_sort(target, options, std::string(), done);
      },
      [codec = object->codec](const Reply& reply) {
        return detail::decode_elements<Value>(*codec, reply);
      });
}

template <class Derived, class Value>
template <class CompletionToken>
auto Sortable<Derived, Value>::async_sort_to(std::string destination, SortOptions options,
                                             CompletionToken&& token) const {
  return detail::async_started<std::int64_t>(
      self().object_, token,
      [options = std::move(options), destination = std::move(destination)](
          const detail::ObjectPtr& target, detail::Done<Reply>& done) {
        if (destination.empty()) {
          detail::throw_invalid_argument("sort_to: the destination must not be empty");
        }
        detail::start_sort(target, options, destination, done);
      },
      &detail::reply_integer);
}

template <class Derived, class Value>
std::vector<Value> Sortable<Derived, Value>::read_sort(SortOptions options) const {
  return async_read_sort(std::move(options), detail::blocking("read_sort", self().name()));
}

template <class Derived, class Value>
std::int64_t Sortable<Derived, Value>::sort_to(std::string destination, SortOptions options) const {
  return async_sort_to(std::move(destination), std::move(options),
                       detail::blocking("sort_to", self().name()));
}

}  // namespace redisson
