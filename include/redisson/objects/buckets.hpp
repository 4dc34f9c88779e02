// redisson::Buckets: many Buckets read or written with one command, Java Redisson's RBuckets.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"

namespace redisson {

namespace detail {
/// get: MGET of `names` (one per hash slot on a Cluster, pipelined). Completes with an array
/// reply of their values in the order of `names`.
void start_buckets_get(const ObjectPtr& state, const std::vector<std::string>& names,
                       Done<Reply>& done);
/// set / try_set: MSET or MSETNX (`command`) of the name/bytes pairs, one per hash slot on a
/// Cluster. Completes with an integer reply: 1 when every command succeeded (MSETNX: set its
/// keys), else 0. No pairs: 0, nothing sent.
void start_buckets_set(const ObjectPtr& state, const char* command,
                       std::vector<std::pair<std::string, std::string>> pairs, Done<Reply>& done);
}  // namespace detail

/// The values of many buckets (Bucket<T>'s layout: a string key per name holding the codec's
/// bytes) read or written together: one MGET, MSET or MSETNX round trip on a single server.
///
/// On a Cluster the names are split by hash slot and one command per slot is sent, all
/// pipelined (as Redisson does): still one round trip of waiting, and get/set are as atomic as
/// on one server per slot only. try_set() is all-or-nothing per slot only: with names in several
/// slots some slots may be written while another is refused; use one {hash tag} for names that
/// must be set together.
///
/// A handle: cheap to copy, sends nothing until called, thread-safe. A key of another type in
/// get() reads as absent (MGET answers nil for it); set() replaces it, as MSET does.
class Buckets {
 public:
  /// Buckets of `client` stored with `codec` (null: the client's default codec).
  explicit Buckets(const Client& client, CodecPtr codec = nullptr)
      : state_(detail::make_keyless(client, std::move(codec))) {}

  /// The codec values are stored with.
  const Codec& codec() const noexcept { return *state_->codec; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <JavaValue T, class CompletionToken>
  auto async_get(const std::vector<std::string>& names, CompletionToken&& token) const;
  template <JavaValue T, class CompletionToken>
  auto async_set(const std::map<std::string, T>& values, CompletionToken&& token);
  template <JavaValue T, class CompletionToken>
  auto async_try_set(const std::map<std::string, T>& values, CompletionToken&& token);

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// The values of the buckets `names` that exist, by name (MGET); none sent for no names.
  template <JavaValue T>
  std::map<std::string, T> get(const std::vector<std::string>& names) const {
    return async_get<T>(names, detail::blocking("Buckets::get"));
  }
  /// Stores every value under its name (MSET); nothing sent for an empty map.
  template <JavaValue T>
  void set(const std::map<std::string, T>& values) {
    async_set(values, detail::blocking("Buckets::set"));
  }
  /// Stores the values only if none of the names exists (MSETNX; per slot on a Cluster, see
  /// above); true if they were stored. False for an empty map, as Redisson.
  template <JavaValue T>
  bool try_set(const std::map<std::string, T>& values) {
    return async_try_set(values, detail::blocking("Buckets::try_set"));
  }

 private:
  friend class Batch;  // binds it to itself (Batch::get)
  template <class R, class T, class CompletionToken>
  auto write(const char* command, const std::map<std::string, T>& values, CompletionToken&& token);

  detail::ObjectPtr state_;
};

}  // namespace redisson

#include "redisson/objects/impl/buckets.hpp"
