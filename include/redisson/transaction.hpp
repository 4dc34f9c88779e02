// redisson::Transaction: a client-side transaction over buckets, maps and sets (Java Redisson's
// RTransaction), with Redisson's lock names, so that a Java RTransaction and a C++ one on the
// same keys exclude each other.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "redisson/codec.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

class Client;

namespace detail {
class TransactionState;
class TransactionalObject;
}  // namespace detail

template <JavaValue T>
class TransactionalBucket;
class TransactionalBuckets;
template <JavaValue K, JavaValue V>
class TransactionalMap;
template <JavaValue T>
class TransactionalSet;
template <JavaValue T>
class TransactionalSetCache;

/// Redisson's TransactionOptions, with the same defaults.
struct TransactionOptions {
  /// How long the transaction may last from its creation: each lock it takes expires this long
  /// after it was taken (PEXPIRE), an operation waits for a lock another transaction holds at
  /// most until then, and commit() refuses (rolling back) once it has passed. Positive.
  std::chrono::milliseconds timeout{5000};
  /// The deadline of the commit's MULTI/EXEC (and of a rollback's unlocks).
  std::chrono::milliseconds response_timeout{3000};
  /// How many times the commit is sent again when the server refused all of it without running
  /// any of it (LOADING, BUSY, ...), retry_interval apart.
  int retry_attempts = 3;
  std::chrono::milliseconds retry_interval{1500};
  /// WAIT sync_slaves sync_timeout after the commit; 0: no WAIT. (Java's 0 means "all the
  /// replicas the master has"; here name the number.) Fewer acknowledging: commit() fails with
  /// errc::not_replicated, "transaction: committed, but ..." (it was committed on the master).
  int sync_slaves = 0;
  std::chrono::milliseconds sync_timeout{5000};

  TransactionOptions& timeout_after(std::chrono::milliseconds value) {
    timeout = value;
    return *this;
  }
  TransactionOptions& response(std::chrono::milliseconds value) {
    response_timeout = value;
    return *this;
  }
  TransactionOptions& retries(int attempts, std::chrono::milliseconds interval) {
    retry_attempts = attempts;
    retry_interval = interval;
    return *this;
  }
  TransactionOptions& sync(int replicas, std::chrono::milliseconds wait) {
    sync_slaves = replicas;
    sync_timeout = wait;
    return *this;
  }
};

/// A transaction over buckets, maps and sets, as Java Redisson's RTransaction:
///
///     redisson::Transaction tx(client);
///     auto map = tx.get<redisson::TransactionalMap<std::string, std::string>>("map");
///     auto bucket = tx.get<redisson::TransactionalBucket<std::string>>("bucket");
///     map.put("k", "v");          // locks the key, reads its value (HGET), records the write
///     map.get("k");               // "v": the transaction's own write, not sent
///     bucket.set("b");            // locks the bucket, records the write
///     tx.commit();                // one MULTI ... EXEC: each write, then its unlock
///
/// Reads see the transaction's own writes; other reads go to Redis as they are called. A write
/// takes Redisson's transaction lock (a map key's `{map}:<hash of the key>:lock`, a set
/// member's `{set}:<hash of the member>:lock`, a bucket's `<name>:transaction_lock`, also
/// taken for each name by TransactionalBuckets, `tx.get<TransactionalBuckets>()`; owner field
/// `<client-id>:<thread>:<transaction id>`, lease = TransactionOptions::timeout), reads what it
/// needs of the current value, and records the command. Nothing is written before commit():
/// one MULTI/EXEC in which each recorded command is followed by the unlock of its lock.
/// rollback() only unlocks. Either finishes the transaction: any further call fails with
/// errc::invalid_argument.
///
/// A lock another transaction holds (Java's or ours) is waited for until the transaction's
/// timeout passes; then the operation fails with errc::timeout and the transaction stays usable
/// (roll it back). Another client writing the keys without a transaction is not excluded, as in
/// Redisson.
///
/// Cost: a write is two round trips the first time a key is written (lock, read; one for a
/// bucket's set), a read of an unwritten key one; commit one (plus a SCRIPT LOAD the first
/// time); rollback one. Destroying a transaction that was neither committed nor rolled back
/// rolls it back in the background (failures go to Config::error_handler).
///
/// Thread-safe; its objects are handles on it. An operation must have completed before
/// commit()/rollback() is called (otherwise invalid_argument).
class Transaction {
 public:
  /// Throws errc::invalid_argument for a timeout that is not positive or negative options.
  explicit Transaction(const Client& client, TransactionOptions options = {});
  ~Transaction();
  Transaction(Transaction&&) noexcept = default;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  /// An object of type T (TransactionalBucket<V>, TransactionalMap<K, V>,
  /// TransactionalLocalCachedMap<K, V>, TransactionalMapCache<K, V>, TransactionalSet<V>,
  /// TransactionalSetCache<V>) named `name`,
  /// in this transaction. `codec` null: the client's default. Use one codec per name within a
  /// transaction.
  template <class T>
  T get(std::string name, CodecPtr codec = nullptr) const {
    return T(*this, std::move(name), std::move(codec));
  }
  /// A handle of type T that has no name (TransactionalBuckets: Java's `getBuckets()`), in
  /// this transaction. `codec` null: the client's default.
  template <class T>
  T get(CodecPtr codec = nullptr) const {
    static_assert(std::is_constructible_v<T, const Transaction&, CodecPtr>,
                  "Transaction::get<T>(): T must be TransactionalBuckets");
    return T(*this, std::move(codec));
  }

  /// Writes everything recorded in one MULTI/EXEC and releases the locks (errc::timeout, after
  /// rolling back, when the transaction outlived its timeout).
  template <class CompletionToken>
  auto async_commit(CompletionToken&& token) {
    return detail::async_op<void>(
        core_, token, [state = state_](auto done) { start_commit(state, std::move(done)); });
  }
  void commit();
  /// Releases the locks; nothing recorded is written.
  template <class CompletionToken>
  auto async_rollback(CompletionToken&& token) {
    return detail::async_op<void>(
        core_, token, [state = state_](auto done) { start_rollback(state, std::move(done)); });
  }
  void rollback();

  /// The transaction id in the lock owner fields: 32 hex characters.
  const std::string& id() const;

 private:
  // The transactional objects are made from its state and client.
  friend class detail::TransactionalObject;

  const std::shared_ptr<detail::TransactionState>& state() const noexcept { return state_; }
  const Client& client() const noexcept { return *client_; }

  static void start_commit(const std::shared_ptr<detail::TransactionState>& state,
                           detail::Done<void> done);
  static void start_rollback(const std::shared_ptr<detail::TransactionState>& state,
                             detail::Done<void> done);

  const Client* client_;
  std::shared_ptr<detail::ClientCore> core_;
  std::shared_ptr<detail::TransactionState> state_;
};

}  // namespace redisson

#include "redisson/objects/transactional_bucket.hpp"
#include "redisson/objects/transactional_buckets.hpp"
#include "redisson/objects/transactional_local_cached_map.hpp"
#include "redisson/objects/transactional_map.hpp"
#include "redisson/objects/transactional_map_cache.hpp"
#include "redisson/objects/transactional_set.hpp"
#include "redisson/objects/transactional_set_cache.hpp"
