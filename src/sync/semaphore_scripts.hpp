// The Lua scripts of Semaphore and PermitExpirableSemaphore, embedded at build time from
// src/sync/lua/{semaphore,expirable_semaphore}_*.lua (cmake/embed_lua.cmake).
#pragma once

#include <string_view>

namespace redisson::detail::lua {

extern const std::string_view semaphore_try_acquire;
extern const std::string_view semaphore_release;
extern const std::string_view semaphore_try_set_permits;
extern const std::string_view semaphore_add_permits;
extern const std::string_view semaphore_drain_permits;
extern const std::string_view semaphore_delete;

extern const std::string_view expirable_semaphore_try_acquire;
extern const std::string_view expirable_semaphore_release;
extern const std::string_view expirable_semaphore_update_lease;
extern const std::string_view expirable_semaphore_available_permits;
extern const std::string_view expirable_semaphore_delete;

}  // namespace redisson::detail::lua
