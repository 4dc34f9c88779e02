// What the transactional objects (TransactionalBucket, TransactionalBuckets, TransactionalMap,
// TransactionalMapCache, TransactionalSet) share: the transaction they are seen through, the
// object (name, codec, client) and the one call path of their operations.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace redisson::detail

// After the class: transaction.hpp includes the transactional objects, which derive from it.
#include "redisson/transaction.hpp"  // IWYU pragma: export
