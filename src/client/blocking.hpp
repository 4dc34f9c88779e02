// The blocking layer: waits on an async operation's completion.
#pragma once

#include <future>
#include <string>
#include <system_error>
#include <utility>

#include "client/client_core.hpp"
#include "net/server_error_text.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

/// Starts `start(callback)` and waits for (error_code, T). Refuses on the I/O thread
/// (errc::would_deadlock), where waiting would stop the very thread that must complete it.
/// When the operation failed because the server refused a command and `server_text` is given,
/// it receives what the server said (empty when the completion ran outside that reply's
/// delivery; see net/server_error_text.hpp).
template <class T, class Start>
T wait_for(ClientCore& core, Start&& start, std::error_code& ec,
           std::string* server_text = nullptr) {
  if (core.on_io_thread()) {
    ec = make_error_code(errc::would_deadlock);
    return T{};
  }
  struct Outcome {
    std::error_code ec;
    T value;
    std::string text;
  };
  std::promise<Outcome> done;
  auto result = done.get_future();
  start(UniqueFunction<void(std::error_code, T)>([&done](std::error_code error_code, T value) {
    Outcome outcome{error_code, std::move(value), {}};
    if (error_code && is_server_refusal(error_code)) {
      if (const auto* text = server_error_text()) outcome.text = *text;
    }
    done.set_value(std::move(outcome));
  }));
  auto outcome = result.get();
  ec = outcome.ec;
  if (server_text != nullptr) *server_text = std::move(outcome.text);
  return std::move(outcome.value);
}

/// The context, and what the server said when it refused a command. (std::system_error appends
/// ": <what the code means>" to it.)
inline std::string describe_failure(const std::string& context, const std::string& server_text) {
  return server_text.empty() ? context : context + " (server: " + server_text + ")";
}

/// wait_for that throws redisson::error(ec, context) on failure.
template <class T, class Start>
T wait_or_throw(ClientCore& core, Start&& start, const std::string& context) {
  std::error_code ec;
  std::string server_text;
  T value = wait_for<T>(core, std::forward<Start>(start), ec, &server_text);
  if (ec) throw error(ec, describe_failure(context, server_text));
  return value;
}

}  // namespace redisson::detail
