// The shared state behind a Client and every object made from it: the I/O thread(s), the
// command connection (or, on Cluster/Sentinel, the Router that picks a node per command), the
// pub/sub subscriber, the script runner and the lock watchdog.
#pragma once

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "net/connection.hpp"
#include "pubsub/pubsub.hpp"
#include "redisson/client.hpp"
#include "redisson/config.hpp"

namespace redisson::detail {

class Watchdog;
class Router;

class ClientCore : public std::enable_shared_from_this<ClientCore> {
 public:
  explicit ClientCore(Config config);
  ~ClientCore();

  /// Starts the I/O thread(s) and connects; throws redisson::error when the server cannot
  /// be reached or refuses the login within connect_timeout.
  void start();
  void shutdown() noexcept;

  const Config& config() const noexcept { return config_; }
  const std::string& id() const noexcept { return id_; }
  asio::io_context& io() noexcept { return io_; }
  asio::any_io_executor executor() noexcept { return io_.get_executor(); }
  bool on_io_thread() const noexcept;
  bool connected() const noexcept;

  /// Queues a command with the default command timeout.
  void submit(const Command& command, ReplyCallback callback);
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback);
  /// EVALSHA, then on NOSCRIPT: SCRIPT LOAD and the same EVALSHA again (pipelined, once).
  /// A script the server refused for now (LOADING, BUSY: it did not run) is sent again after a
  /// short wait until the command timeout; the callback then gets the last refusal.
  void eval(const Script& script, Command evalsha, ReplyCallback callback);

  /// Pub/sub; run on the I/O thread (post to it from elsewhere).
  PubSub& subscriber();
  /// The command the lock scripts publish with: "spublish" when lock channels are sharded
  /// (a Redis 7 cluster), else "publish".
  const std::string& publish_command() const noexcept { return publish_command_; }
  /// The Router on Cluster/Sentinel deployments; null for a single server.
  Router* router() noexcept { return router_.get(); }

  Watchdog& watchdog();

  /// Runs `fn` on the I/O thread (inline when already there).
  void run_on_io(std::function<void()> fn);

 private:
  Config config_;
  std::string id_;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
  void start_router();
  void eval_until(const Script& script, std::shared_ptr<const Command> command,
                  Clock::time_point deadline, std::chrono::milliseconds waited,
                  ReplyCallback callback);

  std::shared_ptr<Connection> connection_;  // a single server: commands go here directly
  std::shared_ptr<Router> router_;          // otherwise: it picks the node
  std::shared_ptr<PubSub> subscriber_;
  std::string publish_command_ = "publish";
  std::shared_ptr<Watchdog> watchdog_;
  bool stopped_ = false;
};

/// Blocks until `start(callback)` completes; throws on error (with `what` as context).
/// Refuses (errc::would_deadlock) on the I/O thread.
Reply wait_for_reply(ClientCore& core, const std::function<void(ReplyCallback)>& start,
                     std::error_code& ec);

/// Throws redisson::error for `ec`, using the reply's server text when there is one.
[[noreturn]] void throw_error(std::error_code ec, const Reply& reply, std::string_view context);

}  // namespace redisson::detail
