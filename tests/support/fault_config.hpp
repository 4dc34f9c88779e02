// Client settings shared by the fault tests: a command timeout of the test's choosing, and a
// connect timeout and reconnect back-off short enough that a test sees the client recover
// within its own bounds.
#pragma once

#include <chrono>
#include <string_view>
#include <system_error>

#include "redisson/client.hpp"
#include "redisson/config.hpp"
#include "support/client_config.hpp"

namespace redisson::test {

inline Config fault_config(std::string_view url, std::chrono::milliseconds command_timeout,
                           std::chrono::milliseconds connect_timeout = std::chrono::seconds(1)) {
  return client_config(url,
                       {.command_timeout = command_timeout, .connect_timeout = connect_timeout});
}

/// True when a PING through `client` succeeds now.
inline bool answers(Client& client) {
  std::error_code ec;
  client.execute({"PING"}, ec);
  return !ec;
}

}  // namespace redisson::test
