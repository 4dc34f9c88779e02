// redisson::AtomicDouble: a double in Redis, Java Redisson's RAtomicDouble.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "redisson/objects/atomic_number.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
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
/// value): one round trip each. compare_and_set compares numbers, not text: a stored "2.50"
/// equals 2.5.
///
/// NaN and the infinities cannot be stored (errc::invalid_argument, nothing sent). A key of
/// another type is errc::wrong_type; text that is not a number errc::wrong_type on reads,
/// errc::server_error on additions (as INCRBYFLOAT refuses it, and a result that would overflow);
/// nothing is changed. set() replaces a key of another type, as SET does.
class AtomicDouble : public Object, public AtomicNumber<AtomicDouble, double> {
  /// A command whose reply is the value (a double or its text; nil is 0).
  template <class CompletionToken, class... Args>
  auto number(CompletionToken&& token, std::string_view verb, const Args&... args) const;
  /// `verb name x` with x as decimal text; x is checked (NaN, infinities) as the command is
  /// built, so that its error is the completion's.
  template <class R, class CompletionToken, class Convert>
  auto with_decimal(CompletionToken&& token, Convert convert, const char* verb, double x);

 public:
  /// A handle on the number `name`; sends nothing.
  AtomicDouble(const Client& client, std::string name)
      : Object(client, std::move(name), codecs::double_text(), "AtomicDouble") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_set(double value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_and_get(double delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_add(double delta, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_set(double value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_compare_and_set(double expect, double update, CompletionToken&& token);
  template <class CompletionToken>
  auto async_get_and_delete(CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_greater(double threshold, double value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_set_if_less(double threshold, double value, CompletionToken&& token);

  // The blocking forms (get, set, add_and_get, get_and_add, get_and_set, compare_and_set,
  // get_and_delete) and the increments are AtomicNumber's, each waiting for its async form.
};

}  // namespace redisson

#include "redisson/objects/impl/atomic_double.hpp"
