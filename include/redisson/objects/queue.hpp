// redisson::Queue<T>: a FIFO queue on one Redis list, Java Redisson's RQueue.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/list_base.hpp"

namespace redisson {

namespace detail {

/// What Queue (with Deque and the blocking queues) and RingBuffer share on top of ListBase:
/// taking from the head and looking at it. Nothing here adds an element.
template <JavaValue T>
class QueueBase : public ListBase<T> {
 public:
  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_poll(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_peek(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll_last_and_offer_first_to(const std::string& destination, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Takes the head; nullopt when the queue is empty (it does not wait).
  std::optional<T> poll() { return async_poll(this->blocking("poll")); }
  /// Takes up to `count` (>= 1) elements from the head in one command (LPOP count).
  std::vector<T> poll(std::int64_t count) { return async_poll(count, this->blocking("poll")); }
  /// The head, left in the queue; nullopt when it is empty.
  std::optional<T> peek() const { return async_peek(this->blocking("peek")); }
  /// Moves the tail element to the head of the list `destination` (RPOPLPUSH; on a Cluster,
  /// in the same slot) and returns it; nullopt when this queue is empty.
  std::optional<T> poll_last_and_offer_first_to(const std::string& destination) {
    return async_poll_last_and_offer_first_to(destination,
                                              this->blocking("poll_last_and_offer_first_to"));
  }

 protected:
  using ListBase<T>::ListBase;
  /// LPOP/RPOP name: the element taken from that end, nullopt when the list is empty.
  template <class CompletionToken>
  auto pop_end(CompletionToken&& token, const char* verb);
  /// LPOP/RPOP name count: up to `count` elements taken from that end.
  template <class CompletionToken>
  auto pop_end(CompletionToken&& token, const char* verb, std::int64_t count);
};

}  // namespace detail

/// A first-in first-out queue of T on the Redis list `name`: offer() appends at the tail
/// (RPUSH), poll() takes from the head (LPOP), the layout of Java Redisson's RQueue, so a Java
/// producer and a C++ consumer (or the reverse) share one queue. Besides, it reads as a list
/// does (get(index), index_of, size, range, values(), remove(value): ListBase), but it has no
/// positional writes (those are List's). Each operation is one command; poll never waits
/// (BlockingQueue does).
template <JavaValue T>
class Queue : public detail::QueueBase<T> {
  using Base = detail::QueueBase<T>;

 public:
  /// A handle on the queue `name`; sends nothing. `codec` null: the client's default codec.
  Queue(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "Queue") {}

  // Appending at the tail (RPUSH): add(value), add_all(values), and their async forms.
  using Base::add;
  using Base::add_all;
  using Base::async_add;
  using Base::async_add_all;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_offer(const T& value, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Appends `value` at the tail; returns the queue's length after it.
  std::int64_t offer(const T& value) { return async_offer(value, this->blocking("offer")); }

 protected:
  /// For Deque and the blocking queues: `kind` names the type in errors.
  Queue(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : Base(client, std::move(name), std::move(codec), kind) {}
};

}  // namespace redisson

#include "redisson/objects/impl/queue.hpp"
