// redisson::detail::ListBase<T>: what List, Queue, Deque and RingBuffer share, all of them one
// Redis list: reading by index and by value, the size, windows of the list, removing by value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/object.hpp"

namespace redisson::detail {

/// list_contains_all.lua over the encoded values (none: 1, nothing sent).
void start_list_contains_all(const ObjectPtr& object, const std::vector<std::string>& values,
                             Done<Reply>& done);
/// list_remove_all.lua over the encoded values (none: 0, nothing sent).
void start_list_remove_all(const ObjectPtr& object, const std::vector<std::string>& values,
                           Done<Reply>& done);
/// list_retain_all.lua over the encoded values (none: DEL, as Redisson).
void start_list_retain_all(const ObjectPtr& object, const std::vector<std::string>& values,
                           Done<Reply>& done);

/// The operations every type on one Redis list has: none of them adds an element, so a type
/// that bounds its length (RingBuffer) keeps its promise. Appending at the tail (RPUSH) is here
/// too, protected: List, Queue and Deque make it public, RingBuffer adds through its script.
/// Positional writes (set at an index, insert before/after, trim, remove at an index) are List's
/// alone.
///
/// Indexes start at 0; a negative index counts from the tail (-1 is the last element), as in
/// Redis. Elements are compared as the codec's bytes (by the server). Each operation is one
/// command, one round trip (LINDEX, LPOS, LLEN, LRANGE, LREM, RPUSH), or one script
/// (contains_all, remove_all, retain_all, each reading the whole list on the server).
template <JavaValue T>
class ListBase : public Object {
 public:
  using value_type = T;

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_get(std::int64_t index, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove(const T& value, std::int64_t count, CompletionToken&& token);
  template <class CompletionToken>
  auto async_index_of(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_last_index_of(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_range(std::int64_t from, std::int64_t to, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_all(std::vector<T> values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_all(std::vector<T> values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_retain_all(std::vector<T> values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The element at `index`; nullopt when the index is out of range.
  std::optional<T> get(std::int64_t index) const { return async_get(index, blocking("get")); }
  /// Removes the first element equal to `value`; true if there was one.
  bool remove(const T& value) { return async_remove(value, 1, blocking("remove")) > 0; }
  /// Removes elements equal to `value` (LREM): the first `count` from the head (count > 0),
  /// the last -count from the tail (count < 0) or all of them (0); returns how many.
  std::int64_t remove(const T& value, std::int64_t count) {
    return async_remove(value, count, blocking("remove"));
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
  /// Every element, head to tail, in one LRANGE 0 -1 (values() pages through a long list).
  std::vector<T> read_all() const { return async_read_all(blocking("read_all")); }
  /// True if each of `values` is an element (true for none).
  bool contains_all(std::vector<T> values) const {
    return async_contains_all(std::move(values), blocking("contains_all"));
  }
  /// Removes every element equal to one of `values`; returns how many were removed.
  std::int64_t remove_all(std::vector<T> values) {
    return async_remove_all(std::move(values), blocking("remove_all"));
  }
  /// Keeps only the elements equal to one of `values`, in their order (none: deletes the list,
  /// as Redisson); true if an element was removed.
  bool retain_all(std::vector<T> values) {
    return async_retain_all(std::move(values), blocking("retain_all"));
  }
  /// The elements from head to tail, read in LRANGE windows of `page_size` as they are
  /// iterated (see CollectionScan). Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "LRANGE", page_size, &detail::decode_elements<T>);
  }

 protected:
  /// `kind` names the type in errors; `hooks` what it keeps besides the list (a RingBuffer's
  /// capacity key), or null.
  ListBase(const Client& client, std::string name, CodecPtr codec, const char* kind,
           const ObjectHooks* hooks = nullptr)
      : Object(client, std::move(name), std::move(codec), kind, hooks) {}

  // Appending at the tail: public on List, Queue and Deque (`using`), not on RingBuffer.
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token);
  /// Appends `value` at the tail (RPUSH); returns the list's length after it.
  std::int64_t add(const T& value) { return async_add(value, blocking("add")); }
  /// Appends the values in order (one RPUSH); returns the length after it (0, and nothing
  /// sent, for no values).
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, blocking("add_all"));
  }

  Blocking blocking(const char* operation) const { return detail::blocking(operation, name()); }
  std::string encoded(const T& value) const { return encode_value(codec(), value); }
  /// Java's distributedIterator of RList and RSortedSet: LRANGE windows of `page_size` whose
  /// next index is kept in Redis under `iterator_name` (see Set::distributed_values).
  CollectionScan<T> distributed_windows(std::string iterator_name, std::int64_t page_size) const {
    return CollectionScan<T>(
        object_, detail::make_distributed_scan("LRANGE", page_size, std::move(iterator_name), ""),
        &detail::decode_elements<T>);
  }

  /// `verb name <values...>` (RPUSH, LPUSH): the list's length after it; none sent (0) for no
  /// values. Values are encoded as the operation starts (a codec_error is the completion's).
  template <class CompletionToken>
  auto elements_command(CompletionToken&& token, const char* verb, std::vector<T> values) const;

  /// A value sent as the codec's bytes, among the plain arguments of with_values().
  struct Element {
    const T& value;
  };
  /// `verb name args...`: text and integers as they are, each Element as the codec's bytes.
  template <class R, class CompletionToken, class Convert, class... Args>
  auto with_values(CompletionToken&& token, Convert convert, const char* verb,
                   const Args&... args) const;

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
    return reply_integer(reply);
  }
};

}  // namespace redisson::detail

#include "redisson/objects/impl/list_base.hpp"
