// The whole-object operations of a transactional map or set (Redisson's BaseTransactionalMap and
// BaseTransactionalSet: isExists, delete, unlink, touch, expire, clearExpire), and of a bucket
// (RedissonTransactionalBucket: unlink, touch, expire, clearExpire, on its plain lock).
//
// A map's or set's delete, unlink, expire and clear_expire take the object's own lock
// `<name>:transaction_lock` as the write side of a read-write lock, as Java's
// RedissonTransactionalWriteLock does (field `<client-id>:<thread>:write:<transaction id>`), so
// that a Java transaction deleting the same map or set waits for this one; its touch takes no
// lock, as in Redisson. After a delete or unlink, what Redis holds of the collection no longer
// counts for the transaction (TransactionState::emptied): only what it writes since. A bucket's
// operations all take its plain `<name>:transaction_lock` (touch too, as Java's), and its unlink
// makes its one own entry "removed".
#include <mutex>
#include <optional>

#include "objects/send.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// What a recorded whole-object write changes in the transaction's view: nothing; the object's
/// Redis contents stop counting (a map's or set's delete); its one own entry becomes "removed"
/// (a bucket's unlink); it gets or loses a time to live.
enum class ObjectEffect { none, empties, removes, expires, persists };

/// Whether the object exists as the transaction sees it: what it wrote, else EXISTS of its name.
void exists_as_seen(const TransactionPtr& transaction, const ObjectPtr& object,
                    const ObjectOpTarget& target, Done<bool> done) {
  bool known = false;
  bool exists = false;
  {
    std::lock_guard guard(transaction->mutex);
    const auto own = tx_own_entries(*transaction, target.view, object->name);
    exists = tx_count_present(own) > 0;
    // A collection is known to exist by an entry written with a value, or known empty after the
    // transaction deleted it; a bucket is known by its one own entry, removed or not.
    known = exists || transaction->emptied_locked(object->name) || (!target.whole && !own.empty());
  }
  if (known) return done({}, exists);
  submit_command(object, Command{"EXISTS", object->name},
                 [done = std::move(done)](Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), false);
                   done({}, reply.integer > 0);
                 });
}

/// What commit() sends: `verb` (DEL, UNLINK, TOUCH) of every key of the object (a map cache's
/// expiry sets too).
std::function<void(const ObjectPtr&)> queue_keys(const char* verb) {
  return [verb](const ObjectPtr& bound) {
    Command command{verb};
    for (const auto& key : bound->keys()) command.arg(key);
    submit_reply(*bound, command, [](std::error_code, const Reply&) {});
  };
}

/// What commit() sends for expire (`ms` set: PEXPIRE key ms) or clear_expire (PERSIST key),
/// one command per key of the object.
std::function<void(const ObjectPtr&)> queue_per_key(std::optional<std::string> ms) {
  return [ms = std::move(ms)](const ObjectPtr& bound) {
    for (const auto& key : bound->keys()) {
      Command command{ms ? "PEXPIRE" : "PERSIST", key};
      if (ms) command.arg(*ms);
      submit_reply(*bound, command, [](std::error_code, const Reply&) {});
    }
  };
}

/// Whether the object has a time to live as the transaction sees it: an expire it recorded,
/// else (unless it deleted the object) PTTL of its name.
void expiring_as_seen(const TransactionPtr& transaction, const ObjectPtr& object, Done<bool> done) {
  bool recorded = false;
  bool emptied = false;
  {
    std::lock_guard guard(transaction->mutex);
    recorded = transaction->expiring.count(object->name) != 0;
    emptied = transaction->emptied_locked(object->name);
  }
  if (recorded || emptied) return done({}, recorded);
  submit_command(object, Command{"PTTL", object->name},
                 [done = std::move(done)](Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), false);
                   done({}, reply.integer > 0);
                 });
}

