// The Lua scripts of CountDownLatch, embedded at build time from
// src/sync/lua/count_down_latch_*.lua (cmake/embed_lua.cmake).
#pragma once

#include <string_view>

namespace redisson::detail::lua {

extern const std::string_view count_down_latch_try_set_count;
extern const std::string_view count_down_latch_count_down;
extern const std::string_view count_down_latch_delete;

}  // namespace redisson::detail::lua
