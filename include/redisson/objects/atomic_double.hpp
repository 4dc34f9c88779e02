// redisson::AtomicDouble: a double in Redis, Java Redisson's RAtomicDouble.
#pragma once

#include <string>
#include <utility>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// Java's BigDecimal.valueOf(x).toPlainString() ("2.5", "1.0", "10000000000"): the text
/// Redisson writes for a double. NaN and the infinities are errc::invalid_argument.
std::string plain_decimal_argument(double x);
/// compare_and_set: the script comparing the stored number with `expect` (absent counts as 0)
/// and storing `update`. Completes with the script's 1/0.
void start_atomic_double_compare_and_set(const ObjectPtr& object, double expect, double update,
                                         Done<Reply>& done);
/// get_and_add: the script reading the value and adding `delta` (INCRBYFLOAT). Completes with
/// the value before.
void start_atomic_double_get_and_add(const ObjectPtr& object, double delta, Done<Reply>& done);
}  // namespace detail

/// A double shared through Redis: every operation is atomic on the server. A key that does not
/// exist reads as 0, as in Redisson.
///
/// Layout: a string key `name` holding decimal text, written as Java Redisson's RAtomicDouble
/// writes it (BigDecimal.valueOf(x).toPlainString(): 2.5 -> "2.5", 1.0 -> "1.0", 1e10 ->
/// "10000000000"); additions are INCRBYFLOAT, which stores Redis's own text ("3.5", "10").
/// Java and C++ read each other's values. Each operation is one command (GET, SET,
/// INCRBYFLOAT, GETSET, GETDEL) or one script (compare_and_set, get_and_add: exact previous
/// value): one round trip each.
///
/// NaN and the infinities cannot be stored (errc::invalid_argument, nothing sent). A key of
/// another type is errc::wrong_type; text that is not a number errc::wrong_type on reads,
/// errc::server_error on additions (as INCRBYFLOAT refuses it, and a result that would overflow);
/// nothing is changed. set() replaces a key of another type, as SET does.
class AtomicDouble : public Object {
  // (Defined first: the forms below deduce their return types from it.)
  /// A command whose reply is the value (a double or its text; nil is 0).
  template <class CompletionToken, class Build>
  auto number(CompletionToken&& token, Build&& build) const {
    return detail::async_command<double>(object_, token, std::forward<Build>(build),
                                         &detail::reply_double);
  }

 public:
  /// A handle on the number `name`; sends nothing.
  AtomicDouble(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::double_text(), "AtomicDouble") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const {
    return number(token, [this] { return Command{"GET", name()}; });
  }
  template <class CompletionToken>
  auto async_set(double value, CompletionToken&& token) {
    return detail::async_command<void>(
        object_, token,
        [this, value] {
          return Command{"SET", name(), detail::plain_decimal_argument(value)};
        },
        &detail::reply_ignore);
  }
  template <class CompletionToken>
  auto async_add_and_get(double delta, CompletionToken&& token) {
    return number(token, [this, delta] {
      return Command{"INCRBYFLOAT", name(), detail::plain_decimal_argument(delta)};
    });
  }
  template <class CompletionToken>
  auto async_get_and_add(double delta, CompletionToken&& token) {
    return detail::async_started<double>(
        object_, token,
        [delta](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_atomic_double_get_and_add(object, delta, done);
        },
        &detail::reply_double);
  }
  template <class CompletionToken>
  auto async_increment_and_get(CompletionToken&& token) {
    return async_add_and_get(1.0, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_decrement_and_get(CompletionToken&& token) {
    return async_add_and_get(-1.0, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_get_and_increment(CompletionToken&& token) {
    return async_get_and_add(1.0, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_get_and_decrement(CompletionToken&& token) {
    return async_get_and_add(-1.0, std::forward<CompletionToken>(token));
  }
  template <class CompletionToken>
  auto async_get_and_set(double value, CompletionToken&& token) {
    return number(token, [this, value] {
      return Command{"GETSET", name(), detail::plain_decimal_argument(value)};
    });
  }
  template <class CompletionToken>
  auto async_compare_and_set(double expect, double update, CompletionToken&& token) {
    return detail::async_started<bool>(
        object_, token,
        [expect, update](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_atomic_double_compare_and_set(object, expect, update, done);
        },
        &detail::reply_flag);
  }
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token) {
    return number(token, [this] { return Command{"GETDEL", name()}; });
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The value (0 when the key does not exist).
  double get() const { return async_get(detail::blocking("get", name())); }
  /// Stores `value`.
  void set(double value) { async_set(value, detail::blocking("set", name())); }
  /// Adds `delta`; returns the new value.
  double add_and_get(double delta) {
    return async_add_and_get(delta, detail::blocking("add_and_get", name()));
  }
  /// Adds `delta`; returns the value before (exactly: read in the same script).
  double get_and_add(double delta) {
    return async_get_and_add(delta, detail::blocking("get_and_add", name()));
  }
  /// Adds 1; returns the new value.
  double increment_and_get() {
    return async_increment_and_get(detail::blocking("increment_and_get", name()));
  }
  /// Subtracts 1; returns the new value.
  double decrement_and_get() {
    return async_decrement_and_get(detail::blocking("decrement_and_get", name()));
  }
  /// Adds 1; returns the value before.
  double get_and_increment() {
    return async_get_and_increment(detail::blocking("get_and_increment", name()));
  }
  /// Subtracts 1; returns the value before.
  double get_and_decrement() {
    return async_get_and_decrement(detail::blocking("get_and_decrement", name()));
  }
  /// Stores `value`; returns the value before.
  double get_and_set(double value) {
    return async_get_and_set(value, detail::blocking("get_and_set", name()));
  }
  /// Stores `update` if the value equals `expect` as a number (a missing key counts as 0, "2.50"
  /// equals 2.5); true if it did.
  bool compare_and_set(double expect, double update) {
    return async_compare_and_set(expect, update, detail::blocking("compare_and_set", name()));
  }
  /// Deletes the number; returns the value it had (0 when there was none).
  double get_and_delete() {
    return async_get_and_delete(detail::blocking("get_and_delete", name()));
  }
};

}  // namespace redisson
