// The server's notify-keyspace-events flags as text (CONFIG GET / SET), and what an object
// listener needs of them: pure functions, so the rules are tested without a server.
//
// Redis prints the flags its own way: "A" for the whole class set g$lshzxetd, then K and E;
// the letters m (key misses) and n (new keys) are never part of "A".
#pragma once

#include <string>
#include <string_view>

namespace redisson::detail {

/// The letters of `needed` that `current` (a CONFIG GET notify-keyspace-events value) does not
/// turn on, "A" expanded; empty when every one is on.
std::string missing_keyspace_flags(std::string_view current, std::string_view needed);

/// `current` with the letters of `needed` added (for CONFIG SET): nothing already on is turned
/// off, and "A" is kept as Redis accepts it.
std::string merged_keyspace_flags(std::string_view current, std::string_view needed);

}  // namespace redisson::detail
