// Every started client of the process, for news that concerns them all: a thread that exits
// tells each one that its owner is gone (client/owner_id.cpp), so that none renews that thread's
// holds for ever.
#pragma once

#include <memory>

#include "redisson/owner_id.hpp"

namespace redisson::detail {

class ClientCore;

/// Adds a started core. Held weakly: a destroyed core simply drops out.
void add_live_core(const std::shared_ptr<ClientCore>& core);

/// The thread whose owner is `owner` is exiting: every live core hears of it
/// (ClientCore::owner_exited). Never throws and never waits for a client: it takes one mutex and
/// posts to each core's I/O thread. Safe during process exit (the list is never destroyed).
void thread_exited(OwnerId owner) noexcept;

}  // namespace redisson::detail
