// redisson::List<T>: a list shared through one Redis list, Java Redisson's RList.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// LINDEX + LSET in one script: the element replaced.
void start_list_set(const ObjectPtr& object, std::int64_t index, const std::string& element,
                    Done<Reply>& done);
/// Removes the element at `index` by a fresh marker (list_remove_at.lua): the element removed.
void start_list_remove_at(const ObjectPtr& object, std::int64_t index, Done<Reply>& done);
}  // namespace detail

/// A list of T stored in the Redis list `name`, each element the codec's bytes of one value: the
/// layout of Java Redisson's RList (and of its queues and deques), so Java and C++ share one list
/// when they use the same codec. Indexes start at 0; a negative index counts from the tail (-1 is
/// the last element), as in Redis. Elements are compared as bytes (by the server).
///
/// Cost: each operation is one command, one round trip (RPUSH, LINDEX, LINSERT, LREM, LPOS,
/// LLEN, LRANGE, LTRIM, LSET), except set() and remove_at(), one script each. range() reads
/// the window asked for; values() reads the list in LRANGE pages, never all of it at once.
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as a T are errc::codec_error. A handle: cheap to copy, sends nothing until called,
/// thread-safe.
template <JavaValue T>
class List : public Object {
 public:
  using value_type = T;

  /// A handle on the list `name`; sends nothing. `codec` null: the client's default codec.
  List(const Client& client, std::string name, CodecPtr codec = nullptr)
      : List(client, std::move(name), std::move(codec), "List") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token) {
    return with_values<std::int64_t>(token, &detail::reply_integer, "RPUSH", Element{value});
  }
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token) {
    return elements_command(token, "RPUSH", values);
  }
  template <class CompletionToken>
  auto async_get(std::int64_t index, CompletionToken&& token) const {
    return on_key<std::optional<T>>(token, value_reader<T>(), "LINDEX", index);
  }
  template <class CompletionToken>
  auto async_set(std::int64_t index, const T& value, CompletionToken&& token) {
    return started<std::optional<T>>(token, value_reader<T>(), &detail::start_list_set, index,
                                     encoded(value));
  }
  template <class CompletionToken>
  auto async_fast_set(std::int64_t index, const T& value, CompletionToken&& token) {
    return with_values<void>(token, &detail::reply_ignore, "LSET", index, Element{value});
  }
  template <class CompletionToken>
  auto async_insert_before(const T& pivot, const T& value, CompletionToken&& token) {
    return with_values<std::int64_t>(token, &detail::reply_integer, "LINSERT", "BEFORE",
                                     Element{pivot}, Element{value});
  }
  template <class CompletionToken>
  auto async_insert_after(const T& pivot, const T& value, CompletionToken&& token) {
    return with_values<std::int64_t>(token, &detail::reply_integer, "LINSERT", "AFTER",
                                     Element{pivot}, Element{value});
  }
  template <class CompletionToken>
  auto async_remove(const T& value, std::int64_t count, CompletionToken&& token) {
    return with_values<std::int64_t>(token, &detail::reply_integer, "LREM", count, Element{value});
  }
  template <class CompletionToken>
  auto async_remove_at(std::int64_t index, CompletionToken&& token) {
    return started<std::optional<T>>(token, value_reader<T>(), &detail::start_list_remove_at,
                                     index);
  }
  template <class CompletionToken>
  auto async_index_of(const T& value, CompletionToken&& token) const {
    return with_values<std::optional<std::int64_t>>(token, &optional_index, "LPOS", Element{value});
  }
  template <class CompletionToken>
  auto async_last_index_of(const T& value, CompletionToken&& token) const {
    return with_values<std::optional<std::int64_t>>(token, &optional_index, "LPOS", Element{value},
                                                    "RANK", std::int64_t{-1});
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return on_key<std::int64_t>(token, &detail::reply_integer, "LLEN");
  }
  template <class CompletionToken>
  auto async_range(std::int64_t from, std::int64_t to, CompletionToken&& token) const {
    return on_key<std::vector<T>>(token, values_reader<T>(), "LRANGE", from, to);
  }
  template <class CompletionToken>
  auto async_trim(std::int64_t from, std::int64_t to, CompletionToken&& token) {
    return on_key<void>(token, &detail::reply_ignore, "LTRIM", from, to);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Appends `value` at the tail (RPUSH); returns the list's length after it.
  std::int64_t add(const T& value) { return async_add(value, blocking("add")); }
  /// Appends the values in order (one RPUSH); returns the length after it (0, and nothing
  /// sent, for no values).
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, blocking("add_all"));
  }
  /// The element at `index`; nullopt when the index is out of range.
  std::optional<T> get(std::int64_t index) const { return async_get(index, blocking("get")); }
  /// Replaces the element at `index` and returns the one it replaced (a script). An index out
  /// of range is errc::server_error ("index out of range") and changes nothing.
  std::optional<T> set(std::int64_t index, const T& value) {
    return async_set(index, value, blocking("set"));
  }
  /// Replaces the element at `index` (LSET), without reading the old one.
  void fast_set(std::int64_t index, const T& value) {
    async_fast_set(index, value, blocking("fast_set"));
  }
  /// Inserts `value` before the first element equal to `pivot` (LINSERT); returns the new
  /// length, -1 when there is no such element (nothing inserted), 0 when the list is absent.
  std::int64_t insert_before(const T& pivot, const T& value) {
    return async_insert_before(pivot, value, blocking("insert_before"));
  }
  /// Inserts `value` after the first element equal to `pivot`; as insert_before().
  std::int64_t insert_after(const T& pivot, const T& value) {
    return async_insert_after(pivot, value, blocking("insert_after"));
  }
  /// Removes the first element equal to `value`; true if there was one.
  bool remove(const T& value) { return async_remove(value, 1, blocking("remove")) > 0; }
  /// Removes elements equal to `value` (LREM): the first `count` from the head (count > 0),
  /// the last -count from the tail (count < 0) or all of them (0); returns how many.
  std::int64_t remove(const T& value, std::int64_t count) {
    return async_remove(value, count, blocking("remove"));
  }
  /// Removes the element at `index` and returns it; nullopt when the index is out of range.
  std::optional<T> remove_at(std::int64_t index) {
    return async_remove_at(index, blocking("remove_at"));
  }
  /// The index of the first element equal to `value` (LPOS); nullopt when there is none.
  std::optional<std::int64_t> index_of(const T& value) const {
    return async_index_of(value, blocking("index_of"));
  }
  /// The index of the last element equal to `value`; nullopt when there is none.
  std::optional<std::int64_t> last_index_of(const T& value) const {
    return async_last_index_of(value, blocking("last_index_of"));
  }
  /// True if an element equals `value` (LPOS).
  bool contains(const T& value) const { return index_of(value).has_value(); }
  /// The number of elements (LLEN).
  std::int64_t size() const { return async_size(blocking("size")); }
  /// True when the list has no element (or does not exist).
  bool empty() const { return size() == 0; }
  /// The elements from index `from` to index `to`, both included (LRANGE: -1 is the last).
  /// Reads the whole window at once: for a list of unknown size, use values().
  std::vector<T> range(std::int64_t from, std::int64_t to) const {
    return async_range(from, to, blocking("range"));
  }
  /// Keeps only the elements from `from` to `to`, both included (LTRIM).
  void trim(std::int64_t from, std::int64_t to) { async_trim(from, to, blocking("trim")); }

  /// The elements from head to tail, read in LRANGE windows of `page_size` as they are
  /// iterated (see CollectionScan). Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "LRANGE", page_size, &detail::decode_elements<T>);
  }

 protected:
  /// For the queues and deques, which share the layout: `kind` names the type in errors;
  /// `extra_keys` are the keys it keeps besides the list (a RingBuffer's capacity).
  List(const Client& client, std::string name, CodecPtr codec, const char* kind,
       detail::ExtraKeys extra_keys = nullptr)
      : Object(client, std::move(name), std::move(codec), kind, extra_keys) {}

  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  std::string encoded(const T& value) const { return detail::encode_value(codec(), value); }

  /// `verb name <values...>` (RPUSH, LPUSH): the list's length after it; none sent (0) for no
  /// values. Values are encoded as the operation starts (a codec_error is the completion's).
  template <class CompletionToken>
  auto elements_command(CompletionToken&& token, const char* verb, std::vector<T> values) const {
    return detail::async_started<std::int64_t>(
        object_, token,
        [verb, values = std::move(values)](const detail::ObjectPtr& object,
                                           detail::Done<Reply>& done) {
          std::vector<std::string> elements;
          elements.reserve(values.size());
          for (const auto& value : values) {
            elements.push_back(detail::encode_value(*object->codec, value));
          }
          detail::start_with_arguments(object, verb, elements, done);
        },
        &detail::reply_integer);
  }

  /// A value sent as the codec's bytes, among the plain arguments of with_values().
  struct Element {
    const T& value;
  };
  /// `verb name args...`: text and integers as they are, each Element as the codec's bytes.
  template <class R, class CompletionToken, class Convert, class... Args>
  auto with_values(CompletionToken&& token, Convert convert, const char* verb,
                   const Args&... args) const {
    return detail::async_command<R>(
        object_, token,
        [&] {
          Command command{verb, name()};
          (add_argument(command, args), ...);
          return command;
        },
        convert);
  }

 private:
  void add_argument(Command& command, const Element& element) const {
    command.arg(encoded(element.value));
  }
  template <class A>
  static void add_argument(Command& command, const A& arg) {
    command.arg(arg);
  }
  static std::optional<std::int64_t> optional_index(const Reply& reply) {
    if (reply.is_null()) return std::nullopt;
    return detail::reply_integer(reply);
  }
};

}  // namespace redisson
