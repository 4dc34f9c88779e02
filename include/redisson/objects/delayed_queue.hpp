// redisson::DelayedQueue<T>: elements that reach a destination queue after a delay, Java
// Redisson's RDelayedQueue.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

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
