// The Lua scripts embedded at build time from src/*/lua/*.lua (cmake/embed_lua.cmake).
#pragma once

#include <string_view>

namespace redisson::detail::lua {

extern const std::string_view lock_renew;
extern const std::string_view lock_acquire;
extern const std::string_view lock_acquire_once;
extern const std::string_view lock_unlock;
extern const std::string_view lock_force_unlock;

}  // namespace redisson::detail::lua
