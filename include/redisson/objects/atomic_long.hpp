// redisson::AtomicLong: a 64-bit counter in Redis, Java Redisson's RAtomicLong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "redisson/objects/increments.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// compare_and_set: the script comparing the stored text with `expect` (absent counts as 0) and
/// storing `update`. Completes with the script's 1/0.
void start_atomic_long_compare_and_set(const ObjectPtr& object, std::int64_t expect,
                                       std::int64_t update, Done<Reply>& done);
}  // namespace detail

/// A signed 64-bit counter shared through Redis, like std::atomic<std::int64_t>: every
/// operation is atomic on the server. A key that does not exist reads as 0, as in Redisson.
///
/// Layout: a string key `name` holding the ASCII decimal text ("43"), the bytes Java Redisson's
/// RAtomicLong writes: Java and C++ count on the same key. Each operation is one command (GET,
/// SET, INCRBY, GETSET, GETDEL), compare_and_set one script: one round trip each.
///
/// A key of another type is errc::wrong_type and text that is not an integer errc::wrong_type on
/// reads, errc::server_error on increments (the server refuses; also on overflow); nothing is
/// changed. set() replaces a key of another type, as SET does.
class AtomicLong : public Object, public Increments<AtomicLong, std::int64_t> {
  // (Defined first: the forms below deduce their return types from it.)
  /// A command whose reply is the counter's value (an integer, or its text; nil is 0).
  template <class CompletionToken, class... Args>
  auto counter(CompletionToken&& token, std::string_view verb, const Args&... args) const {
    return on_key<std::int64_t>(token, &detail::reply_counter, verb, args...);
  }

 public:
  /// A handle on the counter `name`; sends nothing.
  AtomicLong(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::long_text(), "AtomicLong") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const {
    return counter(token, "GET");
  }
  template <class CompletionToken>
  auto async_set(std::int64_t value, CompletionToken&& token) {
    return on_key<void>(token, &detail::reply_ignore, "SET", value);
  }
  template <class CompletionToken>
  auto async_add_and_get(std::int64_t delta, CompletionToken&& token) {
    return counter(token, "INCRBY", delta);
  }
  template <class CompletionToken>
  auto async_get_and_add(std::int64_t delta, CompletionToken&& token) {
    // INCRBY answers the new value; the old one is that minus delta, exactly (integers).
    return on_key<std::int64_t>(
        token, [delta](const Reply& r) { return detail::reply_counter(r) - delta; }, "INCRBY",
        delta);
  }
  template <class CompletionToken>
  auto async_get_and_set(std::int64_t value, CompletionToken&& token) {
    return counter(token, "GETSET", value);
  }
  template <class CompletionToken>
  auto async_compare_and_set(std::int64_t expect, std::int64_t update, CompletionToken&& token) {
    return started<bool>(token, &detail::reply_flag, &detail::start_atomic_long_compare_and_set,
                         expect, update);
  }
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token) {
    return counter(token, "GETDEL");
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The value (0 when the key does not exist).
  std::int64_t get() const { return async_get(detail::blocking("get", name())); }
  /// Stores `value`.
  void set(std::int64_t value) { async_set(value, detail::blocking("set", name())); }
  /// Adds `delta`; returns the new value.
  std::int64_t add_and_get(std::int64_t delta) {
    return async_add_and_get(delta, detail::blocking("add_and_get", name()));
  }
  /// Adds `delta`; returns the value before.
  std::int64_t get_and_add(std::int64_t delta) {
    return async_get_and_add(delta, detail::blocking("get_and_add", name()));
  }
  /// Stores `value`; returns the value before.
  std::int64_t get_and_set(std::int64_t value) {
    return async_get_and_set(value, detail::blocking("get_and_set", name()));
  }
  /// Stores `update` if the value is `expect` (a missing key counts as 0); true if it did.
  bool compare_and_set(std::int64_t expect, std::int64_t update) {
    return async_compare_and_set(expect, update, detail::blocking("compare_and_set", name()));
  }
  /// Deletes the counter; returns the value it had (0 when there was none).
  std::int64_t get_and_delete() {
    return async_get_and_delete(detail::blocking("get_and_delete", name()));
  }
};

}  // namespace redisson
