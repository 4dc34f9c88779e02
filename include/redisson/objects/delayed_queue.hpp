// redisson::DelayedQueue<T>: elements that reach a destination queue after a delay, Java
// Redisson's RDelayedQueue.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// The client's transfer task for `destination` (one per client and destination), started on
/// first use; it lives while a handle holds it.
std::shared_ptr<void> delay_transfer_of(const ObjectPtr& object, const std::string& destination);
/// The delayed queue's keys (its list and timeouts zset) named after `destination`.
std::string delayed_queue_name(const std::string& destination);
std::vector<std::string> delayed_queue_keys(const std::string& name);
inline constexpr ObjectHooks delayed_queue_hooks{.extra_keys = &delayed_queue_keys};
void start_delayed_offer(const ObjectPtr& object, const std::string& destination,
                         std::int64_t due_ms, const std::string& value, Done<Reply>& done);
void start_delayed_remove(const ObjectPtr& object, const std::string& destination,
                          const std::string& value, Done<Reply>& done);
/// delayed_queue_poll.lua: up to `count` (>= 1, else invalid_argument) values from the head.
void start_delayed_poll(const ObjectPtr& object, const std::string& destination, std::int64_t count,
                        Done<Reply>& done);
/// delayed_queue_poll_last_to.lua into the list `target` (same hash slot on a Cluster).
void start_delayed_poll_last_to(const ObjectPtr& object, const std::string& destination,
                                const std::string& target, Done<Reply>& done);
/// delayed_queue_contains_all.lua over the encoded values (none: 1, nothing sent).
void start_delayed_contains_all(const ObjectPtr& object, const std::string& destination,
                                const std::vector<std::string>& values, Done<Reply>& done);
/// delayed_queue_remove_matching.lua: removes the elements that are (`retain` false) or are not
/// one of `values`; the number removed (remove with none: 0, nothing sent).
void start_delayed_remove_matching(const ObjectPtr& object, const std::string& destination,
                                   bool retain, const std::vector<std::string>& values,
                                   Done<Reply>& done);
/// The value's bytes inside one waiting element (Redisson's framing taken off); an element
/// without that framing is errc::codec_error.
std::string delayed_element_value(const std::string& element);
/// A reply's waiting elements (LRANGE) as Ts: framing taken off, then the codec's decode.
template <class T>
std::vector<T> decode_delayed_elements(const Codec& codec, const Reply& reply) {
  std::vector<T> values;
  if (reply.is_null()) return values;
  if (!reply.is_aggregate()) throw_unexpected_reply("an array of delayed elements", reply);
  values.reserve(reply.elements.size());
  for (const auto& element : reply.elements) {
    if (!element.is_string()) throw_unexpected_reply("a delayed element", element);
    values.push_back(from_value<T>(codec.decode(delayed_element_value(element.str))));
  }
  return values;
}
}  // namespace detail

/// Elements of T offered with a delay, moved to the queue (a List, Queue or BlockingQueue named
/// `destination`) when it has passed: Java Redisson's RDelayedQueue, with its keys
/// (redisson_delay_queue:{destination}, a list of the waiting elements, and
/// redisson_delay_queue_timeout:{destination}, a zset of their due times in epoch ms) and its
/// element framing, so Java and C++ offer into, and transfer out of, the same delayed queue.
///
/// The transfer runs in every client that has a DelayedQueue handle on the destination, Java
/// or C++, whichever is alive: one task per client (started by the constructor, as Java's
/// getDelayedQueue starts it, and stopped with the last handle), woken by the channel
/// redisson_delay_queue_channel:{destination} and by a timer set for the next due time. An
/// element is moved once, by whichever client's script runs first. Due times are wall-clock
/// epoch milliseconds, as in Java: clients' clocks matter only for when an offer is due.
///
/// The value's bytes are the destination's codec: give both the same codec. Redisson marks
/// RDelayedQueue deprecated (for its reliable queue); the layout here is 3.52's.
template <JavaValue T>
class DelayedQueue : public Object {
 public:
  /// A delayed queue in front of the queue `destination`; starts this client's transfer task.
  DelayedQueue(const Client& client, std::string destination, CodecPtr codec = nullptr)
      : Object(client, detail::delayed_queue_name(destination), std::move(codec), "DelayedQueue",
               &detail::delayed_queue_hooks),
        destination_(std::move(destination)),
        transfer_(detail::delay_transfer_of(object_, destination_)) {}

