// redisson::PriorityQueue, PriorityBlockingQueue, PriorityDeque and PriorityBlockingDeque: Java
// Redisson's RPriorityQueue family, a Redis list kept sorted (detail::SortedList).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/element_subscription.hpp"
#include "redisson/listener.hpp"
#include "redisson/objects/deque.hpp"
#include "redisson/objects/sorted_list.hpp"

namespace redisson {

/// A queue of T whose head is always its least element by `Compare`: Java Redisson's
/// RPriorityQueue on the Redis list `name`, sorted ascending, with Redisson's keys (the RLock
/// `redisson_sortedset_lock:{name}` around every write, the comparator name in
/// `{name}:redisson_sortedset_comparator`), so C++ and Java processes share one queue when
/// their orders agree (std::less on integers and strings is Java's natural order).
///
/// `comparator_name`: the name of the order this handle's Compare implements, as stored in the
/// comparator key (for a Java comparator, its "<class>:<signature>" as Java wrote it; empty:
/// natural order). A write checks it against the stored one (see detail::SortedList).
///
/// Reads are ListBase's (get, index_of, contains, size, range, read_all, values: no lock);
/// offer, poll and the removals take the lock, as Redisson does. Costs: detail::SortedList.
template <JavaValue T, class Compare = std::less<T>>
class PriorityQueue : public detail::SortedList<T, Compare> {
  using Base = detail::SortedList<T, Compare>;

 public:
  /// A handle on the queue `name`; sends nothing. `codec` null: the client's default codec.
  PriorityQueue(const Client& client, std::string name, CodecPtr codec = nullptr,
                Compare compare = Compare(), std::string comparator_name = {})
      : PriorityQueue(client, std::move(name), std::move(codec), "PriorityQueue",
                      std::move(compare), std::move(comparator_name)) {}

  /// Inserts `value` at its place by the Compare, after the elements equal to it; true.
  bool add(const T& value) { return this->insert(value, false); }
  /// As add().
  bool offer(const T& value) { return this->insert(value, false); }
  /// add() of each value in turn; true if any was added.
  bool add_all(const std::vector<T>& values) { return this->insert_all(values, false); }
  /// Takes the least element; nullopt when the queue is empty (it does not wait).
  std::optional<T> poll() { return this->locked_pop("LPOP", "poll"); }
  /// Takes up to `count` (>= 1) of the least elements, least first.
  std::vector<T> poll(std::int64_t count) { return this->locked_pop("LPOP", count, "poll"); }
  /// The least element, left in the queue; nullopt when empty.
  std::optional<T> peek() const { return this->get(0); }
  /// Moves the greatest element to the head of the list `destination` (RPOPLPUSH under the
  /// lock) and returns it; nullopt when this queue is empty.
  std::optional<T> poll_last_and_offer_first_to(const std::string& destination) {
    return this->locked_move_last(destination);
  }
  /// Names the order of the queue if none is named yet (SETNX of the comparator key; Java
  /// writes "<class>:<signature>"); true if it was set.
  bool try_set_comparator(const std::string& comparator_name) {
    return this->comparator_holder_.set_if_absent(comparator_name);
  }

 protected:
  PriorityQueue(const Client& client, std::string name, CodecPtr codec, const char* kind,
                Compare compare, std::string comparator_name)
      : Base(client, std::move(name), std::move(codec), kind, detail::ComparatorKey::suffixed,
             std::move(compare), std::move(comparator_name)) {}

 private:
  // The lock-free list writes of the bases would break the order Java relies on: hidden.
  using Base::async_remove;
  using Base::async_remove_all;
  using Base::async_retain_all;
};

namespace detail {

/// What the blocking priority queues add: waiting for an element. Redisson waits by polling
/// (lock, pop, unlock, then a random pause of up to 2 s: no BLPOP, as a pop must respect the
/// lock). Here a waiter pops only while no writer holds the lock (one script), and between
/// tries sleeps until the lock's release message: every offer, Java's too, unlocks and so
/// publishes one, which wakes the waiter as the element arrives (re-checking each second in
/// case a message was lost). See detail::start_sorted_list_take.
template <class Base>
class PriorityWaits : public Base {
 public:
  using T = typename Base::value_type;
  using Base::poll;
  using Base::poll_last_and_offer_first_to;

