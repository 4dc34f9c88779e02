// One command sent to every master (SCRIPT LOAD, FUNCTION LOAD, ...): what the script cache and
// the function libraries need, as each master keeps its own.
#pragma once

#include "redisson/command.hpp"
#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

/// Sends `command` to every master of the client's topology (the one server elsewhere), in
/// parallel; completes with an array reply of their replies in the order of the masters, or the
/// first failure (every master is still sent it).
void start_on_every_master(const ObjectPtr& state, const Command& command, Done<Reply>& done);

}  // namespace redisson::detail
