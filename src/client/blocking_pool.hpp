// Dedicated connections for blocking commands (BLPOP, BLMOVE, BZPOPMIN, XREAD BLOCK, ...).
//
// A blocking command holds its connection until the server answers, so it must never go down
// the shared pipelined connection: every command queued behind it would wait as well. The pool
// keeps a small bounded set of connections (Config::blocking_connections, over all nodes), one
// blocking command on each at a time; a request that finds them all busy waits for one.
//
// A request is sent with the server's own timeout, so "nothing arrived in time" is the server's
// nil reply and nothing can be handed out after the caller stopped listening. A wait without
// end, or a long one, is sent in slices (kSlice) and re-issued after each nil, so a silently dead
// connection is noticed within a slice. A request whose connection broke, whose node stopped
// serving its key (UNBLOCKED after a failover demoted the master, MOVED, READONLY) or that was
// refused for now (LOADING, CLUSTERDOWN, TRYAGAIN) is re-issued, after a short back-off and a
// topology refresh, with what is left of its wait: an element is lost only if the server handed
// it out on a connection that broke before the reply arrived.
//
// Cancel: CLIENT UNBLOCK on the shared connection makes the server end the blocked command at
// once, as if its timeout had come (an element it handed out first still reaches the caller).
// Close (client shutdown) fails every request with errc::shutdown and closes the connections.
//
// Threading: run() and cancel() may be called from any thread; everything else runs on the I/O
// thread, where callbacks are called.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "net/connection.hpp"
#include "redisson/config.hpp"

namespace redisson::detail {

class Router;

class BlockingPool : public std::enable_shared_from_this<BlockingPool> {
 public:
  /// The longest single wait sent to the server; longer waits are re-issued.
  static constexpr std::chrono::milliseconds kSlice{10000};

  struct Request {
    /// The command; args[timeout_index] is replaced by each send's wait.
    std::vector<std::string> args;
    std::size_t timeout_index = 0;
    /// The wait is sent in milliseconds (XREAD BLOCK), else in seconds with a fraction (BLPOP).
    bool wait_in_ms = false;
    /// args[key_index] is the key the command is routed by (its first key).
    std::size_t key_index = 1;
    /// When the wait ends; nullopt: never (take()).
    std::optional<Clock::time_point> until;
    /// Whether a request whose connection broke under it is sent again on a new one. False for
    /// a reader that must first look at what the lost reply may have handed out (a consumer
    /// group's XREADGROUP: the entries stay pending for it): it gets the error instead.
    bool resend_after_loss = true;
    ReplyCallback callback;
  };
  class Call;
  using CallPtr = std::shared_ptr<Call>;

  BlockingPool(asio::io_context& io, ConnectionOptions base, std::weak_ptr<Router> router,
               std::size_t max_connections, std::chrono::milliseconds command_timeout);
  ~BlockingPool();

  /// Starts `request`; its callback gets the server's reply (nil: the wait ended with nothing),
  /// or an error. Returns a handle for cancel().
  CallPtr run(Request request);
  /// Ends the call early: its callback gets asio::error::operation_aborted, or the reply the
  /// server had already sent.
  void cancel(const CallPtr& call);
  /// The topology changed: requests waiting on a node that no longer serves their key are
  /// re-issued where it lives now; idle connections to nodes that are no longer masters are
  /// closed.
  void reroute();
  /// Fails every request with errc::shutdown and closes every connection. Idempotent.
  void close();

 private:
  struct Lease {
    std::shared_ptr<Connection> connection;
    ServerAddress node;
    std::optional<std::int64_t> client_id;  // CLIENT ID of the current session
    // A cancel came before CLIENT ID answered: the unblock is sent when it does.
    bool unblock_when_known = false;
  };
  using LeasePtr = std::shared_ptr<Lease>;

  void start(const CallPtr& call);
  /// CLIENT UNBLOCK of the lease's session, on the shared connection to its node.
  void unblock(const LeasePtr& lease);
  LeasePtr lease_for(const ServerAddress& node);
  void send(const CallPtr& call, const LeasePtr& lease);
  void on_reply(const CallPtr& call, const LeasePtr& lease, std::error_code ec, Reply reply);
  void retry_later(const CallPtr& call, std::error_code ec, Reply reply);
  void release(const LeasePtr& lease, bool reusable);
  void finish(const CallPtr& call, std::error_code ec, Reply reply);
  void wait_for_connection(const CallPtr& call);
  void wake_waiter();
  ServerAddress node_of(const std::string& key) const;

  asio::io_context& io_;
  ConnectionOptions base_;
  std::weak_ptr<Router> router_;
  std::size_t max_connections_;
  std::chrono::milliseconds command_timeout_;
  // I/O thread only:
  std::vector<LeasePtr> idle_;
  std::vector<CallPtr> active_;  // sent, or waiting for a retry
  std::deque<CallPtr> waiting_;  // for a free connection
  std::size_t open_ = 0;         // connections in idle_ or in use

  std::mutex mutex_;             // guards the two below: run() is called from any thread
  std::vector<CallPtr> posted_;  // run() but not started yet: close() finishes them
  bool closed_ = false;
};

}  // namespace redisson::detail