  /// Takes the least element, waiting as long as it takes for one.
  template <class CompletionToken>
  auto async_take(CompletionToken&& token) {
    return this->template waited<T>(token, {}, std::nullopt, "take");
  }
  /// Takes the least element, waiting up to `wait` for one; nullopt when none came. A negative
  /// wait is errc::invalid_argument.
  template <class CompletionToken>
  auto async_poll(std::chrono::milliseconds wait, CompletionToken&& token) {
    return this->template waited<std::optional<T>>(token, {}, wait, "poll");
  }
  /// Moves the greatest element to the head of `destination` (RPOPLPUSH; on a Cluster, in the
  /// same slot), waiting up to `wait` for one; the element, or nullopt.
  template <class CompletionToken>
  auto async_poll_last_and_offer_first_to(const std::string& destination,
                                          std::chrono::milliseconds wait, CompletionToken&& token) {
    return this->template waited<std::optional<T>>(token, {false, destination}, wait,
                                                   "poll_last_and_offer_first_to");
  }
  /// As async_poll_last_and_offer_first_to, waiting as long as it takes.
  template <class CompletionToken>
  auto async_take_last_and_offer_first_to(const std::string& destination, CompletionToken&& token) {
    return this->template waited<T>(token, {false, destination}, std::nullopt,
                                    "take_last_and_offer_first_to");
  }

  /// As add(): the queue is unbounded, so it never waits.
  void put(const T& value) { this->add(value); }
  /// Takes the least element, waiting as long as it takes for one.
  T take() { return async_take(this->blocking("take")); }
  /// Takes the least element, waiting up to `wait` for one; nullopt when none came. A negative
  /// wait is errc::invalid_argument.
  std::optional<T> poll(std::chrono::milliseconds wait) {
    return async_poll(wait, this->blocking("poll"));
  }
  /// Moves the greatest element to the head of `destination`, waiting up to `wait` for one.
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
  /// Calls `consumer` with every element this client takes from the head (the least) from now
  /// on: a loop of the waiting take above, on the I/O thread, whose next take starts when the
  /// consumer has returned, on the client's listener threads (one subscription's calls in
  /// order; what the consumer throws goes to Config::error_handler). Java's subscribeOnElements.
  /// Returns the id for unsubscribe.
  ListenerId subscribe_on_elements(std::function<void(T)> consumer) {
    return detail::subscribe_elements<T>(this->object_, detail::ElementPop::sorted_first,
                                         std::move(consumer));
  }
  /// Stops the subscription `id`; false when it is not one of this client's. No consumer call
  /// starts after it returns; an element taken as it stopped goes back to the end it came from
  /// (LPUSH or RPUSH, without the lock: in its place unless a writer put one beyond it meanwhile).
  bool unsubscribe(ListenerId id) { return detail::remove_element_subscription(this->object_, id); }
  /// Takes every element at once (under the lock) and appends them to `into`; how many.
  std::int64_t drain_to(std::vector<T>& into) {
    return drain_to(into, std::numeric_limits<std::int64_t>::max());
  }
  /// Takes up to `max_elements` of the least elements and appends them to `into`; how many
  /// (0, nothing sent, when max_elements < 1, as Java).
  std::int64_t drain_to(std::vector<T>& into, std::int64_t max_elements) {
    if (max_elements < 1) return 0;
    auto drained = this->locked_pop("LPOP", max_elements, "drain_to");
    into.insert(into.end(), std::make_move_iterator(drained.begin()),
                std::make_move_iterator(drained.end()));
    return static_cast<std::int64_t>(drained.size());
  }
  /// Java's Integer.MAX_VALUE: the queue is unbounded.
  static constexpr std::int64_t remaining_capacity() noexcept {
    return std::numeric_limits<std::int32_t>::max();
  }

 protected:
  using Base::Base;
};

}  // namespace detail

/// A PriorityQueue whose consumers can wait: Java Redisson's RPriorityBlockingQueue (the same
/// keys). take() and poll(wait) wait as detail::PriorityWaits says.
template <JavaValue T, class Compare = std::less<T>>
class PriorityBlockingQueue : public detail::PriorityWaits<PriorityQueue<T, Compare>> {
  using Base = detail::PriorityWaits<PriorityQueue<T, Compare>>;

 public:
  /// A handle on the queue `name`; sends nothing. `codec` null: the client's default codec.
  PriorityBlockingQueue(const Client& client, std::string name, CodecPtr codec = nullptr,
                        Compare compare = Compare(), std::string comparator_name = {})
      : Base(client, std::move(name), std::move(codec), "PriorityBlockingQueue", std::move(compare),
             std::move(comparator_name)) {}
};

/// A PriorityQueue that is also taken from its tail (the greatest element): Java Redisson's
/// RPriorityDeque (the same keys). As in Redisson, nothing is put at an end (the order decides
/// where an element goes: add() or offer()).
template <JavaValue T, class Compare = std::less<T>>
class PriorityDeque : public PriorityQueue<T, Compare> {
  using Base = PriorityQueue<T, Compare>;

 public:
  /// A handle on the deque `name`; sends nothing. `codec` null: the client's default codec.
  PriorityDeque(const Client& client, std::string name, CodecPtr codec = nullptr,
                Compare compare = Compare(), std::string comparator_name = {})
      : PriorityDeque(client, std::move(name), std::move(codec), "PriorityDeque",
                      std::move(compare), std::move(comparator_name)) {}

