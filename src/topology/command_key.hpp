// Which key a command is about, for routing it to the cluster node that owns the key's slot.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "redisson/command.hpp"

namespace redisson::detail {

/// The `index`-th argument of `command` (0 is the command's name); nullopt past the end.
std::optional<std::string_view> command_argument(const Command& command, std::size_t index);

/// The key that decides where `command` goes: for EVAL/EVALSHA (and their _RO forms) the first
/// KEYS entry, none when numkeys is 0; for keyless commands (PING, SCRIPT, CLUSTER, INFO, ...)
/// none; otherwise the second argument (GET key, PUBLISH channel, HSET key ...). nullopt means
/// "any node will do".
std::optional<std::string_view> routing_key(const Command& command);

}  // namespace redisson::detail
