// The blocking layer: waits on an async operation's completion.
#pragma once

#include <future>
#include <string>
#include <system_error>
#include <utility>

#include "client/client_core.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

/// Starts `start(callback)` and waits for (error_code, T). Refuses on the I/O thread
/// (errc::would_deadlock), where waiting would stop the very thread that must complete it.
template <class T, class Start>
T wait_for(ClientCore& core, Start&& start, std::error_code& ec) {
  if (core.on_io_thread()) {
    ec = make_error_code(errc::would_deadlock);
    return T{};
  }
  std::promise<std::pair<std::error_code, T>> done;
  auto result = done.get_future();
  start(UniqueFunction<void(std::error_code, T)>([&done](std::error_code error_code, T value) {
    done.set_value({error_code, std::move(value)});
  }));
  auto [error_code, value] = result.get();
  ec = error_code;
  return std::move(value);
}

/// wait_for that throws redisson::error(ec, context) on failure.
template <class T, class Start>
T wait_or_throw(ClientCore& core, Start&& start, const std::string& context) {
  std::error_code ec;
  T value = wait_for<T>(core, std::forward<Start>(start), ec);
  if (ec) throw error(ec, context + ": " + ec.message());
  return value;
}

}  // namespace redisson::detail
