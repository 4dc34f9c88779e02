#include "transaction/transactional_op.hpp"

#include <mutex>
#include <utility>

namespace redisson::detail {
namespace {

/// One write on its way: lock, read, decide, record.
struct TxWriteOp {
  TransactionPtr transaction;
  ObjectPtr object;
  OwnEntries entries;
  std::string key;
  std::string lock;
  std::optional<TxRead> read;
  TxDecide decide;
  Done<Reply> done;
};

std::optional<std::string> tx_current_of(const Reply& reply, bool membership) {
  if (membership) {
    if (reply_flag(reply)) return std::string();
    return std::nullopt;
  }
  if (reply.is_null()) return std::nullopt;
  if (!reply.is_string()) throw_unexpected_reply("a value", reply);
  return reply.str;
}

void tx_decide_and_record(const std::shared_ptr<TxWriteOp>& op,
                          const std::optional<std::string>& current) {
  auto& transaction = *op->transaction;
  TxDecision decision;
  bool finished = false;
  bool recorded = false;
  {
    std::lock_guard guard(transaction.mutex);
    if (!transaction.open_locked()) {
      finished = true;  // rolled back (or committed) while this write waited
    } else {
      decision = op->decide(current);
      if (decision.own) {
        (transaction.*(op->entries))[{op->object->name, op->key}] = std::move(*decision.own);
      }
      if (decision.queue) {
        recorded = transaction.record_locked(
            TransactionWrite{op->object, std::move(decision.queue), op->lock});
      }
    }
  }
  // A write that recorded nothing gives its hold back now (commit or rollback would not).
  if (!recorded) transaction.unlock_now(op->lock);
  if (finished) return op->done(transaction_finished_refusal(), Reply{});
  op->done({}, std::move(decision.reply));
}

}  // namespace

Reply tx_value_reply(const std::optional<std::string>& value) {
  Reply reply;
  if (value) {
    reply.type = ReplyType::bulk_string;
    reply.str = *value;
  }
  return reply;
}

Done<Reply> tx_fill_unknown(std::vector<std::optional<std::string>> values,
                            std::vector<std::size_t> unknown, Done<Reply> done) {
  return [values = std::move(values), unknown = std::move(unknown), done = std::move(done)](
             Status status, const Reply& reply) mutable {
    if (status) return done(std::move(status), Reply{});
    for (std::size_t j = 0; j < unknown.size() && j < reply.elements.size(); ++j) {
      const auto& element = reply.elements[j];
      if (element.is_string()) values[unknown[j]] = element.str;
    }
    done({}, tx_array_reply(values));
  };
}

Reply tx_flag_reply(bool value) { return integer_reply(value ? 1 : 0); }

Reply tx_array_reply(const std::vector<std::optional<std::string>>& values) {
  Reply reply;
  reply.type = ReplyType::array;
  reply.elements.reserve(values.size());
  for (const auto& value : values) reply.elements.push_back(tx_value_reply(value));
  return reply;
}

std::string bucket_transaction_lock(const std::string& name) { return name + ":transaction_lock"; }

std::function<void(const ObjectPtr&)> tx_queue_command(Command command) {
  return [command = std::move(command)](const ObjectPtr& bound) {
    submit_reply(*bound, command, [](std::error_code, const Reply&) {});
  };
}

std::int64_t tx_count_present(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& own) {
  std::int64_t present = 0;
  for (const auto& entry : own) present += entry.second.has_value() ? 1 : 0;
  return present;
}

std::vector<std::pair<std::string, std::optional<std::string>>> tx_own_entries(
    const TransactionState& transaction, OwnEntries entries, const std::string& name) {
  std::vector<std::pair<std::string, std::optional<std::string>>> found;
  const auto& all = transaction.*entries;
  for (auto it = all.lower_bound({name, std::string()}); it != all.end() && it->first.first == name;
       ++it) {
    found.emplace_back(it->first.second, it->second);
  }
  return found;
}

TxOwnView tx_own_view(TransactionState& transaction, OwnEntries entries, const std::string& name) {
  std::lock_guard guard(transaction.mutex);
  return TxOwnView{tx_own_entries(transaction, entries, name), transaction.emptied_locked(name)};
}

void tx_write(const TransactionPtr& transaction, const ObjectPtr& object, OwnEntries entries,
              std::string key, std::string lock, std::optional<TxRead> read, TxDecide decide,
              Done<Reply> done) {
  auto op = std::make_shared<TxWriteOp>(TxWriteOp{transaction, object, entries, std::move(key),
                                                  std::move(lock), std::move(read),
                                                  std::move(decide), std::move(done)});
  transaction->lock(op->lock, [op](Status status) {
    if (status) return op->done(std::move(status), Reply{});
    std::optional<std::optional<std::string>> own;
    {
      std::lock_guard guard(op->transaction->mutex);
      const auto& all = op->transaction.get()->*(op->entries);
      auto it = all.find({op->object->name, op->key});
      if (it != all.end()) {
        own = it->second;
      } else if (op->transaction->emptied_locked(op->object->name)) {
        own = std::optional<std::string>();  // deleted by the transaction, not written since
      }
    }
    if (own) return tx_decide_and_record(op, *own);
    if (!op->read) return tx_decide_and_record(op, std::nullopt);
    Done<Reply> on_read = [op](Status read_status, const Reply& reply) {
      std::optional<std::string> current;
      if (!read_status) {
        try {
          current = tx_current_of(reply, op->read->membership);
        } catch (const error& failure) {
          read_status = status_of_error(failure);
        }
      }
      if (read_status) {
        op->transaction->unlock_now(op->lock);
        return op->done(std::move(read_status), Reply{});
      }
      tx_decide_and_record(op, current);
    };
    op->read->start(op->object, on_read);
  });
}

void tx_record_all(const TransactionPtr& transaction, const std::vector<std::string>& locks,
                   const TxDecideAll& decide, Done<Reply> done) {
  TxDecisionAll decision;
  bool open = false;
  {
    std::lock_guard guard(transaction->mutex);
    open = transaction->open_locked();
    if (open) decision = decide(*transaction);
  }
  if (!decision.recorded) {
    for (const auto& lock : locks) transaction->unlock_now(lock);
  }
  if (!open) return done(transaction_finished_refusal(), Reply{});
  done({}, std::move(decision.reply));
}

void tx_write_all(const TransactionPtr& transaction, std::vector<std::string> locks,
                  TxDecideAll decide, Done<Reply> done) {
  auto held = std::make_shared<const std::vector<std::string>>(std::move(locks));
  transaction->lock_all(*held, [transaction, held, decide = std::move(decide),
                                done = std::move(done)](Status status) mutable {
    if (status) return done(std::move(status), Reply{});
    tx_record_all(transaction, *held, decide, std::move(done));
  });
}

void tx_read(const TransactionPtr& transaction, const ObjectPtr& object, OwnEntries entries,
             const std::string& key, const TxRead& read, bool as_flag, Done<Reply> done) {
  std::optional<std::optional<std::string>> own;
  {
    std::lock_guard guard(transaction->mutex);
    const auto& all = transaction.get()->*entries;
    auto it = all.find({object->name, key});
    if (it != all.end()) {
      own = it->second;
    } else if (transaction->emptied_locked(object->name)) {
      own = std::optional<std::string>();
    }
  }
  if (own) return done({}, as_flag ? tx_flag_reply(own->has_value()) : tx_value_reply(*own));
  read.start(object, done);
}

TxRead tx_read_command(Command command, bool membership) {
  return TxRead{[command = std::move(command)](const ObjectPtr& object, Done<Reply>& done) {
                  submit_command(object, command, std::move(done));
                },
                membership};
}

void start_transactional(const std::shared_ptr<TransactionState>& transaction,
                         const ObjectPtr& object, const MapLayout* layout, TxOp op,
                         std::vector<std::string> args, Done<Reply> done) {
  if (auto refused = transaction->begin_operation()) return done(std::move(refused), Reply{});
  // Counted until its completion, so that commit() and rollback() wait for no operation.
  Done<Reply> finish = [transaction, done = std::move(done)](Status status, Reply reply) mutable {
    transaction->end_operation();
    done(std::move(status), std::move(reply));
  };
  switch (op) {
    case TxOp::bucket_get:
    case TxOp::bucket_set:
    case TxOp::bucket_try_set:
    case TxOp::bucket_get_and_set:
    case TxOp::bucket_get_and_delete:
    case TxOp::bucket_delete:
    case TxOp::bucket_is_exists:
    case TxOp::bucket_compare_and_set:
      return start_bucket_op(transaction, object, op, args, std::move(finish));
    case TxOp::object_is_exists:
    case TxOp::object_delete:
    case TxOp::object_unlink:
    case TxOp::object_touch:
    case TxOp::object_expire:
    case TxOp::object_clear_expire: {
      const ObjectOpTarget collection{
          layout != nullptr ? &TransactionState::map_entries : &TransactionState::set_members,
          TxLockKind::write, true, false};
      return start_object_op(transaction, object, collection, op, args, std::move(finish));
    }
    case TxOp::bucket_unlink:
    case TxOp::bucket_touch:
    case TxOp::bucket_expire:
    case TxOp::bucket_clear_expire: {
      const ObjectOpTarget bucket{&TransactionState::buckets, TxLockKind::plain, false, true};
      const TxOp as_object = op == TxOp::bucket_unlink   ? TxOp::object_unlink
                             : op == TxOp::bucket_touch  ? TxOp::object_touch
                             : op == TxOp::bucket_expire ? TxOp::object_expire
                                                         : TxOp::object_clear_expire;
      return start_object_op(transaction, object, bucket, as_object, args, std::move(finish));
    }
    case TxOp::buckets_get:
    case TxOp::buckets_set:
    case TxOp::buckets_try_set:
      return start_buckets_op(transaction, object, op, std::move(args), std::move(finish));
    case TxOp::set_add:
    case TxOp::set_remove:
    case TxOp::set_contains:
    case TxOp::set_read_all:
    case TxOp::set_size:
    case TxOp::set_cache_add:
    case TxOp::set_cache_remove:
    case TxOp::set_cache_contains:
    case TxOp::set_cache_read_all:
    case TxOp::set_cache_size:
    case TxOp::set_add_all:
    case TxOp::set_remove_all:
    case TxOp::set_contains_all:
    case TxOp::set_cache_add_all:
    case TxOp::set_cache_remove_all:
    case TxOp::set_cache_contains_all:
      return start_set_op(transaction, object, op, args, std::move(finish));
    default:
      if (layout == nullptr) {
        return finish(Status(make_error_code(errc::invalid_argument), "not a map"), Reply{});
      }
      return start_map_op(transaction, object, *layout, op, std::move(args), std::move(finish));
  }
}

}  // namespace redisson::detail
