// Runs Lua scripts on whatever topology the client has, the one place that knows how:
//
//   EVALSHA, routed like any command (by its first key).
//   NOSCRIPT (a restarted or new node, a failover, SCRIPT FLUSH): the same call again as EVAL
//   with the source, which runs it and caches it on that node; one round trip, routed and
//   redirected like the EVALSHA, and it cannot answer NOSCRIPT again.
//   LOADING or BUSY (the script did not run): sent again after a short, growing wait until the
//   command's deadline; the caller then gets the last refusal.
//
// Threading: eval() may be called from any thread; callbacks run on the I/O thread.
#pragma once

#include <asio/io_context.hpp>
#include <chrono>
#include <memory>

#include "redisson/script.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

class ScriptRunner : public std::enable_shared_from_this<ScriptRunner> {
 public:
  ScriptRunner(asio::io_context& io, std::shared_ptr<Router> router);

  /// `after_send` (may be empty) runs after each send of the script, and `read` goes with the
  /// first, as Router::submit says.
  void eval(const Script& script, Command evalsha, Clock::time_point deadline,
            ReplyCallback callback, Router::SentHook after_send, ReadSlot* read = nullptr);

 private:
  struct Call;
  void send(const std::shared_ptr<Call>& call, ReadSlot* read = nullptr);

  asio::io_context& io_;
  std::shared_ptr<Router> router_;
};

/// `evalsha` (EVALSHA sha numkeys ...) as EVAL with the script's source; EVALSHA_RO as EVAL_RO.
Command as_eval(const Command& evalsha, std::string_view source);

}  // namespace redisson::detail
