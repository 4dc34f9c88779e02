// The bodies of BoundedBlockingQueue's templates (objects/bounded_blocking_queue.hpp).
#pragma once

#include "redisson/objects/bounded_blocking_queue.hpp"

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_try_set_capacity(std::int64_t capacity,
                                                     CompletionToken&& token) {
  return detail::async_started<bool>(
      this->object_, token,
      [capacity](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        if (capacity <= 0) detail::throw_invalid_argument("the capacity must be positive");
        detail::start_bounded_queue_try_set_capacity(object, capacity, done);
      },
      &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_remaining_capacity(CompletionToken&& token) const {
  return detail::async_started<std::int64_t>(
      this->object_, token, &detail::start_bounded_queue_remaining, &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_offer(const T& value, CompletionToken&& token) {
  return offered<bool>(token, std::vector<T>{value}, std::chrono::milliseconds{0}, "offer");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_offer(const T& value, std::chrono::milliseconds wait,
                                          CompletionToken&& token) {
  return offered<bool>(token, std::vector<T>{value}, wait, "offer");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_put(const T& value, CompletionToken&& token) {
  return offered<void>(token, std::vector<T>{value}, std::nullopt, "put");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_add_all(std::vector<T> values, CompletionToken&& token) {
  return offered<bool>(token, std::move(values), std::chrono::milliseconds{0}, "add_all");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_peek(CompletionToken&& token) const {
  return detail::async_command<std::optional<T>>(
      this->object_, token,
      [&] {
        return Command{"LINDEX", this->name()}.arg(std::int64_t{0});
      },
      this->template value_reader<T>());
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll(CompletionToken&& token) {
  return detail::async_started<std::optional<T>>(
      this->object_, token,
      [](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        detail::start_bounded_queue_take(object, 1, done);
      },
      [codec = this->codec_ptr()](const Reply& reply) -> std::optional<T> {
        auto taken = detail::decode_elements<T>(*codec, reply);
        if (taken.empty()) return std::nullopt;
        return std::move(taken.front());
      });
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_drain(std::int64_t max_elements, CompletionToken&& token) {
  return detail::async_started<std::vector<T>>(
      this->object_, token,
      [max_elements](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
        if (max_elements < 0) detail::throw_invalid_argument("drain: max_elements must be >= 0");
        detail::start_bounded_queue_take(object, max_elements, done);
      },
      this->template values_reader<T>());
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll(std::chrono::milliseconds wait, CompletionToken&& token) {
  return taken<std::optional<T>>(
      token, detail::BoundedTake::keyed_element,
      [this, wait] { return detail::wait_last_command("BLPOP", this->name(), {}, wait, "poll"); },
      &Popped::popped_optional);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_take(CompletionToken&& token) {
  return taken<T>(
      token, detail::BoundedTake::keyed_element,
      [this] { return detail::wait_last_command("BLPOP", this->name(), {}, std::nullopt, "take"); },
      &Popped::popped_value);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll_from_any(std::chrono::milliseconds wait,
                                                  std::vector<std::string> other_queues,
                                                  CompletionToken&& token) {
  return taken<std::optional<std::pair<std::string, T>>>(
      token, detail::BoundedTake::keyed_element,
      [this, wait, others = std::move(other_queues)]() mutable {
        return detail::wait_last_command("BLPOP", this->name(), std::move(others), wait,
                                         "poll_from_any");
      },
      &Popped::popped_entry);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                       std::vector<std::string> other_queues,
                                                       CompletionToken&& token) {
  return taken<std::optional<std::pair<std::string, T>>>(
      token, detail::BoundedTake::keyed_element,
      [this, wait, others = std::move(other_queues)]() mutable {
        return detail::wait_last_command("BRPOP", this->name(), std::move(others), wait,
                                         "poll_last_from_any");
      },
      &Popped::popped_entry);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll_first_from_any(std::chrono::milliseconds wait,
                                                        std::int64_t count,
                                                        std::vector<std::string> other_queues,
                                                        CompletionToken&& token) {
  return multi_taken(token, wait, count, std::move(other_queues), "LEFT", "poll_first_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll_last_from_any(std::chrono::milliseconds wait,
                                                       std::int64_t count,
                                                       std::vector<std::string> other_queues,
                                                       CompletionToken&& token) {
  return multi_taken(token, wait, count, std::move(other_queues), "RIGHT", "poll_last_from_any");
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_poll_last_and_offer_first_to(const std::string& destination,
                                                                 std::chrono::milliseconds wait,
                                                                 CompletionToken&& token) {
  return taken<std::optional<T>>(
      token, detail::BoundedTake::element,
      [&] {
        return detail::wait_last_command("BLMOVE", this->name(), {destination, "RIGHT", "LEFT"},
                                         wait, "poll_last_and_offer_first_to");
      },
      [](const Codec& codec, const Reply& reply) { return detail::decode_reply<T>(codec, reply); });
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_take_last_and_offer_first_to(const std::string& destination,
                                                                 CompletionToken&& token) {
  return taken<T>(
      token, detail::BoundedTake::element,
      [&] {
        return detail::wait_last_command("BLMOVE", this->name(), {destination, "RIGHT", "LEFT"},
                                         std::nullopt, "take_last_and_offer_first_to");
      },
      &Popped::moved_value);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_remove(const T& value, CompletionToken&& token) {
  return removed<bool>(token, "first", std::vector<T>{value}, &detail::reply_flag);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_remove_all(std::vector<T> values, CompletionToken&& token) {
  return removed<std::int64_t>(token, "every", std::move(values), &detail::reply_integer);
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_retain_all(std::vector<T> values, CompletionToken&& token) {
  return removed<bool>(token, "retain", std::move(values),
                       [](const Reply& reply) { return detail::reply_integer(reply) > 0; });
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::async_clear(CompletionToken&& token) {
  return removed<void>(token, "clear", {}, [](const Reply&) {});
}

template <JavaValue T>
template <class R, class CompletionToken, class Build, class Convert>
auto BoundedBlockingQueue<T>::taken(CompletionToken&& token, detail::BoundedTake take, Build build,
                                    Convert convert) const {
  return detail::async_blocking_via<R>(
      this->object_, token, build,
      [codec = this->codec_ptr(), convert](const Reply& reply) { return convert(*codec, reply); },
      [take](const detail::ObjectState& object, detail::BlockingCommand command,
             detail::ReplyHandler handler, const detail::CancellationPtr& cancel) {
        detail::submit_bounded_take(object, take, std::move(command), std::move(handler), cancel);
      });
}

template <JavaValue T>
template <class CompletionToken>
auto BoundedBlockingQueue<T>::multi_taken(CompletionToken&& token, std::chrono::milliseconds wait,
                                          std::int64_t count, std::vector<std::string> others,
                                          const char* end, const char* operation) {
  return taken<std::optional<std::pair<std::string, std::vector<T>>>>(
      token, detail::BoundedTake::keyed_elements,
      [this, wait, count, others = std::move(others), end, operation] {
        return detail::wait_first_multi_pop("BLMPOP", this->name(), others, end, count, wait,
                                            operation);
      },
      &Popped::popped_entries);
}

template <JavaValue T>
template <class R, class CompletionToken>
auto BoundedBlockingQueue<T>::offered(CompletionToken&& token, std::vector<T> values,
                                      std::optional<std::chrono::milliseconds> wait,
                                      const char* operation) {
  // R is bool (whether the values went in) or void (put: it waits until they do).
  return detail::async_op<R>(
      this->object_->core, token,
      [object = this->object_, values = std::move(values), wait, operation](
          detail::Done<R> done, detail::CancellationPtr cancel) mutable {
        std::vector<std::string> encoded;
        try {
          if (wait) detail::checked_wait(*wait, operation);
          encoded.reserve(values.size());
          for (const auto& value : values) {
            encoded.push_back(detail::encode_value(*object->codec, value));
          }
        } catch (const error& failure) {
          return detail::fail<R>(done, detail::status_of_error(failure));
        }
        if (encoded.empty()) return detail::fail<R>(done, {});
        detail::start_bounded_queue_offer(
            object, std::move(encoded), wait, cancel,
            [done = std::move(done)](detail::Status status, const Reply& reply) mutable {
              if constexpr (std::is_void_v<R>) {
                done(std::move(status));
              } else {
                if (status) return done(std::move(status), false);
                done({}, reply.integer == 1);
              }
            });
      },
      this->object_->batch != nullptr);
}

template <JavaValue T>
template <class R, class CompletionToken, class Convert>
auto BoundedBlockingQueue<T>::removed(CompletionToken&& token, const char* mode,
                                      std::vector<T> values, Convert convert) {
  return detail::async_with_encoded<R>(
      this->object_, token, std::move(values),
      [mode](const detail::ObjectPtr& object, const std::vector<std::string>& encoded,
             detail::Done<Reply>& done) {
        detail::start_bounded_queue_remove(object, mode, encoded, done);
      },
      std::move(convert));
}

}  // namespace redisson
