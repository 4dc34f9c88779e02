// redisson::HyperLogLog<T>: a cardinality estimator in Redis, Java Redisson's RHyperLogLog.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/objects/object.hpp"

namespace redisson {

namespace detail {
/// `command` name others...: PFCOUNT / PFMERGE over this log and others.
Command with_other_keys(std::string_view command, const std::string& name,
                        const std::vector<std::string>& others);
}  // namespace detail

/// Counts distinct values of type T approximately (standard error 0.81%) in 12 KB at most:
/// Redis's HyperLogLog, shared with Java Redisson's RHyperLogLog.
///
/// Layout: a string key `name` in Redis's HLL encoding. Values are hashed by Redis over their
/// codec bytes, so a Java and a C++ process count the same value once only if their codecs
/// write it byte for byte alike (the same codec, e.g. codecs::string() on both sides). One
/// command per operation (PFADD, PFCOUNT, PFMERGE): one round trip each.
///
/// A key of another type (or a string that is not an HLL) is errc::wrong_type; nothing changes.
/// count_with and merge_with need the other logs in the same hash slot on a Cluster (names with
/// the same {hash tag}); otherwise the server refuses (errc::server_error).
template <JavaValue T>
class HyperLogLog : public Object {
 public:
  /// A handle on the log `name`; sends nothing. `codec` null: the client's default codec.
  HyperLogLog(const Client& client, std::string name, CodecPtr codec = nullptr)
      : Object(client, std::move(name), std::move(codec), "HyperLogLog") {}

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token);
  template <class CompletionToken>
  auto async_count(CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_count_with(const std::vector<std::string>& others, CompletionToken&& token) const;
  template <class CompletionToken>
  auto async_merge_with(const std::vector<std::string>& others, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `value`; true if the estimate changed.
  bool add(const T& value) { return async_add(value, detail::blocking("add", name())); }
  /// Adds every value with one PFADD; true if the estimate changed (an empty list creates an
  /// empty log: true if there was none).
  bool add_all(const std::vector<T>& values) {
    return async_add_all(values, detail::blocking("add_all", name()));
  }
  /// The estimated number of distinct values added (0 when the key does not exist).
  std::int64_t count() const { return async_count(detail::blocking("count", name())); }
  /// The estimated number of distinct values in the union of this log and `others`, which are
  /// left unchanged.
  std::int64_t count_with(const std::vector<std::string>& others) const {
    return async_count_with(others, detail::blocking("count_with", name()));
  }
  /// Merges `others` into this log (PFMERGE).
  void merge_with(const std::vector<std::string>& others) {
    async_merge_with(others, detail::blocking("merge_with", name()));
  }
};

}  // namespace redisson

#include "redisson/objects/impl/hyper_log_log.hpp"
