// The operation path of blocking commands (a BlockingQueue's take and poll, BLMOVE, BZPOPMIN):
//
//   async_blocking<R>(object, token, build, convert)
//
// like async_command (object_op.hpp), except that the command runs on one of the client's
// dedicated blocking connections, never on the shared pipelined one, with the server's own
// timeout; it is re-issued after a reconnect or failover with what is left of its wait, and an
// Asio cancellation ends it on the server (CLIENT UNBLOCK). See src/client/blocking_pool.hpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

/// A blocking command as an object builds it.
struct BlockingCommand {
  /// The command; args[timeout_index] is a placeholder for each send's wait.
  std::vector<std::string> args;
  std::size_t timeout_index = 0;
  /// The wait is sent in milliseconds (XREAD BLOCK), else in seconds with a fraction.
  bool wait_in_ms = false;
  /// args[key_index] is the key it is routed by (on a Cluster, every key must share its slot).
  std::size_t key_index = 1;
  /// How long the server waits; nullopt: until something arrives.
  std::optional<std::chrono::milliseconds> wait;
};

/// The wait of a blocking call: a negative one is errc::invalid_argument, naming `operation`.
std::chrono::milliseconds checked_wait(std::chrono::milliseconds wait, const char* operation);

/// `verb key args... <wait>`, the form of BLPOP, BRPOP, BLMOVE, BZPOPMIN and BZPOPMAX (the
/// wait last), routed by `key`; `wait` nullopt: until something arrives. A negative wait is
/// errc::invalid_argument, naming `operation`.
BlockingCommand wait_last_command(const char* verb, const std::string& key,
                                  std::vector<std::string> args,
                                  std::optional<std::chrono::milliseconds> wait,
                                  const char* operation);

/// `verb <wait> numkeys key others... <end> COUNT count`, the form of BLMPOP and BZMPOP (the
/// wait first), routed by `key`. A count below 1 or a negative wait is errc::invalid_argument,
/// naming `operation`.
BlockingCommand wait_first_multi_pop(const char* verb, const std::string& key,
                                     const std::vector<std::string>& others, const char* end,
                                     std::int64_t count,
                                     std::optional<std::chrono::milliseconds> wait,
                                     const char* operation);

/// Runs `command` on a dedicated connection; `handler` runs on the I/O thread with the reply
/// (nil: the wait ended with nothing) or the error. `cancel`, when set, ends it early.
void submit_blocking(const ObjectState& object, BlockingCommand command, ReplyHandler handler,
                     const CancellationPtr& cancel);

/// How a blocking command ended, as an operation's Status.
Status blocking_status(std::error_code ec, const Reply& reply);

/// Starts the blocking command `build()` makes (on the caller's thread: a redisson::error it
/// throws becomes the completion's error) through `submit`, called as submit_blocking is (a type
/// whose take must do more after the reply, as a bounded queue giving places back, passes its
/// own); `convert` reads the reply on the I/O thread.
template <class R, class Token, class Build, class Convert, class Submit>
auto async_blocking_via(const ObjectPtr& object, Token&& token, Build&& build, Convert&& convert,
                        Submit submit) {
  std::optional<BlockingCommand> command;
  Status failure;
  try {
    command = build();
  } catch (const error& thrown) {
    failure = status_of_error(thrown);
  }
  return async_op<R>(object->core, token,
                     [object, command = std::move(command), failure = std::move(failure),
                      convert = std::forward<Convert>(convert),
                      submit = std::move(submit)](Done<R> done, CancellationPtr cancel) mutable {
                       if (!command) return fail<R>(done, std::move(failure));
                       submit(
                           *object, std::move(*command),
                           [done = std::move(done), convert = std::move(convert)](
                               std::error_code ec, Reply reply) mutable {
                             complete_converted<R>(done, blocking_status(ec, reply), reply,
                                                   convert);
                           },
                           cancel);
                     });
}

/// async_blocking_via submit_blocking: the common case.
template <class R, class Token, class Build, class Convert>
auto async_blocking(const ObjectPtr& object, Token&& token, Build&& build, Convert&& convert) {
  return async_blocking_via<R>(object, token, std::forward<Build>(build),
                               std::forward<Convert>(convert), &submit_blocking);
}

}  // namespace redisson::detail
