// The text of the server error reply whose callbacks are running on this thread.
//
// Why: the asynchronous API completes with a std::error_code alone (Asio's convention), and a code
// cannot carry what the server said: "OOM command not allowed when used memory > 'maxmemory'",
// "READONLY You can't write against a read only replica", a script's own error. The blocking
// layer waits for completions that, for a refused command, run inside the delivery of the very
// reply that refused it; it picks the text up there and puts it in the exception. A completion
// that runs later (posted, or after a retry) finds no scope and reports the code alone, which is
// what it did before.
#pragma once

#include <string>
#include <system_error>

namespace redisson::detail {

/// While alive, server_error_text() on this thread is `text`. A nested scope hides the outer one
/// until it ends.
class ServerErrorScope {
 public:
  explicit ServerErrorScope(std::string text);
  ~ServerErrorScope();
  ServerErrorScope(const ServerErrorScope&) = delete;
  ServerErrorScope& operator=(const ServerErrorScope&) = delete;

 private:
  std::string text_;
  const std::string* outer_;
};

/// The innermost live scope's text on this thread, or nullptr.
const std::string* server_error_text() noexcept;

/// The codes an error reply maps to (net/reply_error.hpp): only these may carry a server's text.
bool is_server_refusal(std::error_code ec) noexcept;

}  // namespace redisson::detail
