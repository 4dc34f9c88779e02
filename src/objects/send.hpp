// How object operations written in .cpp files send: a script whose reply is the result
// (eval_reply), and several commands at once (submit_all: pipelined, each routed by its own key,
// so on a Cluster they go to their slots' masters in parallel), completing once with every reply
// in order, or with the first failure (MGET per slot, MEMORY USAGE per key).
#pragma once

#include <memory>
#include <vector>

#include "client/client_core.hpp"
#include "redisson/command.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/reply.hpp"
#include "script/script_def.hpp"

namespace redisson::detail {

using RepliesDone = UniqueFunction<void(Status, std::vector<Reply>)>;

/// Runs `call`; completes `done` with its reply (a server error: its code and "server: <text>").
void eval_reply(const std::shared_ptr<ClientCore>& core, ScriptCall call, Done<Reply> done);

/// Completes `done` on the I/O thread (at once, with no replies, when `commands` is empty).
void submit_all(const std::shared_ptr<ClientCore>& core, std::vector<Command> commands,
                RepliesDone done);

}  // namespace redisson::detail
