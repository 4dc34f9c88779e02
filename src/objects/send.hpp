// How object operations written in .cpp files send: a script whose reply is the result
// (eval_reply), several commands at once (submit_all: pipelined, each routed by its own key,
// so on a Cluster they go to their slots' masters in parallel), commands to given masters
// (submit_all_to: SCAN, DBSIZE, FLUSHDB on every master), and multi-key commands split per hash
// slot (slot_groups, submit_per_slot_sum: MGET, DEL, EXISTS on a Cluster). Each completes once
// with every reply in order, or with the first failure.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/client_core.hpp"
#include "redisson/command.hpp"
#include "redisson/config.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/reply.hpp"
#include "script/script_def.hpp"

namespace redisson::detail {

using RepliesDone = UniqueFunction<void(Status, std::vector<Reply>)>;

/// Runs `call`; completes `done` with its reply (a server error: its code and "server: <text>").
void eval_reply(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply> done);
/// The same for an object's script: queued in the object's batch when it is bound to one.
void eval_reply(const ObjectState& object, ScriptCall call, Done<Reply> done);

/// Completes `done` on the I/O thread (at once, with no replies, when `commands` is empty).
void submit_all(const std::shared_ptr<ClientCore>& core, std::vector<Command> commands,
                RepliesDone done);
/// The same for an object's commands: queued in the object's batch when it is bound to one.
void submit_all(const ObjectState& object, std::vector<Command> commands, RepliesDone done);

/// A command for one master (Router::submit_to).
struct NodeCommand {
  ServerAddress node;
  Command command;
};
/// submit_all, each command sent to its node as it is.
void submit_all_to(const std::shared_ptr<ClientCore>& core, std::vector<NodeCommand> commands,
                   RepliesDone done);
/// One command to `node` (Router::submit_to) with the command timeout.
void submit_to(const std::shared_ptr<ClientCore>& core, const ServerAddress& node,
               const Command& command, Done<Reply> done);

/// The positions of `keys` grouped by hash slot on a Cluster, groups in the order of their first
/// key, or a single group of all of them elsewhere (none when `keys` is empty): a multi-key
/// command may only name keys of one slot on a Cluster.
std::vector<std::vector<std::size_t>> slot_groups(const ClientCore& core,
                                                  const std::vector<std::string>& keys);

/// Refuses, on a Cluster, a command over `object`'s key and the keys `others` when one of them
/// is in another hash slot: throws errc::invalid_argument naming `verb` and that key (so nothing
/// is sent). Elsewhere every key is accepted.
void require_same_slot(const ObjectState& object, std::string_view verb,
                       const std::vector<std::string>& others);

/// `command` followed by keys, one command per slot group, pipelined; completes with an integer
/// reply, the sum of theirs (DEL, UNLINK, EXISTS, TOUCH). No keys: 0, nothing sent.
void submit_per_slot_sum(const std::shared_ptr<ClientCore>& core, std::string_view command,
                         const std::vector<std::string>& keys, Done<Reply> done);
/// The same for an object's keys: queued in the object's batch when it is bound to one.
void submit_per_slot_sum(const ObjectState& object, std::string_view command,
                         const std::vector<std::string>& keys, Done<Reply> done);

/// An integer reply of `value`: what an operation that computes its result completes with.
Reply integer_reply(std::int64_t value);

}  // namespace redisson::detail
