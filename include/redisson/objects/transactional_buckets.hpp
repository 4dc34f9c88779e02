// redisson::TransactionalBuckets: Buckets inside a Transaction (Java Redisson's
// RedissonTransactionalBuckets, `transaction.getBuckets()`).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/transactional_object.hpp"

namespace redisson {

/// Many buckets (Bucket<T>'s layout) read or written together through a Transaction, as
/// Buckets does outside one. Each bucket is the same as a TransactionalBucket<T> of its name:
/// the same lock `<name>:transaction_lock`, and the same view of the transaction's own writes
/// (a bucket set here reads back through a TransactionalBucket of the transaction, and the
/// other way round).
///
///   - get(names): the transaction's own values for the names it wrote; one MGET (per slot on a
///     Cluster) for the others.
///   - set(values): takes every name's lock and records one `SET name value` per name.
///   - try_set(values): takes every name's lock; true, recording one `MSETNX` of all of them,
///     when none of them exists as the transaction sees it (its own writes, else one `EXISTS`
///     of the others); false records nothing and gives the holds back.
///
/// Locks: all of a call's locks are tried at once (one round trip when no other transaction
/// holds any); from the first one held elsewhere on, they are taken one at a time in name
/// order, waiting as TransactionalBucket does (until the transaction's timeout, then
/// errc::timeout, nothing recorded, no hold kept). A handle on the transaction: cheap to copy;
/// after commit() or rollback() every operation fails with errc::invalid_argument. An empty
/// name is errc::invalid_argument, nothing sent.
class TransactionalBuckets : public detail::TransactionalObject {
 public:
  /// Buckets of `transaction` stored with `codec` (null: the client's default codec).
  explicit TransactionalBuckets(const Transaction& transaction, CodecPtr codec = nullptr)
      : TransactionalObject(transaction, std::move(codec)) {}

  // ---- asynchronous forms -----------------------------------------------------------------
  template <JavaValue T, class CompletionToken>
  auto async_get(const std::vector<std::string>& names, CompletionToken&& token) const {
    return call<std::map<std::string, T>>(token, detail::TxOp::buckets_get,
                                          detail::bucket_values_by_name<T>(names, object_->codec),
                                          [names](const Codec&) {
                                            for (const auto& name : names) check_name(name);
                                            return names;
                                          });
  }
  template <JavaValue T, class CompletionToken>
  auto async_set(const std::map<std::string, T>& values, CompletionToken&& token) {
    return call<void>(token, detail::TxOp::buckets_set, &detail::reply_ignore, pairs(values));
  }
  template <JavaValue T, class CompletionToken>
  auto async_try_set(const std::map<std::string, T>& values, CompletionToken&& token) {
    return call<bool>(token, detail::TxOp::buckets_try_set, &detail::reply_flag, pairs(values));
  }

  // ---- blocking forms: throw redisson::error ------------------------------------------------
  /// The values of the buckets `names` that exist as the transaction sees them, by name.
  template <JavaValue T>
  std::map<std::string, T> get(const std::vector<std::string>& names) const {
    return async_get<T>(names, blocking("TransactionalBuckets::get"));
  }
  /// Records a SET of every value under its name; nothing for an empty map.
  template <JavaValue T>
  void set(const std::map<std::string, T>& values) {
    async_set(values, blocking("TransactionalBuckets::set"));
  }
  /// Records an MSETNX of the values if none of the names exists as the transaction sees it;
  /// true if recorded. False for an empty map, as Redisson.
  template <JavaValue T>
  bool try_set(const std::map<std::string, T>& values) {
    return async_try_set(values, blocking("TransactionalBuckets::try_set"));
  }

 private:
  static void check_name(const std::string& name) {
    if (name.empty()) detail::throw_invalid_argument("a bucket name must not be empty");
  }
  template <class T>
  static auto pairs(const std::map<std::string, T>& values) {
    return [values](const Codec& codec) {
      std::vector<std::string> args;
      args.reserve(values.size() * 2);
      for (const auto& [name, value] : values) {
        check_name(name);
        args.push_back(name);
        args.push_back(detail::encode_value(codec, value));
      }
      return args;
    };
  }
};

}  // namespace redisson
