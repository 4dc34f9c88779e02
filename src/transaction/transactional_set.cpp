// TransactionalSet's and TransactionalSetCache's operations (Redisson's BaseTransactionalSet,
// TransactionalSet, TransactionalSetCache): the lock of a member is
// `{name}:<hash of the member's bytes>:lock` (getLockByValue, the same shape as a map key's);
// commit() sends the set's own write (SADD / SREM, or SetCache's add and remove scripts). The own
// entry of a member: "" added, nullopt removed.
//
// The two differ only in how they read and write Redis (SetLayout): a Set's member is there or
// not (SISMEMBER); a SetCache's is there while its score (expiry) is in the future (ZSCORE, read
// against the client's clock as SetCache reads it).
#include <algorithm>
#include <mutex>
#include <set>

#include "objects/send.hpp"
#include "redisson/objects/map.hpp"
#include "redisson/objects/set_cache.hpp"
#include "transaction/transactional_op.hpp"

namespace redisson::detail {
namespace {

/// How a set type reads and writes Redis, in bytes.
struct SetLayout {
  /// Whether `member` is a (live) member: an integer reply 1/0.
  void (*contains)(const ObjectPtr& object, const std::string& member, Done<Reply>& done);
  /// Every (live) member: an array reply of their bytes.
  void (*members)(const ObjectPtr& object, Done<Reply>& done);
  /// How many (live) members: the command, answered with an integer.
  Command (*count)(const std::string& name);
  /// Which of some members are (live) members: the verb taking the name and the members
  /// (SMISMEMBER, ZMSCORE), and how each element of its reply reads as a flag.
  const char* which_verb;
  bool (*is_member)(const Reply& element);
  /// What commit() sends to add `member` (args: member [, ttl ms]) or remove it.
  std::function<void(const ObjectPtr&)> (*queue_add)(const std::string& name,
                                                     const std::vector<std::string>& args);
  std::function<void(const ObjectPtr&)> (*queue_remove)(const std::string& name,
                                                        const std::string& member);
};

// ---- Set: SISMEMBER, SMEMBERS, SCARD, SMISMEMBER, SADD, SREM --------------------------------

const SetLayout kPlainSet{
    [](const ObjectPtr& object, const std::string& member, Done<Reply>& done) {
      submit_command(object, Command{"SISMEMBER", object->name, member}, std::move(done));
    },
    [](const ObjectPtr& object, Done<Reply>& done) {
      submit_command(object, Command{"SMEMBERS", object->name}, std::move(done));
    },
    [](const std::string& name) {
      return Command{"SCARD", name};
    },
    "SMISMEMBER",
    [](const Reply& element) { return element.integer != 0; },
    [](const std::string& name, const std::vector<std::string>& args) {
      return tx_queue_command(Command{"SADD", name, args.at(0)});
    },
    [](const std::string& name, const std::string& member) {
      return tx_queue_command(Command{"SREM", name, member});
    },
};

// ---- SetCache: ZSCORE against the clock, ZSCAN pages, ZCOUNT, ZMSCORE, its scripts ----------

const SetLayout kSetCache{
    [](const ObjectPtr& object, const std::string& member, Done<Reply>& done) {
      submit_command(object, Command{"ZSCORE", object->name, member},
                     [done = std::move(done)](Status status, const Reply& score) mutable {
                       if (status) return done(std::move(status), Reply{});
                       done({}, integer_reply(set_cache_live(score) ? 1 : 0));
                     });
    },
    [](const ObjectPtr& object, Done<Reply>& done) {
      Done<Reply> live = [done = std::move(done)](Status status, const Reply& all) mutable {
        if (status) return done(std::move(status), Reply{});
        if (all.elements.size() % 2 != 0) {
          return done(Status(make_error_code(errc::protocol_error),
                             "SetCache: ZSCAN gave members without scores"),
                      Reply{});
        }
        const std::int64_t now = set_cache_now_ms();
        Reply members;
        members.type = ReplyType::array;
        for (std::size_t i = 0; i + 1 < all.elements.size(); i += 2) {
          if (set_cache_score_live(reply_double(all.elements[i + 1]), now)) {
            members.elements.push_back(all.elements[i]);
          }
        }
        done({}, std::move(members));
      };
      start_set_cache_read_all(object, 1000, live);
    },
    [](const std::string& name) {
      // As SetCache's size: the members whose expiry is after now.
      return Command{"ZCOUNT", name, "(" + std::to_string(set_cache_now_ms()), "+inf"};
    },
    "ZMSCORE",
    [](const Reply& element) { return set_cache_live(element); },
    [](const std::string&, const std::vector<std::string>& args) {
      const std::vector<std::string> member{args.at(0)};
      const std::chrono::milliseconds ttl(args.size() > 1 ? std::stoll(args[1]) : 0);
      return std::function<void(const ObjectPtr&)>([member, ttl](const ObjectPtr& bound) {
        Done<Reply> ignore = [](const Status&, const Reply&) {};
        start_set_cache_add(bound, ttl, member, ignore);
      });
    },
    [](const std::string&, const std::string& member) {
      return std::function<void(const ObjectPtr&)>(
          [removed = std::vector<std::string>{member}](const ObjectPtr& bound) {
            Done<Reply> ignore = [](const Status&, const Reply&) {};
            start_set_cache_remove(bound, removed, ignore);
          });
    },
};

/// The layout's members, merged with the transaction's own writes.
void set_read_all(const TransactionPtr& transaction, const ObjectPtr& object,
                  const SetLayout& layout, Done<Reply> done) {
  bool emptied = false;
  {
    std::lock_guard guard(transaction->mutex);
    emptied = transaction->emptied_locked(object->name);
  }
  Done<Reply> merge = [transaction, object, done = std::move(done)](Status status,
                                                                    const Reply& reply) mutable {
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
  };
  if (emptied) return merge({}, tx_array_reply({}));  // only what it wrote since
  layout.members(object, merge);
}

/// The command asking which of `members` are (live) members.
Command which_command(const SetLayout& layout, const std::string& name,
                      const std::vector<std::string>& members) {
  Command which{layout.which_verb, name};
  for (const auto& member : members) which.arg(member);
  return which;
}

/// The layout's count, corrected by the members the transaction wrote: which of them Redis has
/// is asked in the same pipeline (one round trip of waiting).
void set_size(const TransactionPtr& transaction, const ObjectPtr& object, const SetLayout& layout,
              Done<Reply> done) {
  auto [own, emptied] = tx_own_view(*transaction, &TransactionState::set_members, object->name);
  if (emptied) return done({}, integer_reply(tx_count_present(own)));
  std::vector<Command> commands{layout.count(object->name)};
  if (!own.empty()) {
    std::vector<std::string> written;
    written.reserve(own.size());
    for (const auto& entry : own) written.push_back(entry.first);
    commands.push_back(which_command(layout, object->name, written));
  }
  submit_all(*object, std::move(commands),
             [&layout, own = std::move(own), done = std::move(done)](
                 Status status, const std::vector<Reply>& replies) mutable {
               if (status) return done(std::move(status), Reply{});
               std::int64_t size = replies.at(0).integer;
               for (std::size_t i = 0; i < own.size(); ++i) {
                 const bool stored = replies.size() > 1 && i < replies[1].elements.size() &&
                                     layout.is_member(replies[1].elements[i]);
                 size += (own[i].second.has_value() ? 1 : 0) - (stored ? 1 : 0);
               }
               done({}, integer_reply(size));
             });
}

/// Each member's state as the transaction sees it: its own entry, else what the layout's
/// `which` says of it (asked for the members it did not write, in one command).
void current_members(const TransactionPtr& transaction, const ObjectPtr& object,
                     const SetLayout& layout, std::vector<std::string> members,
                     UniqueFunction<void(Status, std::vector<bool>)> done) {
  std::vector<bool> present(members.size(), false);
  std::vector<std::size_t> unknown;
  {
    std::lock_guard guard(transaction->mutex);
    for (std::size_t i = 0; i < members.size(); ++i) {
      auto it = transaction->set_members.find({object->name, members[i]});
      if (it == transaction->set_members.end()) {
        if (!transaction->emptied_locked(object->name)) unknown.push_back(i);
      } else {
        present[i] = it->second.has_value();
      }
    }
  }
  if (unknown.empty()) return done({}, std::move(present));
  std::vector<std::string> asked;
  asked.reserve(unknown.size());
  for (const auto i : unknown) asked.push_back(members[i]);
  submit_command(object, which_command(layout, object->name, asked),
                 [&layout, present = std::move(present), unknown = std::move(unknown),
                  done = std::move(done)](Status status, const Reply& reply) mutable {
                   if (status) return done(std::move(status), {});
                   for (std::size_t j = 0; j < unknown.size() && j < reply.elements.size(); ++j) {
                     present[unknown[j]] = layout.is_member(reply.elements[j]);
                   }
                   done({}, std::move(present));
                 });
}

/// add_all / remove_all: every member's lock (tried at once, then in member order), the
/// members' state, then one recorded write per member, as add / remove would record it.
void set_write_all(const TransactionPtr& transaction, const ObjectPtr& object,
                   const SetLayout& layout, bool add, std::vector<std::string> members,
                   Done<Reply> done) {
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  if (members.empty()) return done({}, integer_reply(0));
  auto locks = std::make_shared<std::vector<std::string>>();
  for (const auto& member : members) locks->push_back(map_lock_name(object->name, member));
  transaction->lock_all(
      *locks, [transaction, object, &layout, add, locks, members = std::move(members),
               done = std::move(done)](Status status) mutable {
        if (status) return done(std::move(status), Reply{});
        auto asked = members;
        current_members(
            transaction, object, layout, std::move(asked),
            [transaction, object, &layout, add, locks, members = std::move(members),
             done = std::move(done)](Status read_status, const std::vector<bool>& present) mutable {
              if (read_status) {
                for (const auto& lock : *locks) transaction->unlock_now(lock);
                return done(std::move(read_status), Reply{});
              }
              TxDecideAll record = [object, &layout, add, &members, &present,
                                    &locks](TransactionState& state) {
                std::int64_t changed = 0;
                for (std::size_t i = 0; i < members.size(); ++i) {
                  const bool was = i < present.size() && present[i];
                  if (add ? !was : was) ++changed;
                  auto& own = state.set_members[{object->name, members[i]}];
                  own = add ? std::optional<std::string>(std::string()) : std::nullopt;
                  state.record_locked(
                      TransactionWrite{object,
                                       add ? layout.queue_add(object->name, {members[i]})
                                           : layout.queue_remove(object->name, members[i]),
                                       (*locks)[i]});
                }
                return TxDecisionAll{integer_reply(changed), true};
              };
              tx_record_all(transaction, *locks, record, std::move(done));
            });
      });
}

void set_contains_all(const TransactionPtr& transaction, const ObjectPtr& object,
                      const SetLayout& layout, std::vector<std::string> members, Done<Reply> done) {
  current_members(
      transaction, object, layout, std::move(members),
      [done = std::move(done)](Status status, const std::vector<bool>& present) mutable {
        if (status) return done(std::move(status), Reply{});
        const bool all = std::all_of(present.begin(), present.end(), [](bool p) { return p; });
        done({}, tx_flag_reply(all));
      });
}

void set_op(const TransactionPtr& transaction, const ObjectPtr& object, const SetLayout& layout,
            TxOp op, const std::vector<std::string>& args, Done<Reply> done) {
  const auto& name = object->name;
  const OwnEntries entries = &TransactionState::set_members;
  const auto contains_read = [&layout](const std::string& member) {
    return TxRead{[&layout, member](const ObjectPtr& target, Done<Reply>& read_done) {
                    layout.contains(target, member, read_done);
                  },
                  true};
  };
  switch (op) {
    case TxOp::set_add_all:
    case TxOp::set_cache_add_all:
      return set_write_all(transaction, object, layout, true, args, std::move(done));
    case TxOp::set_remove_all:
    case TxOp::set_cache_remove_all:
      return set_write_all(transaction, object, layout, false, args, std::move(done));
    case TxOp::set_contains_all:
    case TxOp::set_cache_contains_all:
      return set_contains_all(transaction, object, layout, args, std::move(done));
    case TxOp::set_contains:
    case TxOp::set_cache_contains:
      return tx_read(transaction, object, entries, args.at(0), contains_read(args.at(0)), true,
                     std::move(done));
    case TxOp::set_read_all:
    case TxOp::set_cache_read_all:
      return set_read_all(transaction, object, layout, std::move(done));
    case TxOp::set_size:
    case TxOp::set_cache_size:
      return set_size(transaction, object, layout, std::move(done));
    case TxOp::set_add:
    case TxOp::set_cache_add:
    case TxOp::set_remove:
    case TxOp::set_cache_remove: {
      const std::string& member = args.at(0);
      const bool add = op == TxOp::set_add || op == TxOp::set_cache_add;
      auto queue = add ? layout.queue_add(name, args) : layout.queue_remove(name, member);
      TxDecide decide = [add, queue = std::move(queue)](const std::optional<std::string>& current) {
        TxDecision decision{tx_flag_reply(add ? !current : current.has_value()), std::nullopt,
                            queue};
        if (add) {
          decision.own = std::optional<std::string>(std::string());
        } else if (current) {
          decision.own = std::optional<std::string>();
        }
        return decision;
      };
      return tx_write(transaction, object, entries, member, map_lock_name(name, member),
                      contains_read(member), std::move(decide), std::move(done));
    }
    default:
      return done(Status(make_error_code(errc::invalid_argument), "not a set operation"), Reply{});
  }
}

}  // namespace

void start_set_op(const TransactionPtr& transaction, const ObjectPtr& object, TxOp op,
                  const std::vector<std::string>& args, Done<Reply> done) {
  switch (op) {
    case TxOp::set_cache_add:
    case TxOp::set_cache_remove:
    case TxOp::set_cache_contains:
    case TxOp::set_cache_read_all:
    case TxOp::set_cache_size:
    case TxOp::set_cache_add_all:
    case TxOp::set_cache_remove_all:
    case TxOp::set_cache_contains_all:
      return set_op(transaction, object, kSetCache, op, args, std::move(done));
    default:
      return set_op(transaction, object, kPlainSet, op, args, std::move(done));
  }
}

}  // namespace redisson::detail