  /// The destination queue's name.
  const std::string& destination() const noexcept { return destination_; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class Rep, class Period, class CompletionToken>
  auto async_offer(const T& value, std::chrono::duration<Rep, Period> delay,
                   CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_peek(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_all(std::vector<T> values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_poll(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last_and_offer_first_to(const std::string& queue, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(std::vector<T> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_retain_all(std::vector<T> values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Files `value` to reach the destination queue once `delay` has passed (a negative delay is
  /// errc::invalid_argument; zero: at the next transfer).
  template <class Rep, class Period>
  void offer(const T& value, std::chrono::duration<Rep, Period> delay) {
    async_offer(value, delay, blocking("offer"));
  }
  /// Takes back the first waiting element equal to `value` (compared as bytes) before it is
  /// moved; true if there was one. Reads the waiting elements on the server: O(waiting).
  bool remove(const T& value) { return async_remove(value, blocking("remove")); }
  /// The number of elements still waiting.
  std::int64_t size() const { return async_size(blocking("size")); }
  /// True when no element waits.
  bool empty() const { return size() == 0; }

  // Reading and taking back what waits, before it is due. The waiting elements are in offer
  // order (not due order), as Redisson keeps them; taking one back drops its due time too.
  /// The first waiting element (offer order); nullopt when none waits.
  std::optional<T> peek() const { return async_peek(blocking("peek")); }
  /// Every waiting element in offer order, in one LRANGE (values() pages through a long queue).
  std::vector<T> read_all() const { return async_read_all(blocking("read_all")); }
  /// The waiting elements in offer order, read in LRANGE windows of `page_size` as they are
  /// iterated (see CollectionScan). Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "LRANGE", page_size, &detail::decode_delayed_elements<T>);
  }
  /// True if an element equal to `value` (as bytes) waits. O(waiting), on the server.
  bool contains(const T& value) const { return async_contains(value, blocking("contains")); }
  /// True if each of `values` waits (true for none).
  bool contains_all(std::vector<T> values) const {
    return async_contains_all(std::move(values), blocking("contains_all"));
  }
  /// Takes back the first waiting element (offer order); nullopt when none waits.
  std::optional<T> poll() { return async_poll(blocking("poll")); }
  /// Takes back up to `count` (>= 1) waiting elements from the first, in one script.
  std::vector<T> poll(std::int64_t count) { return async_poll(count, blocking("poll")); }
  /// Takes back the last waiting element and pushes it at the head of the list `queue` (on a
  /// Cluster in this queue's hash slot, else invalid_argument); nullopt when none waits.
  std::optional<T> poll_last_and_offer_first_to(const std::string& queue) {
    return async_poll_last_and_offer_first_to(queue, blocking("poll_last_and_offer_first_to"));
  }
  /// Takes back every waiting element equal to one of `values`; returns how many.
  std::int64_t remove_all(std::vector<T> values) {
    return async_remove_all(std::move(values), blocking("remove_all"));
  }
  /// Takes back every waiting element not equal to one of `values` (none: deletes the delayed
  /// queue, as Redisson); true if one was taken back.
  bool retain_all(std::vector<T> values) {
    return async_retain_all(std::move(values), blocking("retain_all"));
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  static void start_offer(const detail::ObjectPtr& object, const std::string& destination,
                          std::int64_t delay_ms, const T& value, detail::Done<Reply>& done) {
    if (delay_ms < 0) detail::throw_invalid_argument("offer: the delay must not be negative");
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    detail::start_delayed_offer(object, destination, now + delay_ms,
                                detail::encode_value(*object->codec, value), done);
  }
  static void start_remove(const detail::ObjectPtr& object, const std::string& destination,
                           const T& value, detail::Done<Reply>& done) {
    detail::start_delayed_remove(object, destination, detail::encode_value(*object->codec, value),
                                 done);
  }

  std::string destination_;
  std::shared_ptr<void> transfer_;
};

}  // namespace redisson

#include "redisson/objects/impl/delayed_queue.hpp"
