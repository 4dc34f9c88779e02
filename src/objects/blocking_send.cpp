// Blocking commands of the objects, on the client's pool of dedicated connections.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "client/blocking_pool.hpp"
#include "client/client_core.hpp"
#include "net/reply_error.hpp"
#include "redisson/detail/blocking_op.hpp"

namespace redisson::detail {

std::chrono::milliseconds checked_wait(std::chrono::milliseconds wait, const char* operation) {
  if (wait.count() < 0) {
    throw_invalid_argument(std::string(operation) + ": the wait must not be negative (got " +
                           std::to_string(wait.count()) + " ms)");
  }
  return wait;
}

BlockingCommand wait_last_command(const char* verb, const std::string& key,
                                  std::vector<std::string> args,
                                  std::optional<std::chrono::milliseconds> wait,
                                  const char* operation) {
  BlockingCommand command;
  command.args.reserve(args.size() + 3);
  command.args.emplace_back(verb);
  command.args.push_back(key);
  for (auto& arg : args) command.args.push_back(std::move(arg));
  command.timeout_index = command.args.size();
  command.args.emplace_back();
  command.key_index = 1;
  if (wait) command.wait = checked_wait(*wait, operation);
  return command;
}

BlockingCommand wait_first_multi_pop(const char* verb, const std::string& key,
                                     const std::vector<std::string>& others, const char* end,
                                     std::int64_t count,
                                     std::optional<std::chrono::milliseconds> wait,
                                     const char* operation) {
  if (count < 1) throw_invalid_argument(std::string(operation) + ": the count must be at least 1");
  BlockingCommand command;
  command.args.reserve(others.size() + 7);
  command.args.emplace_back(verb);
  command.timeout_index = command.args.size();
  command.args.emplace_back();
  command.args.push_back(std::to_string(others.size() + 1));
  command.key_index = command.args.size();
  command.args.push_back(key);
  command.args.insert(command.args.end(), others.begin(), others.end());
  command.args.emplace_back(end);
  command.args.emplace_back("COUNT");
  command.args.push_back(std::to_string(count));
  if (wait) command.wait = checked_wait(*wait, operation);
  return command;
}

void submit_blocking(const ObjectState& object, BlockingCommand command, ReplyHandler handler,
                     const CancellationPtr& cancel) {
  if (object.batch) {
    // Not in a batch: a blocking command holds its own connection while it waits.
    return handler(make_error_code(errc::invalid_argument), Reply{});
  }
  BlockingPool::Request request;
  request.args = std::move(command.args);
  request.timeout_index = command.timeout_index;
  request.wait_in_ms = command.wait_in_ms;
  request.key_index = command.key_index;
  if (command.wait) request.until = Clock::now() + *command.wait;
  request.callback = std::move(handler);
  auto& pool = object.core->blocking_pool();
  auto call = pool.run(std::move(request));
  if (cancel) {
    cancel->on_request([weak = std::weak_ptr<BlockingPool>(pool.shared_from_this()), call] {
      if (const auto pool = weak.lock()) pool->cancel(call);
    });
  }
}

Status blocking_status(std::error_code ec, const Reply& reply) {
  // The pool's own words (all connections busy) are not the server's.
  if (ec == make_error_code(errc::timeout) && reply.is_error()) return Status(ec, reply.str);
  return status_of(ec, reply);
}

}  // namespace redisson::detail
