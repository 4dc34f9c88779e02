// redisson::Set<T>: a set shared through one Redis set, Java Redisson's RSet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/set_algebra.hpp"
#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/keyed_synchronizers.hpp"
#include "redisson/objects/members.hpp"
#include "redisson/objects/object.hpp"
#include "redisson/objects/sortable.hpp"

namespace redisson {
namespace detail {

/// SUNIONSTORE name name names... and the others: `name` first, then `names`; on a Cluster all
/// in the set's hash slot (errc::invalid_argument otherwise, before anything is sent). `limit`
/// is SINTERCARD's (0: none).
void start_set_algebra(const ObjectPtr& object, SetAlgebra operation,
                       const std::vector<std::string>& names, std::int64_t limit,
                       Done<Reply>& done);
/// set_try_add.lua over the encoded members (none: 0, nothing sent).
void start_set_try_add(const ObjectPtr& object, const std::vector<std::string>& members,
                       Done<Reply>& done);
/// set_retain_all.lua over the encoded members (none: DEL, as Redisson).
void start_set_retain_all(const ObjectPtr& object, const std::vector<std::string>& members,
                          Done<Reply>& done);

}  // namespace detail

/// A set of T stored in the Redis set `name`, each member the codec's bytes of one value: the
/// layout of Java Redisson's RSet, so Java and C++ share one set when they use the same codec.
/// Members are compared as bytes (by the server), which is what Java Redisson does too.
///
/// Cost: each operation is one command, one round trip (SADD, SREM, SISMEMBER, SMISMEMBER,
/// SCARD, SRANDMEMBER, SPOP, SMOVE, the set algebra) or one script (try_add, retain_all);
/// values() reads the set in pages of SSCAN, read_all() in one SMEMBERS.
///
/// The set algebra (store_union, store_intersection, store_diff, their read_ forms,
/// count_intersection) names other sets: on a Cluster they must share this set's hash slot (one
/// hash tag), else errc::invalid_argument before anything is sent.
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as a T are errc::codec_error. A handle: cheap to copy, sends nothing until called,
/// thread-safe.
template <JavaValue T>
class Set : public Object,
            public Members<Set<T>, T>,
            public Sortable<Set<T>, T>,
            public KeyedSynchronizers<Set<T>, T> {
 public:
  /// A handle on the set `name`; sends nothing. `codec` null: the client's default codec.
  Set(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "Set") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_contains_each(const std::vector<T>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_random(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_remove_random(CompletionToken&& token);
  template <class CompletionToken>
  auto async_move(const std::string& destination, const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_try_add(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_contains_all(const std::vector<T>& values, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_retain_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_store_union(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_union(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_intersection(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_intersection(std::vector<std::string> names, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_intersection(std::vector<std::string> names, std::int64_t limit,
                                CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_store_diff(std::vector<std::string> names, CompletionToken&& token);
  template <class CompletionToken>
  auto async_read_diff(std::vector<std::string> names, CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  // remove, remove_all, contains and size are Members' (objects/members.hpp).
  /// Adds `value`; true if it was not there.
  bool add(const T& value) { return async_add(value, blocking("add")); }
  /// Adds the values (one SADD); returns how many were new.
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, blocking("add_all"));
  }
  /// For each of `values`, whether it is a member (one SMISMEMBER).
  std::vector<bool> contains_each(const std::vector<T>& values) const {
    return async_contains_each(values, blocking("contains_each"));
  }
  /// A member chosen at random, left in the set; nullopt when the set is empty.
  std::optional<T> random() const { return async_random(blocking("random")); }
  /// Removes and returns a member chosen at random; nullopt when the set is empty.
  std::optional<T> remove_random() { return async_remove_random(blocking("remove_random")); }
  /// Moves `value` to the set `destination` (SMOVE; on a Cluster, in the same slot); true if
  /// it was a member here.
  bool move(const std::string& destination, const T& value) {
    return async_move(destination, value, blocking("move"));
  }
  /// Every member, in one SMEMBERS (values() pages through a large set instead).
  std::vector<T> read_all() const { return async_read_all(blocking("read_all")); }
  /// Adds all the values only if none of them is a member yet (one script); true if added.
  bool try_add(const std::vector<T>& values) { return async_try_add(values, blocking("try_add")); }
  /// True if every one of `values` is a member (one SMISMEMBER; true for none).
  bool contains_all(const std::vector<T>& values) const {
    return async_contains_all(values, blocking("contains_all"));
  }
  /// Keeps only the members that are among `values` (one script; none: deletes the set, as
  /// Redisson); true if a member was removed.
  bool retain_all(const std::vector<T>& values) {
    return async_retain_all(values, blocking("retain_all"));
  }
  /// Replaces this set by the union of the sets `names` (SUNIONSTORE, as Redisson's union: this
  /// set's own members count only if its name is among `names`); returns its new size.
  std::int64_t store_union(std::vector<std::string> names) {
    return async_store_union(std::move(names), blocking("store_union"));
  }
  /// The union of this set and the sets `names` (SUNION); nothing is written.
  std::vector<T> read_union(std::vector<std::string> names) const {
    return async_read_union(std::move(names), blocking("read_union"));
  }
  /// Replaces this set by the intersection of the sets `names` (SINTERSTORE, as Redisson: this
  /// set is one of them only if named); returns its new size.
  std::int64_t store_intersection(std::vector<std::string> names) {
    return async_store_intersection(std::move(names), blocking("store_intersection"));
  }
  /// The intersection of this set and the sets `names` (SINTER); nothing is written.
  std::vector<T> read_intersection(std::vector<std::string> names) const {
    return async_read_intersection(std::move(names), blocking("read_intersection"));
  }
  /// The size of the intersection of this set and the sets `names` (SINTERCARD), counting up to
  /// `limit` (0: no limit); nothing is written.
  std::int64_t count_intersection(std::vector<std::string> names, std::int64_t limit = 0) const {
    return async_count_intersection(std::move(names), limit, blocking("count_intersection"));
  }
  /// Replaces this set by the members of the first of `names` that are in none of the others
  /// (SDIFFSTORE, as Redisson); returns its new size.
  std::int64_t store_diff(std::vector<std::string> names) {
    return async_store_diff(std::move(names), blocking("store_diff"));
  }
  /// The members of this set that are in none of the sets `names` (SDIFF); nothing is written.
  std::vector<T> read_diff(std::vector<std::string> names) const {
    return async_read_diff(std::move(names), blocking("read_diff"));
  }

  /// The members, read in pages of about `page_size` with SSCAN as they are iterated (see
  /// CollectionScan for what a scan guarantees). Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "SSCAN", page_size, &detail::decode_elements<T>);
  }
  /// Java's distributedIterator: a scan whose cursor is kept in Redis under `iterator_name`
  /// (SSCAN with `page_size`, MATCH `pattern` over the encoded members when not empty), so every
  /// handle, in any process, that scans with that name takes the next page and together they
  /// read the set once. The cursor lives an hour from the last page taken; a finished scan stays
  /// finished until then (delete the key to start over). One script per page.
  CollectionScan<T> distributed_values(std::string iterator_name, std::int64_t page_size,
                                       std::string pattern = {}) const {
    return CollectionScan<T>(object_,
                             detail::make_distributed_scan(
                                 "SSCAN", page_size, std::move(iterator_name), std::move(pattern)),
                             &detail::decode_elements<T>);
  }
  /// As distributed_values(name, page_size) with Redisson's default name
  /// `__redisson_set_cursor_{name}`.
  CollectionScan<T> distributed_values(std::int64_t page_size = 10) const {
    return distributed_values(detail::distributed_cursor_key("set", name()), page_size);
  }

  // lock_name(value), semaphore_name(value), ...: KeyedSynchronizers' (Java's set.getLock(value),
  // ...).

 private:
  friend class KeyedSynchronizers<Set<T>, T>;
  /// The bytes Redisson hashes into a member's synchronizer names: the codec's.
  std::string synchronizer_bytes(const T& value) const {
    return detail::encode_value(codec(), value);
  }

  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  /// `verb name <members...>`, the values encoded when the operation starts (a codec_error is
  /// the completion's); none sent for no values.
  template <class R, class CompletionToken, class Convert>
  auto members_command(CompletionToken&& token, Convert convert, const char* verb,
                       std::vector<T> values) const;
  /// `start(object, encoded members, done)` (a script), the values encoded when it starts.
  template <class R, class CompletionToken, class Convert, class Start>
  auto members_script(CompletionToken&& token, Convert convert, Start start,
                      std::vector<T> values) const;
  /// One of detail::SetAlgebra over this set and `names`.
  template <class R, class CompletionToken, class Convert>
  auto algebra(CompletionToken&& token, Convert convert, detail::SetAlgebra operation,
               std::vector<std::string> names, std::int64_t limit = 0) const;
};

}  // namespace redisson

#include "redisson/objects/impl/set.hpp"
