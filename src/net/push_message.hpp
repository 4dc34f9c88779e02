// Which frames read from a connection are messages for its push handler rather than answers to
// the commands it sent: a pure function of the frame, so it is unit-tested without a server.
#pragma once

#include "redisson/reply.hpp"

namespace redisson::detail {

/// True when `reply` is a message, not an answer: a RESP3 push other than a (un)subscribe
/// confirmation (those answer the SUBSCRIBE that asked for them), or, on a RESP2 subscriber
/// connection (`subscriber`), an array whose first element is message, pmessage or smessage.
/// A cluster node's unrequested sunsubscribe is decided by the caller, which knows whether one
/// was asked for.
bool is_push_message(const Reply& reply, bool subscriber) noexcept;

}  // namespace redisson::detail
