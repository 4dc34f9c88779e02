// TransactionalSet's operations (Redisson's BaseTransactionalSet): the lock of a member is
// `{name}:<hash of the member's bytes>:lock` (getLockByValue, the same shape as a map key's);
// commit() sends SADD or SREM. The own entry of a member: "" added, nullopt removed.
#include <set>

#include "redisson/objects/map.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

void set_read_all(const TransactionPtr& transaction, const ObjectPtr& object, Done<Reply> done) {
  submit_command(
      object, Command{"SMEMBERS", object->name},
      [transaction, object, done = std::move(done)](Status status, const Reply& reply) mutable {
        if (status) return done(std::move(status), Reply{});
        std::vector<std::pair<std::string, std::optional<std::string>>> own;
        {
          std::lock_guard guard(transaction->mutex);
          own = tx_own_entries(*transaction, &TransactionState::set_members, object->name);
        }
        std::set<std::string> members;
        for (const auto& element : reply.elements) {
          if (element.is_string()) members.insert(element.str);
        }
        for (const auto& [member, present] : own) {
          if (present) {
            members.insert(member);
          } else {
            members.erase(member);
          }
        }
        std::vector<std::optional<std::string>> values(members.begin(), members.end());
        done({}, tx_array_reply(values));
      });
}

/// SCARD, corrected by the members the transaction wrote (an SMISMEMBER of them, pipelined).
void set_size(const TransactionPtr& transaction, const ObjectPtr& object, Done<Reply> done) {
  std::vector<std::pair<std::string, std::optional<std::string>>> own;
  {
    std::lock_guard guard(transaction->mutex);
    own = tx_own_entries(*transaction, &TransactionState::set_members, object->name);
  }
  std::vector<Command> commands{Command{"SCARD", object->name}};
  if (!own.empty()) {
    Command check{"SMISMEMBER", object->name};
    for (const auto& entry : own) check.arg(entry.first);
    commands.push_back(std::move(check));
  }
  submit_all(*object, std::move(commands),
             [own = std::move(own), done = std::move(done)](
                 Status status, const std::vector<Reply>& replies) mutable {
               if (status) return done(std::move(status), Reply{});
               std::int64_t size = replies.at(0).integer;
               for (std::size_t i = 0; i < own.size(); ++i) {
                 const bool in_redis = replies.size() > 1 && i < replies[1].elements.size() &&
                                       replies[1].elements[i].integer != 0;
                 size += (own[i].second.has_value() ? 1 : 0) - (in_redis ? 1 : 0);
               }
               done({}, integer_reply(size));
             });
}

}  // namespace

void start_set_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                  const std::vector<std::string>& args, Done<Reply> done) {
  const auto& name = object->name;
  const OwnEntries entries = &TransactionState::set_members;
  switch (op) {
    case TxOp::set_contains:
      return tx_read(transaction, object, entries, args.at(0),
                     tx_read_command(Command{"SISMEMBER", name, args.at(0)}), true,
                     std::move(done));
    case TxOp::set_read_all:
      return set_read_all(transaction, object, std::move(done));
    case TxOp::set_size:
      return set_size(transaction, object, std::move(done));
    case TxOp::set_add:
    case TxOp::set_remove: {
      const std::string& member = args.at(0);
      const bool add = op == TxOp::set_add;
      TxDecide decide = [name, member, add](const std::optional<std::string>& current) {
        TxDecision decision{tx_flag_reply(add ? !current : current.has_value()), std::nullopt,
                            tx_queue_command(Command{add ? "SADD" : "SREM", name, member})};
        if (add) {
          decision.own = std::optional<std::string>(std::string());
        } else if (current) {
          decision.own = std::optional<std::string>();
        }
        return decision;
      };
      return tx_write(transaction, object, entries, member, map_lock_name(name, member),
                      tx_read_command(Command{"SISMEMBER", name, member}, true), std::move(decide),
                      std::move(done));
    }
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a set operation"), Reply{});
  }
}

}  // namespace redisson::detail
