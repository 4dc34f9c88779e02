#include "objects/send.hpp"

#include <map>
#include <mutex>

#include "batch/batch_state.hpp"
#include "net/reply_error.hpp"
#include "services/read_tracker.hpp"
#include "topology/key_slot.hpp"
#include "topology/router.hpp"

namespace redisson::detail {
namespace {

struct Gather {
  std::mutex mutex;
  std::vector<Reply> replies;
  std::size_t pending = 0;
  Status failure;
  RepliesDone done;
};

// Sends `count` commands with send(i, callback) and completes `done` once with every reply.
template <class Send>
void gather(std::size_t count, RepliesDone done, Send send) {
  if (count == 0) return done(Status{}, {});
  auto state = std::make_shared<Gather>();
  state->replies.resize(count);
  state->pending = count;
  state->done = std::move(done);
  for (std::size_t i = 0; i < count; ++i) {
    send(i, [state, i](std::error_code ec, Reply reply) {
      RepliesDone finish;
      {
        std::lock_guard lock(state->mutex);
        if (ec && !state->failure) state->failure = status_of(ec, reply);
        state->replies[i] = std::move(reply);
        if (--state->pending == 0) finish = std::move(state->done);
      }
      if (finish) {
        if (state->failure) return finish(std::move(state->failure), {});
        finish(Status{}, std::move(state->replies));
      }
    });
  }
}

}  // namespace

void eval_reply(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply> done) {
  core->eval(std::move(call), [done = std::move(done)](std::error_code ec, Reply reply) mutable {
    auto status = status_of(ec, reply);  // before the reply moves
    done(std::move(status), std::move(reply));
  });
}

void eval_reply(const ObjectState& object, ScriptCall call, Done<Reply> done) {
  if (object.tracking) {
    // A client-side cache's object: the script's answer drops what the cache read of its key.
    if (const auto key = call.command.routing_key()) {
      done = [tracking = object.tracking, key = std::string(*key), done = std::move(done)](
                 Status status, Reply reply) mutable {
        tracking->wrote(key);
        done(std::move(status), std::move(reply));
      };
    }
  }
  if (!object.batch) return eval_reply(object.core, std::move(call), std::move(done));
  object.batch->add(std::move(call),
                    [done = std::move(done)](std::error_code ec, Reply reply) mutable {
                      auto status = status_of(ec, reply);  // before the reply moves
                      done(std::move(status), std::move(reply));
                    });
}

void submit_all(const std::shared_ptr<ClientCore>& core, std::vector<Command> commands,
                RepliesDone done) {
  gather(commands.size(), std::move(done), [&](std::size_t i, ReplyCallback callback) {
    core->submit(commands[i], std::move(callback));
  });
}

void submit_all(const ObjectState& object, std::vector<Command> commands, RepliesDone done) {
  if (object.tracking) {
    // A client-side cache's object: reads go through the cache, and the answers to the rest
    // drop what it read of their keys.
    return gather(commands.size(), std::move(done), [&](std::size_t i, ReplyCallback callback) {
      object.tracking->submit(commands[i], std::move(callback));
    });
  }
  if (!object.batch) return submit_all(object.core, std::move(commands), std::move(done));
  gather(commands.size(), std::move(done), [&](std::size_t i, ReplyCallback callback) {
    object.batch->add(commands[i], std::move(callback));
  });
}

void submit_all_to(const std::shared_ptr<ClientCore>& core, std::vector<NodeCommand> commands,
                   RepliesDone done) {
  const auto deadline = Clock::now() + core->config().command_timeout;
  gather(commands.size(), std::move(done), [&](std::size_t i, ReplyCallback callback) {
    core->router().submit_to(commands[i].node, commands[i].command, deadline, std::move(callback));
  });
}

void submit_to(const std::shared_ptr<ClientCore>& core, const ServerAddress& node,
               const Command& command, Done<Reply> done) {
  core->router().submit_to(node, command, Clock::now() + core->config().command_timeout,
                           [done = std::move(done)](std::error_code ec, Reply reply) mutable {
                             auto status = status_of(ec, reply);  // before the reply moves
                             done(std::move(status), std::move(reply));
                           });
}

std::vector<std::vector<std::size_t>> slot_groups(const ClientCore& core,
                                                  const std::vector<std::string>& keys) {
  std::vector<std::vector<std::size_t>> groups;
  if (keys.empty()) return groups;
  if (!core.is_cluster()) {
    groups.emplace_back();
    for (std::size_t i = 0; i < keys.size(); ++i) groups.front().push_back(i);
    return groups;
  }
  std::map<int, std::size_t> group_of_slot;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [at, added] = group_of_slot.try_emplace(key_slot(keys[i]), groups.size());
    if (added) groups.emplace_back();
    groups[at->second].push_back(i);
  }
  return groups;
}

namespace {

std::vector<Command> per_slot_commands(const ClientCore& core, std::string_view command,
                                       const std::vector<std::string>& keys) {
  std::vector<Command> commands;
  for (const auto& group : slot_groups(core, keys)) {
    Command& one = commands.emplace_back(Command{command});
    for (const auto i : group) one.arg(keys[i]);
  }
  return commands;
}

RepliesDone summing(Done<Reply> done) {
  return [done = std::move(done)](Status status, const std::vector<Reply>& replies) mutable {
    std::int64_t sum = 0;
    for (const auto& reply : replies) sum += reply.integer;
    done(std::move(status), integer_reply(sum));
  };
}

}  // namespace

void submit_per_slot_sum(const std::shared_ptr<ClientCore>& core, std::string_view command,
                         const std::vector<std::string>& keys, Done<Reply> done) {
  submit_all(core, per_slot_commands(*core, command, keys), summing(std::move(done)));
}

void submit_per_slot_sum(const ObjectState& object, std::string_view command,
                         const std::vector<std::string>& keys, Done<Reply> done) {
  submit_all(object, per_slot_commands(*object.core, command, keys), summing(std::move(done)));
}

Reply integer_reply(std::int64_t value) {
  Reply reply;
  reply.type = ReplyType::integer;
  reply.integer = value;
  return reply;
}

void require_same_slot(const ObjectState& object, std::string_view verb,
                       const std::vector<std::string>& others) {
  if (!object.core->is_cluster()) return;
  const auto slot = key_slot(object.name);
  for (const auto& other : others) {
    if (key_slot(other) != slot) {
      throw_invalid_argument(std::string(verb) + ": on a Cluster every key must share " +
                             object.name + "'s hash slot (" + other +
                             " does not; give them one hash tag)");
    }
  }
}

}  // namespace redisson::detail
