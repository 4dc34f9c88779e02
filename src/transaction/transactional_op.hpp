// The two shapes every transactional operation takes (Redisson's BaseTransactional* classes):
//
//   a read:  the transaction's own entry for the key when it wrote one, else one command to
//            Redis (GET, HGET, HEXISTS, SISMEMBER, ...);
//   a write: take the key's lock, find the current value (the own entry, else one read from
//            Redis), decide from it (the reply, the new own entry, the command commit() sends),
//            record the decision.
//
// A write over several keys (put_all, Buckets' set and try_set) takes every key's lock first,
// then decides and records under the mutex (tx_write_all, tx_record_all).
//
// The typed operations (transactional_bucket.cpp, _buckets.cpp, _map.cpp, _set.cpp) are tables
// over these.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "objects/send.hpp"
#include "redisson/command.hpp"
#include "redisson/detail/transaction_op.hpp"
#include "transaction/transaction_state.hpp"

namespace redisson::detail {

using TransactionPtr = std::shared_ptr<TransactionState>;
/// Which of the transaction's views an object's entries are in.
using OwnEntries = TransactionState::Entries TransactionState::*;

/// A bulk string reply of `value`, nil for nullopt.
Reply tx_value_reply(const std::optional<std::string>& value);
/// An integer reply 1/0.
Reply tx_flag_reply(bool value);
/// A read of several keys, some answered by the transaction (`values`), the others (positions
/// `unknown`) read from Redis: the completion of that read, which fills them in from its array
/// reply (nil stays absent) and completes `done` with an array reply of all of them, in order.
Done<Reply> tx_fill_unknown(std::vector<std::optional<std::string>> values,
                            std::vector<std::size_t> unknown, Done<Reply> done);
/// An array reply of bulk strings.
Reply tx_array_reply(const std::vector<std::optional<std::string>>& values);

/// What a write decides from the current value (called under the transaction's mutex).
struct TxDecision {
  Reply reply;
  /// The transaction's new entry for the key (nullopt inside: removed); absent: unchanged.
  std::optional<std::optional<std::string>> own;
  /// What commit() queues for it; null: nothing recorded, and the lock's hold is released now.
  std::function<void(const ObjectPtr& bound)> queue;
};
using TxDecide = std::function<TxDecision(const std::optional<std::string>& current)>;

/// How the current value is read from Redis when the transaction has no entry for the key.
struct TxRead {
  /// Sends the read (a command, or a map layout's operation) for the object.
  std::function<void(const ObjectPtr& object, Done<Reply>& done)> start;
  /// true: the reply is an integer flag (EXISTS, SISMEMBER), "present" read as "".
  bool membership = false;
};
/// A read that is one command.
TxRead tx_read_command(Command command, bool membership = false);

/// The write shape: lock `lock`, read the current value (`read` absent: not needed, nullopt),
/// decide, record.
void tx_write(const TransactionPtr& transaction, const ObjectPtr& object, OwnEntries entries,
              std::string key, std::string lock, std::optional<TxRead> read, TxDecide decide,
              Done<Reply> done);

/// What a write over several locks decides once it holds them all (called under the mutex, the
/// transaction open): its reply, and whether it recorded writes that hold every one of the
/// locks (false: it recorded nothing, and each hold is given back now).
struct TxDecisionAll {
  Reply reply;
  bool recorded = false;
};
using TxDecideAll = std::function<TxDecisionAll(TransactionState& transaction)>;

/// After the holds of `locks` were taken: `decide` under the mutex, or, when the transaction
/// finished meanwhile, the finished refusal; the holds are given back unless it recorded.
void tx_record_all(const TransactionPtr& transaction, const std::vector<std::string>& locks,
                   const TxDecideAll& decide, Done<Reply> done);
/// The write shape over several locks (map put_all, Buckets' set): take them all
/// (TransactionState::lock_all), then tx_record_all.
void tx_write_all(const TransactionPtr& transaction, std::vector<std::string> locks,
                  TxDecideAll decide, Done<Reply> done);

/// The read shape: the own entry (as a value, or as a flag when `as_flag`), else `read`'s reply.
void tx_read(const TransactionPtr& transaction, const ObjectPtr& object, OwnEntries entries,
             const std::string& key, const TxRead& read, bool as_flag, Done<Reply> done);

/// A bucket's transaction lock: `<name>:transaction_lock` (TransactionalBucket and
/// TransactionalBuckets share it, as Java's do).
std::string bucket_transaction_lock(const std::string& name);

/// What commit() sends for a write: `command` on the bound object.
std::function<void(const ObjectPtr&)> tx_queue_command(Command command);

/// How many of `own` entries hold a value (not removed).
std::int64_t tx_count_present(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& own);

/// The transaction's entries of `name`: key -> own value (nullopt: removed). Under the mutex.
std::vector<std::pair<std::string, std::optional<std::string>>> tx_own_entries(
    const TransactionState& transaction, OwnEntries entries, const std::string& name);

/// What a whole-object read lays over Redis's answer: the transaction's entries of the object
/// (tx_own_entries) and whether it deleted the object (then Redis's answer does not count).
struct TxOwnView {
  std::vector<std::pair<std::string, std::optional<std::string>>> entries;
  bool emptied = false;
};
/// The object's TxOwnView, taken under the transaction's mutex.
TxOwnView tx_own_view(TransactionState& transaction, OwnEntries entries, const std::string& name);

void start_bucket_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                     const std::vector<std::string>& args, Done<Reply> done);
void start_map_op(const TransactionPtr& transaction, const ObjectPtr& object,
                  const MapLayout& layout, TxOp op, std::vector<std::string> args,
                  Done<Reply> done);
void start_set_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                  const std::vector<std::string>& args, Done<Reply> done);
/// What a whole-object operation acts on: the view of the object's entries, how its lock
/// `<name>:transaction_lock` is taken (a map's or set's: a read-write lock's write side; a
/// bucket's: a plain lock), whether a delete empties a whole collection (a bucket's removes its
/// one entry), and whether touch locks (a bucket's does, a collection's not: as Redisson).
struct ObjectOpTarget {
  OwnEntries view;
  TxLockKind lock_kind;
  bool whole;
  bool touch_locks;
};

/// The whole-object operations (object_is_exists, _delete, _unlink, _touch, _expire,
/// _clear_expire) of a map, set or bucket (transactional_object_ops.cpp).
void start_object_op(const TransactionPtr& transaction, const ObjectPtr& object,
                     const ObjectOpTarget& target, TxOp op, const std::vector<std::string>& args,
                     Done<Reply> done);
void start_buckets_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                      std::vector<std::string> args, Done<Reply> done);

}  // namespace redisson::detail
