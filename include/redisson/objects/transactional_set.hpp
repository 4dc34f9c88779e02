// redisson::TransactionalSet<T>: a Set inside a Transaction (Java Redisson's
// RedissonTransactionalSet).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/transactional_object.hpp"
#include "redisson/objects/map.hpp"

namespace redisson {

/// The set `name` (Set<T>'s layout) seen through a Transaction. Reads count the transaction's
/// own writes (contains: the member's own write, else SISMEMBER; read_all: SMEMBERS merged;
/// size: SCARD plus an SMISMEMBER of the written members). A write takes the member's lock
/// `{name}:<hash of the member's bytes>:lock` (Redisson's getLockByValue), reads whether the
/// member is there (SISMEMBER) and records SADD or SREM for commit().
///
/// A handle on the transaction: cheap to copy; after commit() or rollback() every operation
/// fails with errc::invalid_argument.
template <JavaValue T>
class TransactionalSet : public detail::TransactionalCollection {
 public:
  TransactionalSet(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : TransactionalSet(transaction, std::move(name), std::move(codec), "TransactionalSet",
                         detail::kTxSetOps) {}

  // ---- asynchronous forms -----------------------------------------------------------------
  template <class CompletionToken>
  auto async_add(const T& value, CompletionToken&& token) {
    return call<bool>(token, ops_.add, &detail::reply_flag, member(value));
  }
  template <class CompletionToken>
  auto async_remove(const T& value, CompletionToken&& token) {
    return call<bool>(token, ops_.remove, &detail::reply_flag, member(value));
  }
  template <class CompletionToken>
  auto async_contains(const T& value, CompletionToken&& token) const {
    return call<bool>(token, ops_.contains, &detail::reply_flag, member(value));
  }
  template <class CompletionToken>
  auto async_add_all(const std::vector<T>& values, CompletionToken&& token) {
    return call<std::int64_t>(token, ops_.add_all, &detail::reply_integer, members(values));
  }
  template <class CompletionToken>
  auto async_remove_all(const std::vector<T>& values, CompletionToken&& token) {
    return call<std::int64_t>(token, ops_.remove_all, &detail::reply_integer, members(values));
  }
  template <class CompletionToken>
  auto async_contains_all(const std::vector<T>& values, CompletionToken&& token) const {
    return call<bool>(token, ops_.contains_all, &detail::reply_flag, members(values));
  }
  template <class CompletionToken>
  auto async_read_all(CompletionToken&& token) const {
    return call<std::vector<T>>(
        token, ops_.read_all,
        [codec = object_->codec](const Reply& reply) {
          return detail::decode_elements<T>(*codec, reply);
        },
        nothing());
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return call<std::int64_t>(token, ops_.size, &detail::reply_integer, nothing());
  }

  // ---- blocking forms: throw redisson::error ------------------------------------------------
  /// Records SADD; true if `value` was not a member (as the transaction sees it).
  bool add(const T& value) { return async_add(value, blocking("add")); }
  /// Records SREM; true if `value` was a member (as the transaction sees it).
  bool remove(const T& value) { return async_remove(value, blocking("remove")); }
  bool contains(const T& value) const { return async_contains(value, blocking("contains")); }
  /// Locks every value's member (all tried at once, then in order), then records an add of
  /// each; returns how many were not members (as the transaction sees them). Duplicates count
  /// once; none: 0, nothing sent.
  std::int64_t add_all(const std::vector<T>& values) {
    return async_add_all(values, blocking("add_all"));
  }
  /// The same, recording a remove of each; returns how many were members.
  std::int64_t remove_all(const std::vector<T>& values) {
    return async_remove_all(values, blocking("remove_all"));
  }
  /// Whether every value is a member, the transaction's writes counted (one SMISMEMBER, or
  /// ZMSCORE for a set cache, of those it did not write); true for none.
  bool contains_all(const std::vector<T>& values) const {
    return async_contains_all(values, blocking("contains_all"));
  }
  /// Every member, the transaction's writes counted (SMEMBERS: for sets that fit in memory).
  std::vector<T> read_all() const { return async_read_all(blocking("read_all")); }
  std::int64_t size() const { return async_size(blocking("size")); }

  /// The lock a write of `value` takes.
  std::string lock_name(const T& value) const {
    return detail::map_lock_name(name(), detail::encode_value(*object_->codec, value));
  }

 protected:
  /// A set type over another layout (TransactionalSetCache): `ops` names its operations.
  TransactionalSet(const Transaction& transaction, std::string name, CodecPtr codec,
                   const char* kind, const detail::TxSetOps& ops)
      : TransactionalCollection(transaction, std::move(name), std::move(codec), kind), ops_(ops) {}

  static auto member(const T& value) {
    return [value](const Codec& codec) {
      return std::vector<std::string>{detail::encode_value(codec, value)};
    };
  }

  static auto members(const std::vector<T>& values) {
    return [values](const Codec& codec) {
      std::vector<std::string> args;
      args.reserve(values.size());
      for (const auto& value : values) args.push_back(detail::encode_value(codec, value));
      return args;
    };
  }

  detail::TxSetOps ops_;
};

}  // namespace redisson
