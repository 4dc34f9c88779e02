// What the transactional objects (TransactionalBucket, TransactionalBuckets, TransactionalMap,
// TransactionalMapCache, TransactionalSet) share: the transaction they are seen through, the
// object (name, codec, client) and the one call path of their operations.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/duration.hpp"
#include "redisson/detail/transaction_op.hpp"

namespace redisson {
class Transaction;
}

namespace redisson::detail {

class TransactionalObject {
 public:
  const std::string& name() const noexcept { return object_->name; }

 protected:
  /// `layout`: a map's (its reads and commit go through it); null for the others.
  TransactionalObject(const Transaction& transaction, std::string name, CodecPtr codec,
                      const char* kind, const ObjectHooks* hooks = nullptr,
                      const MapLayout* layout = nullptr);
  /// A handle with no name (TransactionalBuckets: its names come with each call).
  TransactionalObject(const Transaction& transaction, CodecPtr codec);

  Blocking blocking(const char* operation) const { return detail::blocking(operation, name()); }

  /// Runs `op`: `encode(codec)` makes its arguments, `convert` reads the Reply it completes with.
  template <class R, class Token, class Convert, class Encode>
  auto call(Token&& token, TxOp op, Convert convert, Encode encode) const {
    return async_transactional<R>(transaction_, object_, layout_, token, op, std::move(encode),
                                  std::move(convert));
  }
  /// No arguments.
  static auto nothing() {
    return [](const Codec&) { return std::vector<std::string>{}; };
  }

  std::shared_ptr<TransactionState> transaction_;
  ObjectPtr object_;
  const MapLayout* layout_;
};

/// What a transactional map or set (and their caches) adds: its whole-object operations, as
/// Redisson's BaseTransactionalMap and BaseTransactionalSet have them.
///
///   - is_exists(): an entry the transaction wrote holds a value; else, unless the transaction
///     deleted the object, EXISTS.
///   - delete_object() / unlink(): take the object's own lock `<name>:transaction_lock` as the
///     write side of a read-write lock (Java's RedissonTransactionalWriteLock, field
///     `<client-id>:<thread>:write:<transaction id>`), answer is_exists(), and record a DEL /
///     UNLINK of every key of the object. From then on the transaction sees only what it writes
///     to the object since.
///   - touch(): records a TOUCH of its keys (no lock, as in Redisson); answers is_exists().
///   - expire(ttl) / clear_expire(): under the same write lock, record a PEXPIRE / PERSIST of
///     each key; answer is_exists() / whether it has a time to live.
///
/// Redisson refuses move and migrate inside a transaction; they are not here.
class TransactionalCollection : public TransactionalObject {
 public:
  template <class CompletionToken>
  auto async_is_exists(CompletionToken&& token) const {
    return call<bool>(token, TxOp::object_is_exists, &reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_delete_object(CompletionToken&& token) {
    return call<bool>(token, TxOp::object_delete, &reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_unlink(CompletionToken&& token) {
    return call<bool>(token, TxOp::object_unlink, &reply_flag, nothing());
  }
  template <class CompletionToken>
  auto async_touch(CompletionToken&& token) {
    return call<bool>(token, TxOp::object_touch, &reply_flag, nothing());
  }
  template <class Rep, class Period, class CompletionToken>
  auto async_expire(std::chrono::duration<Rep, Period> ttl, CompletionToken&& token) {
    return call<bool>(token, TxOp::object_expire, &reply_flag,
                      [ms = saturating_ms(ttl)](const Codec&) {
                        if (ms.count() <= 0) throw_invalid_argument("the ttl must be positive");
                        return std::vector<std::string>{std::to_string(ms.count())};
                      });
  }
  template <class CompletionToken>
  auto async_clear_expire(CompletionToken&& token) {
    return call<bool>(token, TxOp::object_clear_expire, &reply_flag, nothing());
  }

  bool is_exists() const { return async_is_exists(blocking("is_exists")); }
  /// Records a PEXPIRE of every key of the object (under its write lock); true if it exists
  /// (as the transaction sees it). The ttl must be positive.
  template <class Rep, class Period>
  bool expire(std::chrono::duration<Rep, Period> ttl) {
    return async_expire(ttl, blocking("expire"));
  }
  /// Records a PERSIST of every key (under its write lock); true if it had a time to live (an
  /// expire this transaction recorded, else PTTL).
  bool clear_expire() { return async_clear_expire(blocking("clear_expire")); }
  bool delete_object() { return async_delete_object(blocking("delete_object")); }
  bool unlink() { return async_unlink(blocking("unlink")); }
  bool touch() { return async_touch(blocking("touch")); }

 protected:
  using TransactionalObject::TransactionalObject;
};

}  // namespace redisson::detail

// After the class: transaction.hpp includes the transactional objects, which derive from it.
#include "redisson/transaction.hpp"  // IWYU pragma: export
