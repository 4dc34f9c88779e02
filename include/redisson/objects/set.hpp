// redisson::Set<T>: a set shared through one Redis set, Java Redisson's RSet.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/objects/collection_scan.hpp"
#include "redisson/objects/members.hpp"
#include "redisson/objects/object.hpp"

namespace redisson {

/// A set of T stored in the Redis set `name`, each member the codec's bytes of one value: the
/// layout of Java Redisson's RSet, so Java and C++ share one set when they use the same codec.
/// Members are compared as bytes (by the server), which is what Java Redisson does too.
///
/// Cost: each operation is one command, one round trip (SADD, SREM, SISMEMBER, SMISMEMBER,
/// SCARD, SRANDMEMBER, SPOP, SMOVE); values() reads the set in pages of SSCAN, never one
/// SMEMBERS.
///
/// A key of another type is errc::wrong_type and is left untouched; bytes the codec cannot read
/// as a T are errc::codec_error. A handle: cheap to copy, sends nothing until called,
/// thread-safe.
template <JavaValue T>
class Set : public Object, public Members<Set<T>, T> {
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

  /// The members, read in pages of about `page_size` with SSCAN as they are iterated (see
  /// CollectionScan for what a scan guarantees). Sends nothing until the first page is asked.
  CollectionScan<T> values(std::int64_t page_size = 100) const {
    return CollectionScan<T>(object_, "SSCAN", page_size, &detail::decode_elements<T>);
  }

 private:
  detail::Blocking blocking(const char* operation) const {
    return detail::blocking(operation, name());
  }
  /// `verb name <members...>`, the values encoded when the operation starts (a codec_error is
  /// the completion's); none sent for no values.
  template <class R, class CompletionToken, class Convert>
  auto members_command(CompletionToken&& token, Convert convert, const char* verb,
                       std::vector<T> values) const;
};

}  // namespace redisson

#include "redisson/objects/impl/set.hpp"