/// Records `write` (and, for a delete, empties the object's view); the finished refusal when the
/// transaction finished meanwhile, after giving the write's lock back.
void record_object_write(const TransactionPtr& transaction, const ObjectPtr& object,
                         OwnEntries view, TransactionWrite write, ObjectEffect effect, bool answer,
                         Done<Reply> done) {
  bool recorded = false;
  const std::string lock = write.lock;
  const TxLockKind lock_kind = write.lock_kind;
  {
    std::lock_guard guard(transaction->mutex);
    if (transaction->open_locked()) {
      if (effect == ObjectEffect::expires) transaction->expiring.insert(object->name);
      if (effect == ObjectEffect::persists) transaction->expiring.erase(object->name);
      if (effect == ObjectEffect::empties) {
        transaction->expiring.erase(object->name);
        auto& all = transaction.get()->*view;
        for (auto it = all.lower_bound({object->name, std::string()});
             it != all.end() && it->first.first == object->name;) {
          it = all.erase(it);
        }
        transaction->emptied.insert(object->name);
      }
      if (effect == ObjectEffect::removes) {
        transaction->expiring.erase(object->name);
        (transaction.get()->*view)[{object->name, std::string()}] = std::nullopt;
      }
      recorded = transaction->record_locked(std::move(write));
    }
  }
  if (!recorded) {
    if (!lock.empty()) transaction->unlock_now(lock, lock_kind);
    return done(transaction_finished_refusal(), Reply{});
  }
  done({}, tx_flag_reply(answer));
}

}  // namespace

void start_object_op(const TransactionPtr& transaction, const ObjectPtr& object,
                     const ObjectOpTarget& target, TxOp op, const std::vector<std::string>& args,
                     Done<Reply> done) {
  const OwnEntries view = target.view;
  if (op == TxOp::object_is_exists) {
    return exists_as_seen(transaction, object, target,
                          [done = std::move(done)](Status status, bool exists) mutable {
                            done(std::move(status), tx_flag_reply(exists));
                          });
  }
  std::function<void(const ObjectPtr&)> queue;
  ObjectEffect effect = ObjectEffect::none;
  switch (op) {
    case TxOp::object_delete:
    case TxOp::object_unlink:
      queue = queue_keys(op == TxOp::object_delete ? "DEL" : "UNLINK");
      effect = target.whole ? ObjectEffect::empties : ObjectEffect::removes;
      break;
    case TxOp::object_touch:
      queue = queue_keys("TOUCH");
      break;
    case TxOp::object_expire:
      queue = queue_per_key(args.at(0));
      effect = ObjectEffect::expires;
      break;
    case TxOp::object_clear_expire:
      queue = queue_per_key(std::nullopt);
      effect = ObjectEffect::persists;
      break;
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not an object operation"),
                  Reply{});
  }
  // What it answers, then the record (clear_expire: whether it had a time to live; the others:
  // whether it exists).
  auto answer_and_record = [transaction, object, view, effect, target](TransactionWrite write,
                                                                       Done<Reply> finish) mutable {
    const std::string lock = write.lock;
    const TxLockKind kind = write.lock_kind;
    Done<bool> record = [transaction, object, view, effect, write = std::move(write), lock, kind,
                         finish = std::move(finish)](Status status, bool answer) mutable {
      if (status) {
        if (!lock.empty()) transaction->unlock_now(lock, kind);
        return finish(std::move(status), Reply{});
      }
      record_object_write(transaction, object, view, std::move(write), effect, answer,
                          std::move(finish));
    };
    if (effect == ObjectEffect::persists) {
      return expiring_as_seen(transaction, object, std::move(record));
    }
    exists_as_seen(transaction, object, target, std::move(record));
  };
  // A map's or set's touch takes no lock (as in Redisson); the rest take the object's lock.
  if (op == TxOp::object_touch && !target.touch_locks) {
    return answer_and_record(TransactionWrite{object, std::move(queue), std::string()},
                             std::move(done));
  }
  auto lock = object->name + ":transaction_lock";
  TransactionWrite write{object, std::move(queue), lock, target.lock_kind};
  transaction->lock(
      lock,
      [answer_and_record = std::move(answer_and_record), write = std::move(write),
       done = std::move(done)](Status status) mutable {
        if (status) return done(std::move(status), Reply{});
        answer_and_record(std::move(write), std::move(done));
      },
      target.lock_kind);
}

}  // namespace redisson::detail
