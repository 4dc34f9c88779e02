// redisson::Deque<T>: a double-ended queue on one Redis list, Java Redisson's RDeque.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/queue.hpp"

namespace redisson {

/// An end of a list: where an element is taken from or put to.
enum class ListEnd { head, tail };

namespace detail {
inline const char* list_end_word(ListEnd end) { return end == ListEnd::head ? "LEFT" : "RIGHT"; }
}  // namespace detail

/// A double-ended queue of T on the Redis list `name` (head = the list's left): Java Redisson's
/// RDeque layout. It is a Queue (offer at the tail, poll from the head; reads as a list does,
/// without a List's positional writes). Each operation is one command (LPUSH, RPUSH, LPOP, RPOP,
/// LINDEX, LREM, LMOVE).
template <JavaValue T>
class Deque : public Queue<T> {
 public:
  /// A handle on the deque `name`; sends nothing. `codec` null: the client's default codec.
  Deque(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Queue<T>(client, std::move(name), std::move(codec), "Deque") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add_first(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_last(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_first_if_exists(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_last_if_exists(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_first(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(CompletionToken&& token);
  template <class CompletionToken>
  auto async_poll_last(std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_peek_last(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_move(const std::string& destination, ListEnd from, ListEnd to,
                  CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Puts `value` at the head (LPUSH); returns the length after it.
  std::int64_t add_first(const T& value) {
    return async_add_first(value, this->blocking("add_first"));
  }
  /// Puts `value` at the tail (RPUSH); returns the length after it.
  std::int64_t add_last(const T& value) {
    return async_add_last(value, this->blocking("add_last"));
  }
  /// Puts `value` at the head only if the deque exists (LPUSHX); returns the length after it,
  /// 0 when it does not exist (nothing added).
  std::int64_t add_first_if_exists(const T& value) {
    return async_add_first_if_exists(value, this->blocking("add_first_if_exists"));
  }
  /// Puts `value` at the tail only if the deque exists (RPUSHX); returns the length after it,
  /// 0 when it does not exist.
  std::int64_t add_last_if_exists(const T& value) {
    return async_add_last_if_exists(value, this->blocking("add_last_if_exists"));
  }
  /// Takes the head; nullopt when empty.
  std::optional<T> poll_first() { return async_poll_first(this->blocking("poll_first")); }
  /// Takes the tail (RPOP); nullopt when empty.
  std::optional<T> poll_last() { return async_poll_last(this->blocking("poll_last")); }
  /// Takes up to `count` (>= 1) elements from the tail, the last first (RPOP count).
  std::vector<T> poll_last(std::int64_t count) {
    return async_poll_last(count, this->blocking("poll_last"));
  }
  /// The head, left in place; nullopt when empty.
  std::optional<T> peek_first() const { return this->peek(); }
  /// The tail, left in place; nullopt when empty.
  std::optional<T> peek_last() const { return async_peek_last(this->blocking("peek_last")); }
  /// Removes the first element equal to `value`; true if there was one.
  bool remove_first_occurrence(const T& value) { return this->remove(value, 1) > 0; }
  /// Removes the last element equal to `value`; true if there was one.
  bool remove_last_occurrence(const T& value) { return this->remove(value, -1) > 0; }
  /// Moves one element from this deque's `from` end to the `to` end of the list `destination`
  /// (LMOVE; on a Cluster, in the same slot) and returns it; nullopt when this one is empty.
  std::optional<T> move(const std::string& destination, ListEnd from, ListEnd to) {
    return async_move(destination, from, to, this->blocking("move"));
  }

 protected:
  Deque(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : Queue<T>(client, std::move(name), std::move(codec), kind) {}
};

}  // namespace redisson

#include "redisson/objects/impl/deque.hpp"
