// redisson::RingBuffer<T>: a queue of bounded length that drops its oldest elements, Java
// Redisson's RRingBuffer.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/queue.hpp"

namespace redisson {

namespace detail {
std::vector<std::string> ring_buffer_keys(const std::string& name);
inline constexpr ObjectHooks ring_buffer_hooks{.extra_keys = &ring_buffer_keys};
std::string ring_buffer_capacity_key(const std::string& name);
/// The add script over the elements' bytes: the length after it, nil without a capacity.
void start_ring_buffer_add(const ObjectPtr& object, const std::vector<std::string>& elements,
                           Done<Reply>& done);
void start_ring_buffer_set_capacity(const ObjectPtr& object, std::int64_t capacity,
                                    Done<Reply>& done);
/// The add script's reply: the length; nil is errc::not_initialized (no capacity yet).
std::int64_t ring_buffer_length(const Reply& reply);
}  // namespace detail

/// A FIFO queue of T on the Redis list `name` holding at most its capacity: adding beyond it
/// drops the oldest elements. Java Redisson's RRingBuffer layout: the list and the capacity as
/// decimal text in `redisson_rb:{name}` (deleted, expired and renamed with it), so Java and C++
/// share one ring buffer. It takes and reads as a Queue does (poll, peek, size, range, values(),
/// remove(value), ...: QueueBase), but every add is a script that keeps the capacity, and it has
/// no operation that could grow it past it (no List positional writes, no plain RPUSH). Adding
/// before a capacity is set is errc::not_initialized and changes nothing.
template <JavaValue T>
class RingBuffer : public detail::QueueBase<T> {
 public:
  /// A handle on the ring buffer `name`; sends nothing. `codec` null: the client's default.
  RingBuffer(const Client& client, std::string name, CodecPtr codec = nullptr)
      : detail::QueueBase<T>(client, std::move(name), std::move(codec), "RingBuffer",
                             &detail::ring_buffer_hooks) {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_try_set_capacity(std::int64_t capacity, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_capacity(std::int64_t capacity, CompletionToken&& token);
  template <class CompletionToken>
  auto async_capacity(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_offer(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(std::vector<T> values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Sets the capacity (> 0) if none is set (SETNX); true if it was set now.
  bool try_set_capacity(std::int64_t capacity) {
    return async_try_set_capacity(capacity, this->blocking("try_set_capacity"));
  }
  /// Sets the capacity (> 0) and drops the oldest elements beyond it; returns how many.
  std::int64_t set_capacity(std::int64_t capacity) {
    return async_set_capacity(capacity, this->blocking("set_capacity"));
  }
  /// The capacity; 0 when none is set.
  std::int64_t capacity() const { return async_capacity(this->blocking("capacity")); }
  /// How many more elements fit before the oldest are dropped.
  std::int64_t remaining_capacity() const { return capacity() - this->size(); }
  /// Appends `value`, dropping the oldest element when full; returns the length after it.
  std::int64_t add(const T& value) { return async_add(value, this->blocking("add")); }
  /// As add().
  std::int64_t offer(const T& value) { return async_offer(value, this->blocking("offer")); }
  /// Appends the values in order (one script), keeping the last `capacity` of everything.
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, this->blocking("add_all"));
  }
};

}  // namespace redisson

#include "redisson/objects/impl/ring_buffer.hpp"
