// The bodies of BlockingPops, BlockingDeque's templates (objects/blocking_queue.hpp).
#pragma once

#include "redisson/objects/blocking_queue.hpp"

namespace redisson::detail {

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_take(CompletionToken&& token) {
  return pop<T>(token, &Popped::popped_value, "BLPOP", {}, std::nullopt, "take");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll(std::chrono::milliseconds wait, CompletionToken&& token) {
  return pop<std::optional<T>>(token, &Popped::popped_optional, "BLPOP", {}, wait, "poll");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll_from_any(std::chrono::milliseconds wait,
                                             std::vector<std::string> other_queues,
                                             CompletionToken&& token) {
  return pop<std::optional<std::pair<std::string, T>>>(
      token, &Popped::popped_entry, "BLPOP", std::move(other_queues), wait, "poll_from_any");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll_last_and_offer_first_to(const std::string& destination,
                                                            std::chrono::milliseconds wait,
                                                            CompletionToken&& token) {
  return moved<std::optional<T>>(token, this->template value_reader<T>(), destination,
                                 ListEnd::tail, ListEnd::head, wait,
                                 "poll_last_and_offer_first_to");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_take_last_and_offer_first_to(const std::string& destination,
                                                            CompletionToken&& token) {
  return moved<T>(token, &Popped::moved_value, destination, ListEnd::tail, ListEnd::head,
                  std::nullopt, "take_last_and_offer_first_to");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_drain(std::int64_t max_elements, CompletionToken&& token) {
  return this->async_poll(max_elements, token);
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll_first_from_any(std::chrono::milliseconds wait,
                                                   std::int64_t count,
                                                   std::vector<std::string> other_queues,
                                                   CompletionToken&& token) {
  return multi_pop(token, std::move(other_queues), "LEFT", count, wait, "poll_first_from_any");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                  std::int64_t count,
                                                  std::vector<std::string> other_queues,
                                                  CompletionToken&& token) {
  return multi_pop(token, std::move(other_queues), "RIGHT", count, wait, "poll_last_from_any");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                  std::vector<std::string> other_queues,
                                                  CompletionToken&& token) {
  return pop<std::optional<std::pair<std::string, T>>>(
      token, &Popped::popped_entry, "BRPOP", std::move(other_queues), wait, "poll_last_from_any");
}

template <class Base>
template <class CompletionToken>
auto BlockingPops<Base>::multi_pop(CompletionToken&& token, std::vector<std::string> others,
                                   const char* end, std::int64_t count,
                                   std::chrono::milliseconds wait, const char* operation) const {
  return detail::async_blocking<std::optional<std::pair<std::string, std::vector<T>>>>(
      this->object_, token,
      [&] {
        return wait_first_multi_pop("BLMPOP", this->name(), others, end, count, wait, operation);
      },
      with_codec(&Popped::popped_entries));
}

template <class Base>
template <class R, class CompletionToken, class Convert>
auto BlockingPops<Base>::pop(CompletionToken&& token, Convert convert, const char* verb,
                             std::vector<std::string> others,
                             std::optional<std::chrono::milliseconds> wait,
                             const char* operation) const {
  return detail::async_blocking<R>(
      this->object_, token,
      [&] { return wait_last_command(verb, this->name(), std::move(others), wait, operation); },
      with_codec(convert));
}

template <class Base>
template <class R, class CompletionToken, class Convert>
auto BlockingPops<Base>::moved(CompletionToken&& token, Convert convert,
                               const std::string& destination, ListEnd from, ListEnd to,
                               std::optional<std::chrono::milliseconds> wait,
                               const char* operation) const {
  return detail::async_blocking<R>(
      this->object_, token,
      [&] {
        return wait_last_command("BLMOVE", this->name(),
                                 {destination, list_end_word(from), list_end_word(to)}, wait,
                                 operation);
      },
      with_codec(convert));
}

template <class Base>
template <class Convert>
auto BlockingPops<Base>::with_codec(Convert convert) const {
  if constexpr (std::is_invocable_v<Convert, const Codec&, const Reply&>) {
    return
        [codec = this->codec_ptr(), convert](const Reply& reply) { return convert(*codec, reply); };
  } else {
    return convert;
  }
}

}  // namespace redisson::detail

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto BlockingDeque<T>::async_take_last(CompletionToken&& token) {
  return this->template pop<T>(token, &Base::Popped::popped_value, "BRPOP", {}, std::nullopt,
                               "take_last");
}

template <JavaValue T>
template <class CompletionToken>
auto BlockingDeque<T>::async_poll_last(std::chrono::milliseconds wait, CompletionToken&& token) {
  return this->template pop<std::optional<T>>(token, &Base::Popped::popped_optional, "BRPOP", {},
                                              wait, "poll_last");
}

template <JavaValue T>
template <class CompletionToken>
auto BlockingDeque<T>::async_move(const std::string& destination, ListEnd from, ListEnd to,
                                  std::chrono::milliseconds wait, CompletionToken&& token) {
  return this->template moved<std::optional<T>>(token, this->template value_reader<T>(),
                                                destination, from, to, wait, "move");
}

}  // namespace redisson
