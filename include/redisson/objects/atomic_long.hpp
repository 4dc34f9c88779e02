// redisson::AtomicLong: a 64-bit counter in Redis, Java Redisson's RAtomicLong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "redisson/objects/atomic_number.hpp"
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
class AtomicLong : public Object, public AtomicNumber<AtomicLong, std::int64_t> {
  /// A command whose reply is the counter's value (an integer, or its text; nil is 0).
  template <class CompletionToken, class... Args>
  auto counter(CompletionToken&& token, std::string_view verb, const Args&... args) const;

 public:
  /// A handle on the counter `name`; sends nothing.
  AtomicLong(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::long_text(), "AtomicLong") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set(std::int64_t value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_and_get(std::int64_t delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_add(std::int64_t delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_set(std::int64_t value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_compare_and_set(std::int64_t expect, std::int64_t update, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_greater(std::int64_t threshold, std::int64_t value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_less(std::int64_t threshold, std::int64_t value, CompletionToken&& token);

  // The blocking forms (get, set, add_and_get, get_and_add, get_and_set, compare_and_set,
  // get_and_delete) and the increments are AtomicNumber's, each waiting for its async form.
};

}  // namespace redisson

#include "redisson/objects/impl/atomic_long.hpp"
