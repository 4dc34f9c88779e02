// The bodies of DelayedQueue's templates (objects/delayed_queue.hpp).
#pragma once

#include "redisson/objects/delayed_queue.hpp"

namespace redisson {

template <JavaValue T>
template <class Rep, class Period, class CompletionToken>
auto DelayedQueue<T>::async_offer(const T& value, std::chrono::duration<Rep, Period> delay,
                                  CompletionToken&& token) {
  const auto delay_ms = std::chrono::duration_cast<std::chrono::milliseconds>(delay).count();
  return started<void>(token, &detail::reply_ignore, &start_offer, destination_,
                       static_cast<std::int64_t>(delay_ms), value);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_remove(const T& value, CompletionToken&& token) {
  return started<bool>(token, &detail::reply_flag, &start_remove, destination_, value);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_size(CompletionToken&& token) const {
  return on_key<std::int64_t>(token, &detail::reply_integer, "LLEN");
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_peek(CompletionToken&& token) const {
  auto read_head = [codec = object_->codec](const Reply& reply) -> std::optional<T> {
    if (reply.is_null()) return std::nullopt;
    if (!reply.is_string()) detail::throw_unexpected_reply("a delayed element", reply);
    return from_value<T>(codec->decode(detail::delayed_element_value(reply.str)));
  };
  return on_key<std::optional<T>>(token, std::move(read_head), "LINDEX", std::int64_t{0});
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_read_all(CompletionToken&& token) const {
  auto read = [codec = object_->codec](const Reply& reply) {
    return detail::decode_delayed_elements<T>(*codec, reply);
  };
  return on_key<std::vector<T>>(token, std::move(read), "LRANGE", std::int64_t{0},
                                std::int64_t{-1});
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_contains(const T& value, CompletionToken&& token) const {
  return async_contains_all(std::vector<T>{value}, std::forward<CompletionToken>(token));
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_contains_all(std::vector<T> values, CompletionToken&& token) const {
  return detail::async_with_encoded<bool>(
      object_, token, std::move(values),
      [destination = destination_](const detail::ObjectPtr& object,
                                   const std::vector<std::string>& encoded,
                                   detail::Done<Reply>& done) {
        detail::start_delayed_contains_all(object, destination, encoded, done);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_poll(CompletionToken&& token) {
  auto first = [codec = object_->codec](const Reply& reply) -> std::optional<T> {
    auto values = detail::decode_elements<T>(*codec, reply);
    if (values.empty()) return std::nullopt;
    return std::move(values.front());
  };
  return started<std::optional<T>>(token, std::move(first), &detail::start_delayed_poll,
                                   destination_, std::int64_t{1});
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_poll(std::int64_t count, CompletionToken&& token) {
  return started<std::vector<T>>(token, this->template values_reader<T>(),
                                 &detail::start_delayed_poll, destination_, count);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_poll_last_and_offer_first_to(const std::string& queue,
                                                         CompletionToken&& token) {
  return started<std::optional<T>>(token, this->template value_reader<T>(),
                                   &detail::start_delayed_poll_last_to, destination_, queue);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_remove_all(std::vector<T> values, CompletionToken&& token) {
  return detail::async_with_encoded<std::int64_t>(
      object_, token, std::move(values),
      [destination = destination_](const detail::ObjectPtr& object,
                                   const std::vector<std::string>& encoded,
                                   detail::Done<Reply>& done) {
        detail::start_delayed_remove_matching(object, destination, false, encoded, done);
      },
      &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto DelayedQueue<T>::async_retain_all(std::vector<T> values, CompletionToken&& token) {
  return detail::async_with_encoded<bool>(
      object_, token, std::move(values),
      [destination = destination_](const detail::ObjectPtr& object,
                                   const std::vector<std::string>& encoded,
                                   detail::Done<Reply>& done) {
        detail::start_delayed_remove_matching(object, destination, true, encoded, done);
      },
      &detail::reply_flag);
}

}  // namespace redisson