  /// Takes the least element; nullopt when empty.
  std::optional<T> poll_first() { return this->poll(); }
  /// Takes the greatest element (RPOP under the lock); nullopt when empty.
  std::optional<T> poll_last() { return this->locked_pop("RPOP", "poll_last"); }
  /// Takes up to `count` (>= 1) of the greatest elements, greatest first.
  std::vector<T> poll_last(std::int64_t count) {
    return this->locked_pop("RPOP", count, "poll_last");
  }
  /// The least element, left in place; nullopt when empty.
  std::optional<T> peek_first() const { return this->get(0); }
  /// The greatest element, left in place; nullopt when empty.
  std::optional<T> peek_last() const { return this->get(-1); }
  /// Removes the first element the Compare finds equal to `value`; true if there was one.
  bool remove_first_occurrence(const T& value) { return this->remove(value); }
  /// Removes the last element equal (as bytes) to `value`, under the lock; true if there was
  /// one.
  bool remove_last_occurrence(const T& value) {
    std::lock_guard<Lock> guard(this->lock_);
    return this->list_.remove(value, -1) > 0;
  }
  /// Moves the element at this deque's `from` end (head: the least) to the `to` end of the list
  /// `destination` (LMOVE under the lock; on a Cluster, in the same slot) and returns it;
  /// nullopt when this one is empty.
  std::optional<T> move(const std::string& destination, ListEnd from, ListEnd to) {
    return this->locked_move(destination, detail::list_end_word(from), detail::list_end_word(to),
                             "move");
  }
  /// The elements greatest first (Java's descendingIterator), read at once.
  std::vector<T> read_all_descending() const {
    auto all = this->read_all();
    return {std::make_move_iterator(all.rbegin()), std::make_move_iterator(all.rend())};
  }

 protected:
  PriorityDeque(const Client& client, std::string name, CodecPtr codec, const char* kind,
                Compare compare, std::string comparator_name)
      : Base(client, std::move(name), std::move(codec), kind, std::move(compare),
             std::move(comparator_name)) {}
};

/// A PriorityDeque whose consumers can wait at either end: Java Redisson's
/// RPriorityBlockingDeque (the same keys). Waits as detail::PriorityWaits says.
template <JavaValue T, class Compare = std::less<T>>
class PriorityBlockingDeque : public detail::PriorityWaits<PriorityDeque<T, Compare>> {
  using Base = detail::PriorityWaits<PriorityDeque<T, Compare>>;

 public:
  /// A handle on the deque `name`; sends nothing. `codec` null: the client's default codec.
  PriorityBlockingDeque(const Client& client, std::string name, CodecPtr codec = nullptr,
                        Compare compare = Compare(), std::string comparator_name = {})
      : Base(client, std::move(name), std::move(codec), "PriorityBlockingDeque", std::move(compare),
             std::move(comparator_name)) {}

  using Base::poll_first;
  using Base::poll_last;
  /// Takes the greatest element, waiting as long as it takes.
  template <class CompletionToken>
  auto async_take_last(CompletionToken&& token) {
    return this->template waited<T>(token, {true, {}}, std::nullopt, "take_last");
  }
  /// Takes the greatest element, waiting up to `wait`; nullopt when none came.
  template <class CompletionToken>
  auto async_poll_last(std::chrono::milliseconds wait, CompletionToken&& token) {
    return this->template waited<std::optional<T>>(token, {true, {}}, wait, "poll_last");
  }
  /// Takes the least element, waiting as long as it takes.
  T take_first() { return this->take(); }
  /// Takes the greatest element, waiting as long as it takes.
  T take_last() { return async_take_last(this->blocking("take_last")); }
  /// Takes the least element, waiting up to `wait`; nullopt when none came.
  std::optional<T> poll_first(std::chrono::milliseconds wait) { return this->poll(wait); }
  /// Takes the greatest element, waiting up to `wait`; nullopt when none came.
  std::optional<T> poll_last(std::chrono::milliseconds wait) {
    return async_poll_last(wait, this->blocking("poll_last"));
  }
  /// As subscribe_on_elements (the least element each time): Java's subscribeOnFirstElements.
  ListenerId subscribe_on_first_elements(std::function<void(T)> consumer) {
    return this->subscribe_on_elements(std::move(consumer));
  }
  /// As subscribe_on_elements at the tail (the greatest element each time): Java's
  /// subscribeOnLastElements.
  ListenerId subscribe_on_last_elements(std::function<void(T)> consumer) {
    return detail::subscribe_elements<T>(this->object_, detail::ElementPop::sorted_last,
                                         std::move(consumer));
  }
};

}  // namespace redisson
