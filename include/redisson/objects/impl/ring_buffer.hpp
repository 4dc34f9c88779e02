// The bodies of RingBuffer's templates (objects/ring_buffer.hpp).
#pragma once

#include "redisson/objects/ring_buffer.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_try_set_capacity(std::int64_t capacity, CompletionToken&& token) {
  return detail::async_command<bool>(
      this->object_, token,
      [&] {
        if (capacity <= 0) detail::throw_invalid_argument("the capacity must be positive");
        return Command{"SETNX", detail::ring_buffer_capacity_key(this->name())}.arg(capacity);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_set_capacity(std::int64_t capacity, CompletionToken&& token) {
  return this->template started<std::int64_t>(token, &detail::reply_integer,
                                              &detail::start_ring_buffer_set_capacity, capacity);
}

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_capacity(CompletionToken&& token) const {
  return detail::async_command<std::int64_t>(
      this->object_, token,
      [&] {
        return Command{"GET", detail::ring_buffer_capacity_key(this->name())};
      },
      &detail::reply_counter);
}

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_add(const T& value, CompletionToken&& token) {
  return async_add_all(std::vector<T>{value}, token);
}

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_offer(const T& value, CompletionToken&& token) {
  return async_add(value, token);
}

template <JavaValue T>
template <class CompletionToken>
auto RingBuffer<T>::async_add_all(std::vector<T> values, CompletionToken&& token) {
  return detail::async_started<std::int64_t>(
      this->object_, token,
      [values = std::move(values)](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        std::vector<std::string> elements;
        elements.reserve(values.size());
        for (const auto& value : values) {
          elements.push_back(detail::encode_value(*object->codec, value));
        }
        detail::start_ring_buffer_add(object, elements, done);
      },
      &detail::ring_buffer_length);
}

}  // namespace redisson
