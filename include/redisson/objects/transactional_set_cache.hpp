// redisson::TransactionalSetCache<T>: a SetCache inside a Transaction (Java Redisson's
// RedissonTransactionalSetCache, `transaction.getSetCache(name)`).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/duration.hpp"
#include "redisson/objects/transactional_set.hpp"

namespace redisson {

/// The set cache `name` (SetCache<T>'s layout: a zset scored by each member's expiry) seen
/// through a Transaction, with TransactionalSet's operations and locks (Redisson's
/// BaseTransactionalSet is shared the same way). A member is there while its expiry is in the
/// future on the client's clock, as SetCache reads it: contains reads ZSCORE, read_all the
/// zset's ZSCAN pages, size ZCOUNT plus a ZMSCORE of the written members. A write takes the
/// member's lock `{name}:<hash of the member's bytes>:lock`, reads whether it is a live member
/// (ZSCORE) and records SetCache's add script (with the ttl, counted from the commit) or its
/// remove script for commit().
///
/// The transaction's own view of a member does not expire before commit(). A handle on the
/// transaction: cheap to copy; after commit() or rollback() every operation fails with
/// errc::invalid_argument.
template <JavaValue T>
class TransactionalSetCache : public TransactionalSet<T> {
  using Base = TransactionalSet<T>;

 public:
  TransactionalSetCache(const Transaction& transaction, std::string name, CodecPtr codec = nullptr)
      : Base(transaction, std::move(name), std::move(codec), "TransactionalSetCache",
             detail::kTxSetCacheOps) {}

  using Base::add;
  using Base::async_add;

  /// Records SetCache's add with a time to live (0: none; not negative), counted from the
  /// commit; true if `value` was not a live member (as the transaction sees it).
  template <class Rep, class Period, class CompletionToken>
  auto async_add(const T& value, std::chrono::duration<Rep, Period> ttl, CompletionToken&& token) {
    const auto ms = detail::saturating_ms(ttl);
    return this->template call<bool>(
        token, this->ops_.add, &detail::reply_flag, [value, ms](const Codec& codec) {
          if (ms.count() < 0) {
            detail::throw_invalid_argument("the ttl must not be negative");
          }
          return std::vector<std::string>{detail::encode_value(codec, value),
                                          std::to_string(ms.count())};
        });
  }
  template <class Rep, class Period>
  bool add(const T& value, std::chrono::duration<Rep, Period> ttl) {
    return async_add(value, ttl, this->blocking("add"));
  }
};

}  // namespace redisson
