// The read-write lock's Lua scripts, embedded at build time from src/sync/lua/rwlock_*.lua
// (cmake/embed_lua.cmake). Each file's header comment gives its KEYS, ARGV and reply.
#pragma once

#include <string_view>

namespace redisson::detail::lua {

extern const std::string_view rwlock_read_acquire;
extern const std::string_view rwlock_write_acquire;
extern const std::string_view rwlock_read_unlock;
extern const std::string_view rwlock_write_unlock;
extern const std::string_view rwlock_force_unlock;
extern const std::string_view rwlock_renew;

}  // namespace redisson::detail::lua
