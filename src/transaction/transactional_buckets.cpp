// TransactionalBuckets' operations (Redisson's RedissonTransactionalBuckets): each name is the
// bucket of that name, with TransactionalBucket's lock and own entries; reads of the names the
// transaction did not write are one MGET, try_set's existence check one EXISTS (per slot on a
// Cluster, as Buckets and Keys send them).
#include <mutex>

#include "objects/send.hpp"
#include "redisson/objects/buckets.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// args: name, value, name, value... -> the names.
std::vector<std::string> names_of_pairs(const std::vector<std::string>& args) {
  std::vector<std::string> names;
  names.reserve(args.size() / 2);
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) names.push_back(args[i]);
  return names;
}

std::vector<std::string> bucket_locks_of(const std::vector<std::string>& names) {
  std::vector<std::string> locks;
  locks.reserve(names.size());
  for (const auto& name : names) locks.push_back(bucket_transaction_lock(name));
  return locks;
}

/// The transaction's own entry of bucket `name`, if it wrote one. Under the mutex.
const std::optional<std::string>* own_bucket(const TransactionState& transaction,
                                             const std::string& name) {
  auto it = transaction.buckets.find({name, std::string()});
  return it == transaction.buckets.end() ? nullptr : &it->second;
}

void buckets_get(const TransactionPtr& transaction, const ObjectPtr& object,
                 std::vector<std::string> names, Done<Reply> done) {
  std::vector<std::optional<std::string>> values(names.size());
  std::vector<std::size_t> unknown;  // positions the transaction did not write
  {
    std::lock_guard guard(transaction->mutex);
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (const auto* own = own_bucket(*transaction, names[i])) {
        values[i] = *own;
      } else {
        unknown.push_back(i);
      }
    }
  }
  if (unknown.empty()) return done({}, tx_array_reply(values));
  std::vector<std::string> unknown_names;
  unknown_names.reserve(unknown.size());
  for (const auto i : unknown) unknown_names.push_back(names[i]);
  Done<Reply> on_values = tx_fill_unknown(std::move(values), std::move(unknown), std::move(done));
  start_buckets_get(object, unknown_names, on_values);
}

void buckets_set(const TransactionPtr& transaction, const ObjectPtr& object,
                 std::vector<std::string> args, Done<Reply> done) {
  auto locks = bucket_locks_of(names_of_pairs(args));
  TxDecideAll record = [object, args = std::move(args), locks](TransactionState& state) {
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
      state.buckets[{args[i], std::string()}] = args[i + 1];
      state.record_locked(TransactionWrite{
          object, tx_queue_command(Command{"SET", args[i], args[i + 1]}), locks[i / 2]});
    }
    return TxDecisionAll{Reply{}, true};
  };
  tx_write_all(transaction, std::move(locks), std::move(record), std::move(done));
}

/// true when none of the names exists as the transaction sees it: its own entries, else
/// `stored_count` (how many of the names it did not write exist in Redis). Under the mutex.
bool none_exists(const TransactionState& transaction, const std::vector<std::string>& names,
                 std::int64_t stored_count) {
  for (const auto& name : names) {
    const auto* own = own_bucket(transaction, name);
    if (own != nullptr && own->has_value()) return false;
  }
  return stored_count == 0;
}

/// Recorded when try_set succeeds: one MSETNX of every pair (Java's BucketsTrySetOperation),
/// holding every name's lock; the own entries become the values.
TxDecideAll try_set_decision(const ObjectPtr& object, std::vector<std::string> args,
                             std::vector<std::string> locks, std::int64_t stored_count) {
  return [object, args = std::move(args), locks = std::move(locks),
          stored_count](TransactionState& state) {
    if (!none_exists(state, names_of_pairs(args), stored_count)) {
      // Nothing recorded, unlike Java (which queues the MSETNX anyway): a refused try_set must
      // not write at commit because the names were deleted meanwhile.
      return TxDecisionAll{tx_flag_reply(false), false};
    }
    std::vector<std::pair<std::string, std::string>> pairs;
    for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
      state.buckets[{args[i], std::string()}] = args[i + 1];
      pairs.emplace_back(args[i], args[i + 1]);
    }
    // The MSETNX goes with the first write; the others only release their locks after it.
    std::function<void(const ObjectPtr&)> queue = [pairs](const ObjectPtr& bound) {
      Done<Reply> ignore = [](const Status&, const Reply&) {};
      start_buckets_set(bound, "MSETNX", pairs, ignore);
    };
    for (const auto& lock : locks) {
      state.record_locked(TransactionWrite{object, std::move(queue), lock});
      queue = [](const ObjectPtr&) {};
    }
    return TxDecisionAll{tx_flag_reply(true), true};
  };
}

void buckets_try_set(const TransactionPtr& transaction, const ObjectPtr& object,
                     std::vector<std::string> args, Done<Reply> done) {
  if (args.empty()) return done({}, tx_flag_reply(false));  // as Redisson: nothing to set
  auto names = names_of_pairs(args);
  auto locks = std::make_shared<const std::vector<std::string>>(bucket_locks_of(names));
  transaction->lock_all(*locks, [transaction, object, names = std::move(names),
                                 args = std::move(args), locks,
                                 done = std::move(done)](Status status) mutable {
    if (status) return done(std::move(status), Reply{});
    // The names the transaction did not write are looked up in Redis (EXISTS); one it wrote
    // with a value decides at once.
    std::vector<std::string> unknown;
    {
      std::lock_guard guard(transaction->mutex);
      for (const auto& name : names) {
        if (own_bucket(*transaction, name) == nullptr) unknown.push_back(name);
      }
    }
    if (unknown.empty()) {
      return tx_record_all(transaction, *locks,
                           try_set_decision(object, std::move(args), *locks, 0), std::move(done));
    }
    Done<Reply> on_count = [transaction, object, args = std::move(args), locks,
                            done = std::move(done)](Status count_status,
                                                    const Reply& count) mutable {
      if (count_status) {
        for (const auto& lock : *locks) transaction->unlock_now(lock);
        return done(std::move(count_status), Reply{});
      }
      tx_record_all(transaction, *locks,
                    try_set_decision(object, std::move(args), *locks, count.integer),
                    std::move(done));
    };
    submit_per_slot_sum(*object, "EXISTS", unknown, std::move(on_count));
  });
}

}  // namespace

void start_buckets_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                      std::vector<std::string> args, Done<Reply> done) {
  switch (op) {
    case TxOp::buckets_get:
      return buckets_get(transaction, object, std::move(args), std::move(done));
    case TxOp::buckets_set:
      return buckets_set(transaction, object, std::move(args), std::move(done));
    case TxOp::buckets_try_set:
      return buckets_try_set(transaction, object, std::move(args), std::move(done));
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a buckets operation"),
                  Reply{});
  }
}

}  // namespace redisson::detail
