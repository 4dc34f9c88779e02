// redisson::List<T>: a list shared through one Redis list, Java Redisson's RList.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/list_base.hpp"
#include "redisson/objects/sortable.hpp"

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
/// The reads, size(), range(), values() and remove(value) are ListBase's, shared with Queue,
/// Deque and RingBuffer; the positional writes (set, fast_set, insert_before, insert_after,
/// remove_at, trim) are a List's alone.
///
/// Cost: each operation is one command, one round trip (RPUSH, LINDEX, LINSERT, LREM, LPOS,
/// LLEN, LRANGE, LTRIM, LSET), except set() and remove_at(), one script each. range() reads
/// the window asked for; values() reads the list in LRANGE pages, never all of it at once.
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as a T are errc::codec_error. A handle: cheap to copy, sends nothing until called,
/// thread-safe.
template <JavaValue T>
class List : public detail::ListBase<T>, public Sortable<List<T>, T> {
  using Base = detail::ListBase<T>;

 public:
  /// A handle on the list `name`; sends nothing. `codec` null: the client's default codec.
  List(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Base(client, std::move(name), std::move(codec), "List") {}

  // Appending at the tail (RPUSH): add(value), add_all(values), and their async forms.
  using Base::add;
  using Base::add_all;
  using Base::async_add;
  using Base::async_add_all;

  /// Java's distributedIterator: LRANGE windows of `page_size` whose next index is kept in Redis
  /// under `iterator_name`, so every handle, in any process, that reads with that name takes the
  /// next window and together they read the list once (see Set::distributed_values).
  CollectionScan<T> distributed_values(std::string iterator_name, std::int64_t page_size) const {
    return this->distributed_windows(std::move(iterator_name), page_size);
  }
  /// As distributed_values(name, page_size) with Redisson's default name
  /// `__redisson_list_cursor_{name}`.
  CollectionScan<T> distributed_values(std::int64_t page_size = 10) const {
    return this->distributed_windows(detail::distributed_cursor_key("list", this->name()),
                                     page_size);
  }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_set(std::int64_t index, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_fast_set(std::int64_t index, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_insert_before(const T& pivot, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_insert_after(const T& pivot, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_at(std::int64_t index, CompletionToken&& token);
  template <class CompletionToken>
  auto async_trim(std::int64_t from, std::int64_t to, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Replaces the element at `index` and returns the one it replaced (a script). An index out
  /// of range is errc::server_error ("index out of range") and changes nothing.
  std::optional<T> set(std::int64_t index, const T& value) {
    return async_set(index, value, this->blocking("set"));
  }
  /// Replaces the element at `index` (LSET), without reading the old one.
  void fast_set(std::int64_t index, const T& value) {
    async_fast_set(index, value, this->blocking("fast_set"));
  }
  /// Inserts `value` before the first element equal to `pivot` (LINSERT); returns the new
  /// length, -1 when there is no such element (nothing inserted), 0 when the list is absent.
  std::int64_t insert_before(const T& pivot, const T& value) {
    return async_insert_before(pivot, value, this->blocking("insert_before"));
  }
  /// Inserts `value` after the first element equal to `pivot`; as insert_before().
  std::int64_t insert_after(const T& pivot, const T& value) {
    return async_insert_after(pivot, value, this->blocking("insert_after"));
  }
  /// Removes the element at `index` and returns it; nullopt when the index is out of range.
  std::optional<T> remove_at(std::int64_t index) {
    return async_remove_at(index, this->blocking("remove_at"));
  }
  /// Keeps only the elements from `from` to `to`, both included (LTRIM).
  void trim(std::int64_t from, std::int64_t to) { async_trim(from, to, this->blocking("trim")); }
};

}  // namespace redisson

#include "redisson/objects/impl/list.hpp"
