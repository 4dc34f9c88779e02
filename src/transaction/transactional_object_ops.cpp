// The whole-object operations of a transactional map or set (Redisson's BaseTransactionalMap and
// BaseTransactionalSet: isExists, delete, unlink, touch, expire, clearExpire).
//
// delete, unlink, expire and clear_expire take the object's own lock `<name>:transaction_lock` as
// the write side of a read-write lock, as Java's RedissonTransactionalWriteLock does (field
// `<client-id>:<thread>:write:<transaction id>`), so that a Java transaction deleting the same map
// or set waits for this one. After either, what Redis holds of the object no longer counts for
// the transaction (TransactionState::emptied): only what it writes since. touch takes no lock, as
// in Redisson.
#include <mutex>
#include <optional>

#include "objects/send.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// The view the object's entries are in: a map's keys, or a set's members.
OwnEntries view_of(const MapLayout* layout) {
  return layout != nullptr ? &TransactionState::map_entries : &TransactionState::set_members;
}

/// Whether the object exists as the transaction sees it: an entry it wrote holds a value; else,
/// unless it deleted the object, EXISTS of its name.
void exists_as_seen(const TransactionPtr& transaction, const ObjectPtr& object, OwnEntries view,
                    Done<bool> done) {
  bool written = false;
  bool emptied = false;
  {
    std::lock_guard guard(transaction->mutex);
    written = tx_count_present(tx_own_entries(*transaction, view, object->name)) > 0;
    emptied = transaction->emptied_locked(object->name);
  }
  if (written || emptied) return done({}, written);
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
/// What a recorded whole-object write changes in the transaction's view.
enum class ObjectEffect { none, empties, expires, persists };

void record_object_write(const TransactionPtr& transaction, const ObjectPtr& object,
                         OwnEntries view, TransactionWrite write, ObjectEffect effect, bool answer,
                         Done<Reply> done) {
  bool recorded = false;
  const std::string lock = write.lock;
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
      recorded = transaction->record_locked(std::move(write));
    }
  }
  if (!recorded) {
    if (!lock.empty()) transaction->unlock_now(lock, TxLockKind::write);
    return done(transaction_finished_refusal(), Reply{});
  }
  done({}, tx_flag_reply(answer));
}

}  // namespace

void start_object_op(const TransactionPtr& transaction, const ObjectPtr& object,
                     const MapLayout* layout, TxOp op, const std::vector<std::string>& args,
                     Done<Reply> done) {
  const OwnEntries view = view_of(layout);
  if (op == TxOp::object_is_exists) {
    return exists_as_seen(transaction, object, view,
                          [done = std::move(done)](Status status, bool exists) mutable {
                            done(std::move(status), tx_flag_reply(exists));
                          });
  }
  if (op == TxOp::object_touch) {
    return exists_as_seen(
        transaction, object, view,
        [transaction, object, view, done = std::move(done)](Status status, bool exists) mutable {
          if (status) return done(std::move(status), Reply{});
          record_object_write(transaction, object, view,
                              TransactionWrite{object, queue_keys("TOUCH"), std::string()},
                              ObjectEffect::none, exists, std::move(done));
        });
  }
  // The locked ones: the object's write lock, then what they answer, then the record.
  std::function<void(const ObjectPtr&)> queue;
  ObjectEffect effect = ObjectEffect::none;
  switch (op) {
    case TxOp::object_delete:
      queue = queue_keys("DEL");
      effect = ObjectEffect::empties;
      break;
    case TxOp::object_unlink:
      queue = queue_keys("UNLINK");
      effect = ObjectEffect::empties;
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
  auto lock = object->name + ":transaction_lock";
  transaction->lock(
      lock,
      [transaction, object, view, effect, queue = std::move(queue), lock,
       done = std::move(done)](Status status) mutable {
        if (status) return done(std::move(status), Reply{});
        Done<bool> record = [transaction, object, view, effect, queue = std::move(queue), lock,
                             done = std::move(done)](Status read_status, bool answer) mutable {
          if (read_status) {
            transaction->unlock_now(lock, TxLockKind::write);
            return done(std::move(read_status), Reply{});
          }
          record_object_write(transaction, object, view,
                              TransactionWrite{object, std::move(queue), lock, TxLockKind::write},
                              effect, answer, std::move(done));
        };
        // clear_expire answers whether it had a time to live; the others whether it exists.
        if (effect == ObjectEffect::persists) {
          return expiring_as_seen(transaction, object, std::move(record));
        }
        exists_as_seen(transaction, object, view, std::move(record));
      },
      TxLockKind::write);
}

}  // namespace redisson::detail
