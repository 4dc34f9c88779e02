// Maps a server's error reply to the library's error codes.
#pragma once

#include <string_view>
#include <system_error>

#include "redisson/detail/status.hpp"
#include "redisson/error.hpp"
#include "redisson/reply.hpp"

namespace redisson::detail {

/// The error_code a top-level reply stands for: success unless it is an error reply.
inline std::error_code error_for_reply(const Reply& reply) noexcept {
  if (reply.type != ReplyType::error) return {};
  std::string_view text = reply.str;
  if (text.starts_with("WRONGTYPE")) return make_error_code(errc::wrong_type);
  // An ACL refusal is a setup problem, not a failed command: callers tell it apart.
  if (text.starts_with("NOPERM")) return make_error_code(errc::no_permission);
  // Refused for now, not run: LOADING (a restarted server replaying its AOF or RDB), BUSY
  // (another script running past lua-time-limit). Unlike a lost reply, sending the command
  // again cannot make it run twice, so even a script that is not idempotent may be retried.
  // CLUSTERDOWN (a cluster electing a master) and TRYAGAIN (a slot mid-migration) are the same
  // kind of refusal.
  if (text.starts_with("LOADING") || text.starts_with("BUSY ") || text.starts_with("CLUSTERDOWN") ||
      text.starts_with("TRYAGAIN")) {
    return make_error_code(errc::server_busy);
  }
  if (text.starts_with("NOAUTH") || text.starts_with("WRONGPASS") ||
      text.starts_with("ERR invalid password") || text.starts_with("ERR AUTH")) {
    return make_error_code(errc::auth_failed);
  }
  return make_error_code(errc::server_error);
}

/// How a command ended, as an operation's Status: `ec`, with "server: <its words>" when the
/// reply is an error (so a blocking caller's exception says what the server said).
inline Status status_of(std::error_code ec, const Reply& reply) {
  if (ec && reply.type == ReplyType::error) return Status(ec, "server: " + reply.str);
  return Status(ec);
}

}  // namespace redisson::detail
