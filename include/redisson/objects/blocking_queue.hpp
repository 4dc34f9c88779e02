// redisson::BlockingQueue<T> and BlockingDeque<T>: queues whose consumers wait for an element
// (BLPOP, BRPOP, BLMOVE), Java Redisson's RBlockingQueue and RBlockingDeque.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/blocking_op.hpp"
#include "redisson/detail/element_subscription.hpp"
#include "redisson/objects/deque.hpp"
#include "redisson/objects/queue.hpp"

namespace redisson {

namespace detail {

/// How the blocking pops' replies read as T: BLPOP/BRPOP's [queue, element], BLMPOP's [queue,
/// [elements...]], BLMOVE's element (nil: nothing came). Shared by every blocking queue.
template <JavaValue T>
struct PoppedReplies {
  /// [queue, [elements...]] from BLMPOP, or nil.
  static std::optional<std::pair<std::string, std::vector<T>>> popped_entries(const Codec& codec,
                                                                              const Reply& reply) {
    if (reply.is_null()) return std::nullopt;
    if (reply.elements.size() != 2 || !reply.elements[0].is_string()) {
      throw_unexpected_reply("[queue, [elements]]", reply);
    }
    return std::pair<std::string, std::vector<T>>{reply.elements[0].str,
                                                  decode_elements<T>(codec, reply.elements[1])};
  }
  /// [queue, element] from BLPOP/BRPOP, or nil.
  static std::optional<std::pair<std::string, T>> popped_entry(const Codec& codec,
                                                               const Reply& reply) {
    if (reply.is_null()) return std::nullopt;
    if (reply.elements.size() != 2 || !reply.elements[0].is_string()) {
      throw_unexpected_reply("[queue, element]", reply);
    }
    auto value = decode_reply<T>(codec, reply.elements[1]);
    if (!value) throw_unexpected_reply("an element", reply);
    return std::pair<std::string, T>{reply.elements[0].str, std::move(*value)};
  }
  static std::optional<T> popped_optional(const Codec& codec, const Reply& reply) {
    auto entry = popped_entry(codec, reply);
    if (!entry) return std::nullopt;
    return std::move(entry->second);
  }
  static T popped_value(const Codec& codec, const Reply& reply) {
    auto value = popped_optional(codec, reply);
    if (!value) throw_unexpected_reply("an element", reply);
    return std::move(*value);
  }
  /// BLMOVE's element (waited for without end: never nil).
  static T moved_value(const Codec& codec, const Reply& reply) {
    auto value = decode_reply<T>(codec, reply);
    if (!value) throw_unexpected_reply("an element", reply);
    return std::move(*value);
  }
};

/// The waiting operations every blocking queue has, on top of `Base` (Queue<T> or Deque<T>).
///
/// Each runs on one of the client's dedicated blocking connections (Config::
/// blocking_connections), never on the shared one, with the server's own timeout: a wait that
/// ends with nothing is the server's nil, so no element is handed out to a caller that stopped
/// waiting. Across a reconnect, a server restart or a failover the command is sent again with
/// what is left of its wait; an element is lost only if the server handed it out on a
/// connection that broke before its reply arrived. An Asio cancellation (`co_await (take() ||
/// timer)`) ends the wait on the server (CLIENT UNBLOCK).
template <class Base>
class BlockingPops : public Base {
 public:
  using T = typename Base::value_type;
  using Popped = PoppedReplies<T>;
  using Base::async_poll;
  using Base::poll;
  using Base::poll_last_and_offer_first_to;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_take(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll(std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_from_any(std::chrono::milliseconds wait, std::vector<std::string> other_queues,
                           CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_and_offer_first_to(const std::string& destination,
                                          std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_take_last_and_offer_first_to(const std::string& destination, CompletionToken&& token);
  template <class CompletionToken>
  auto async_drain(std::int64_t max_elements, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                 std::vector<std::string> other_queues, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait, std::int64_t count,
                                std::vector<std::string> other_queues, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_from_any(std::chrono::milliseconds wait,
                                std::vector<std::string> other_queues, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Appends `value` at the tail (the queue is unbounded: it never waits); returns the length.
  std::int64_t put(const T& value) { return this->offer(value); }
  /// Takes the head, waiting as long as it takes for one (BLPOP).
  T take() { return async_take(this->blocking("take")); }
  /// Takes the head, waiting up to `wait` for one (BLPOP with that timeout, to the
  /// millisecond); nullopt when none came. A negative wait is errc::invalid_argument.
  std::optional<T> poll(std::chrono::milliseconds wait) {
    return async_poll(wait, this->blocking("poll"));
  }
  /// Takes the head of this queue or, when it is empty, of the first of `other_queues` that
  /// has one (one BLPOP over all of them), waiting up to `wait`; the queue's name and the
  /// element, or nullopt. On a Cluster the queues must share a hash slot (name them with one
  /// {tag}), else the server refuses (errc::server_error, CROSSSLOT).
  std::optional<std::pair<std::string, T>> poll_from_any(std::chrono::milliseconds wait,
                                                         std::vector<std::string> other_queues) {
    return async_poll_from_any(wait, std::move(other_queues), this->blocking("poll_from_any"));
  }
  /// Takes up to `count` (>= 1) elements from the head of this queue or, when it is empty, of
  /// the first of `other_queues` that has some (one BLMPOP LEFT), waiting up to `wait`: that
  /// queue's name and its elements, or nullopt. Java's pollFirstFromAny answers the same as a
  /// one-entry map. On a Cluster the queues must share a hash slot (CROSSSLOT otherwise).
  std::optional<std::pair<std::string, std::vector<T>>> poll_first_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_queues) {
    return async_poll_first_from_any(wait, count, std::move(other_queues),
                                     this->blocking("poll_first_from_any"));
  }
  /// As poll_first_from_any from the tails (BLMPOP RIGHT).
  std::optional<std::pair<std::string, std::vector<T>>> poll_last_from_any(
      std::chrono::milliseconds wait, std::int64_t count, std::vector<std::string> other_queues) {
    return async_poll_last_from_any(wait, count, std::move(other_queues),
                                    this->blocking("poll_last_from_any"));
  }
  /// Takes the tail of this queue or of the first of `other_queues` that has one (one BRPOP),
  /// waiting up to `wait`: the queue's name and the element, or nullopt (Java's
  /// pollLastFromAnyWithName).
  std::optional<std::pair<std::string, T>> poll_last_from_any(
      std::chrono::milliseconds wait, std::vector<std::string> other_queues) {
    return async_poll_last_from_any(wait, std::move(other_queues),
                                    this->blocking("poll_last_from_any"));
  }
  /// Calls `consumer` with every element this client takes from the head from now on: a loop
  /// of take() (BLPOP on one of the client's blocking connections, held while subscribed) whose
  /// next take starts when the consumer has returned, on the client's listener threads (one
  /// subscription's calls in order; what the consumer throws goes to Config::error_handler).
  /// Java's subscribeOnElements. Returns the id for unsubscribe.
  ListenerId subscribe_on_elements(std::function<void(T)> consumer) {
    return subscribe(ElementPop::first, std::move(consumer));
  }
  /// Stops the subscription `id`; false when it is not one of this client's. No consumer call
  /// starts after it returns; an element popped as it stopped goes back to the head.
  bool unsubscribe(ListenerId id) { return remove_element_subscription(this->object_, id); }
  /// Moves the tail element to the head of the list `destination`, waiting up to `wait` for
  /// one (BLMOVE RIGHT LEFT; on a Cluster, in the same slot); the element, or nullopt.
  std::optional<T> poll_last_and_offer_first_to(const std::string& destination,
                                                std::chrono::milliseconds wait) {
    return async_poll_last_and_offer_first_to(destination, wait,
                                              this->blocking("poll_last_and_offer_first_to"));
  }
  /// As poll_last_and_offer_first_to, waiting as long as it takes.
  T take_last_and_offer_first_to(const std::string& destination) {
    return async_take_last_and_offer_first_to(destination,
                                              this->blocking("take_last_and_offer_first_to"));
  }
  /// Takes up to `max_elements` (>= 1) from the head at once, without waiting (LPOP count),
  /// and appends them to `into`; returns how many.
  std::int64_t drain_to(std::vector<T>& into, std::int64_t max_elements) {
    auto drained = async_drain(max_elements, this->blocking("drain_to"));
    into.insert(into.end(), std::make_move_iterator(drained.begin()),
                std::make_move_iterator(drained.end()));
    return static_cast<std::int64_t>(drained.size());
  }

 protected:
  using Base::Base;

  /// `verb name [others...] <wait>`: BLPOP or BRPOP over this queue and `others`.
  template <class R, class CompletionToken, class Convert>
  auto pop(CompletionToken&& token, Convert convert, const char* verb,
           std::vector<std::string> others, std::optional<std::chrono::milliseconds> wait,
           const char* operation) const;
  ListenerId subscribe(ElementPop pop, std::function<void(T)> consumer) {
    return subscribe_elements<T>(this->object_, pop, std::move(consumer));
  }
  /// BLMPOP <wait> n name others... LEFT|RIGHT COUNT count.
  template <class CompletionToken>
  auto multi_pop(CompletionToken&& token, std::vector<std::string> others, const char* end,
                 std::int64_t count, std::chrono::milliseconds wait, const char* operation) const;
  /// BLMOVE name destination <from> <to> <wait>.
  template <class R, class CompletionToken, class Convert>
  auto moved(CompletionToken&& token, Convert convert, const std::string& destination, ListEnd from,
             ListEnd to, std::optional<std::chrono::milliseconds> wait,
             const char* operation) const;

  /// Readers of BLPOP's [queue, element] that need the codec: bound to it here.
  template <class Convert>
  auto with_codec(Convert convert) const;
};

}  // namespace detail

/// A FIFO queue of T on the Redis list `name` whose consumers can wait: Java Redisson's
/// RBlockingQueue (the same list as Queue, so Java and C++ producers and consumers mix). A work
/// queue for many processes: producers offer(), consumers take() or poll(wait).
template <JavaValue T>
class BlockingQueue : public detail::BlockingPops<Queue<T>> {
 public:
  /// A handle on the queue `name`; sends nothing. `codec` null: the client's default codec.
  BlockingQueue(const Client& client, std::string name, CodecPtr codec = nullptr)
      : detail::BlockingPops<Queue<T>>(client, std::move(name), std::move(codec), "BlockingQueue") {
  }
};

/// A double-ended queue of T whose consumers can wait at either end: Java Redisson's
/// RBlockingDeque. take()/poll(wait) wait at the head, as a BlockingQueue.
template <JavaValue T>
class BlockingDeque : public detail::BlockingPops<Deque<T>> {
  using Base = detail::BlockingPops<Deque<T>>;

 public:
  /// A handle on the deque `name`; sends nothing. `codec` null: the client's default codec.
  BlockingDeque(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "BlockingDeque") {}

  using Base::async_move;
  using Base::async_poll_last;
  using Base::async_poll_last_from_any;
  using Base::move;
  using Base::poll_last;
  using Base::poll_last_from_any;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_take_last(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(std::chrono::milliseconds wait, CompletionToken&& token);
  template <class CompletionToken>
  auto async_move(const std::string& destination, ListEnd from, ListEnd to,
                  std::chrono::milliseconds wait, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Takes the head, waiting as long as it takes (BLPOP).
  T take_first() { return this->take(); }
  /// Takes the tail, waiting as long as it takes (BRPOP).
  T take_last() { return async_take_last(this->blocking("take_last")); }
  /// Takes the head, waiting up to `wait`; nullopt when none came.
  std::optional<T> poll_first(std::chrono::milliseconds wait) { return this->poll(wait); }
  using Base::poll_first;
  /// Takes the tail, waiting up to `wait` (BRPOP); nullopt when none came.
  std::optional<T> poll_last(std::chrono::milliseconds wait) {
    return async_poll_last(wait, this->blocking("poll_last"));
  }
  /// subscribe_on_elements: every element this client takes from the head (BLPOP loop).
  ListenerId subscribe_on_first_elements(std::function<void(T)> consumer) {
    return this->subscribe(detail::ElementPop::first, std::move(consumer));
  }
  /// As subscribe_on_first_elements from the tail (a BRPOP loop; an element popped as it
  /// stopped goes back to the tail).
  ListenerId subscribe_on_last_elements(std::function<void(T)> consumer) {
    return this->subscribe(detail::ElementPop::last, std::move(consumer));
  }
  /// Moves one element from this deque's `from` end to the `to` end of the list `destination`,
  /// waiting up to `wait` for one (BLMOVE; on a Cluster, in the same slot); nullopt if none.
  std::optional<T> move(const std::string& destination, ListEnd from, ListEnd to,
                        std::chrono::milliseconds wait) {
    return async_move(destination, from, to, wait, this->blocking("move"));
  }
};

}  // namespace redisson

#include "redisson/objects/impl/blocking_queue.hpp"
