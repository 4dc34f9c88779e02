// Subscribing to a channel for a caller: what Client::subscribe does, for objects that listen
// on Redisson's channels (MapCache's entry events) from their own handle.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "redisson/client.hpp"

namespace redisson::detail {

class ClientCore;

/// Subscribes to `channel` on `core` and waits until the server confirmed it (throws
/// redisson::error otherwise; errc::would_deadlock on the client's I/O thread). `on_message` runs
/// on the I/O thread for every message.
Subscription subscribe_channel(const std::shared_ptr<ClientCore>& core, std::string channel,
                               std::function<void(std::string_view)> on_message,
                               std::function<void()> on_resubscribed = {});

}  // namespace redisson::detail
