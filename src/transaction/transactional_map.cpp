// TransactionalMap's operations (Redisson's BaseTransactionalMap): the lock of a key is the
// map's per-key lock (map_lock_name); commit() runs the Map operation of the same name on the
// map's layout, queued in the commit's batch.
#include <map>

#include "redisson/objects/map.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// What commit() queues for a write: Map's `op` with `args` (key [, value]).
std::function<void(const ObjectPtr&)> map_queue(MapOp op, std::vector<std::string> args) {
  return [op, args = std::move(args)](const ObjectPtr& bound) {
    Done<Reply> ignore = [](Status, const Reply&) {};
    plain_map_layout.start(bound, op, args, ignore);
  };
}

/// fast_remove: one key at a time (lock, read, record when present), counting the present ones.
struct MapFastRemove {
  TransactionPtr transaction;
  ObjectPtr object;
  std::vector<std::string> keys;
  std::size_t next = 0;
  std::int64_t removed = 0;
  Done<Reply> done;
};

void map_fast_remove_next(const std::shared_ptr<MapFastRemove>& run) {
  if (run->next == run->keys.size()) return run->done({}, integer_reply(run->removed));
  const auto& key = run->keys[run->next++];
  tx_write(
      run->transaction, run->object, &TransactionState::map_entries, key,
      map_lock_name(run->object->name, key), TxRead{Command{"HGET", run->object->name, key}},
      [key, run](const std::optional<std::string>& current) {
        if (!current) return TxDecision{};  // absent: nothing recorded, the hold released now
        ++run->removed;
        return TxDecision{Reply{}, std::optional<std::string>(),
                          map_queue(MapOp::fast_remove, {key})};
      },
      [run](Status status, const Reply&) {
        if (status) return run->done(std::move(status), Reply{});
        map_fast_remove_next(run);
      });
}

void map_get_all(const TransactionPtr& transaction, const ObjectPtr& object,
                 std::vector<std::string> keys, Done<Reply> done) {
  std::vector<std::optional<std::string>> values(keys.size());
  std::vector<std::size_t> unknown;
  {
    std::lock_guard guard(transaction->mutex);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      auto it = transaction->map_entries.find({object->name, keys[i]});
      if (it != transaction->map_entries.end()) {
        values[i] = it->second;
      } else {
        unknown.push_back(i);
      }
    }
  }
  if (unknown.empty()) return done({}, tx_array_reply(values));
  Command hmget{"HMGET", object->name};
  for (auto i : unknown) hmget.arg(keys[i]);
  submit_command(object, hmget,
                 [values = std::move(values), unknown = std::move(unknown), done = std::move(done)](
                     Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), Reply{});
                   for (std::size_t j = 0; j < unknown.size() && j < reply.elements.size(); ++j) {
                     const auto& element = reply.elements[j];
                     if (element.is_string()) values[unknown[j]] = element.str;
                   }
                   done({}, tx_array_reply(values));
                 });
}

void map_put_all(const TransactionPtr& transaction, const ObjectPtr& object,
                 std::vector<std::string> args, Done<Reply> done) {
  std::vector<std::string> locks;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    locks.push_back(map_lock_name(object->name, args[i]));
  }
  transaction->lock_all(locks, [transaction, object, args = std::move(args), locks,
                                done = std::move(done)](Status status) mutable {
    if (status) return done(std::move(status), Reply{});
    bool recorded = false;
    {
      std::lock_guard guard(transaction->mutex);
      if (transaction->open_locked()) {
        recorded = true;
        for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
          transaction->map_entries[{object->name, args[i]}] = args[i + 1];
          transaction->record_locked(TransactionWrite{
              object, map_queue(MapOp::put, {args[i], args[i + 1]}), locks[i / 2]});
        }
      }
    }
    if (!recorded) {
      for (const auto& lock : locks) transaction->unlock_now(lock);
      return done(tx_finished_refusal(), Reply{});
    }
    done({}, Reply{});
  });
}

