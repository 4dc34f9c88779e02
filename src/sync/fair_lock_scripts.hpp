// The fair lock's Lua scripts, embedded at build time from src/sync/lua/fair_lock_*.lua
// (cmake/embed_lua.cmake). Each file's header comment gives its KEYS, ARGV and reply.
#pragma once

#include <string_view>

namespace redisson::detail::lua {

extern const std::string_view fair_lock_acquire;
extern const std::string_view fair_lock_unlock;
extern const std::string_view fair_lock_force_unlock;
extern const std::string_view fair_lock_give_up;

}  // namespace redisson::detail::lua