/// HLEN, corrected by the keys the transaction wrote: their own presence against Redis's
/// (an HMGET of them, in the same pipeline).
void map_size(const TransactionPtr& transaction, const ObjectPtr& object, Done<Reply> done) {
  std::vector<std::pair<std::string, std::optional<std::string>>> own;
  {
    std::lock_guard guard(transaction->mutex);
    own = tx_own_entries(*transaction, &TransactionState::map_entries, object->name);
  }
  std::vector<Command> commands{Command{"HLEN", object->name}};
  if (!own.empty()) {
    Command hmget{"HMGET", object->name};
    for (const auto& entry : own) hmget.arg(entry.first);
    commands.push_back(std::move(hmget));
  }
  submit_all(*object, std::move(commands),
             [own = std::move(own), done = std::move(done)](
                 Status status, const std::vector<Reply>& replies) mutable {
               if (status) return done(std::move(status), Reply{});
               std::int64_t size = replies.at(0).integer;
               for (std::size_t i = 0; i < own.size(); ++i) {
                 const bool in_redis = replies.size() > 1 && i < replies[1].elements.size() &&
                                       !replies[1].elements[i].is_null();
                 size += (own[i].second.has_value() ? 1 : 0) - (in_redis ? 1 : 0);
               }
               done({}, integer_reply(size));
             });
}

}  // namespace

void start_map_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                  std::vector<std::string> args, Done<Reply> done) {
  const auto& name = object->name;
  const OwnEntries entries = &TransactionState::map_entries;
  switch (op) {
    case TxOp::map_get:
      return tx_read(transaction, object, entries, args.at(0), Command{"HGET", name, args.at(0)},
                     false, std::move(done));
    case TxOp::map_contains_key:
      return tx_read(transaction, object, entries, args.at(0), Command{"HEXISTS", name, args.at(0)},
                     true, std::move(done));
    case TxOp::map_get_all:
      return map_get_all(transaction, object, std::move(args), std::move(done));
    case TxOp::map_put_all:
      return map_put_all(transaction, object, std::move(args), std::move(done));
    case TxOp::map_size:
      return map_size(transaction, object, std::move(done));
    case TxOp::map_fast_remove: {
      auto run = std::make_shared<MapFastRemove>(
          MapFastRemove{transaction, object, std::move(args), 0, 0, std::move(done)});
      return map_fast_remove_next(run);
    }
    default:
      break;
  }
  // The keyed writes: lock the key, read its value (HGET), decide.
  const std::string key = args.at(0);
  TxDecide decide;
  switch (op) {
    case TxOp::map_put:
      decide = [args](const std::optional<std::string>& current) {
        return TxDecision{tx_value_reply(current), std::optional<std::string>(args.at(1)),
                          map_queue(MapOp::put, args)};
      };
      break;
    case TxOp::map_put_if_absent:
      decide = [args](const std::optional<std::string>& current) {
        TxDecision decision{tx_value_reply(current), std::nullopt,
                            map_queue(MapOp::put_if_absent, args)};
        if (!current) decision.own = std::optional<std::string>(args.at(1));
        return decision;
      };
      break;
    case TxOp::map_fast_put:
      decide = [args](const std::optional<std::string>& current) {
        return TxDecision{tx_flag_reply(!current), std::optional<std::string>(args.at(1)),
                          map_queue(MapOp::fast_put, args)};
      };
      break;
    case TxOp::map_fast_put_if_absent:
      decide = [args](const std::optional<std::string>& current) {
        TxDecision decision{tx_flag_reply(!current), std::nullopt,
                            map_queue(MapOp::fast_put_if_absent, args)};
        if (!current) decision.own = std::optional<std::string>(args.at(1));
        return decision;
      };
      break;
    case TxOp::map_remove:
      decide = [args](const std::optional<std::string>& current) {
        TxDecision decision{tx_value_reply(current), std::nullopt,
                            map_queue(MapOp::remove, {args.at(0)})};
        if (current) decision.own = std::optional<std::string>();
        return decision;
      };
      break;
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a map operation"), Reply{});
  }
  tx_write(transaction, object, entries, key, map_lock_name(name, key),
           TxRead{Command{"HGET", name, key}}, std::move(decide), std::move(done));
}

}  // namespace redisson::detail
