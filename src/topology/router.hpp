// Where a command goes: one implementation per deployment (a single server or a fixed master,
// Sentinel, Cluster). ClientCore sends everything through its Router; scripts go through the
// ScriptRunner on top of it (script/script_runner.hpp), which handles NOSCRIPT for all of them.
//
// Threading: submit() and eval() may be called from any thread; start(), close() and
// the change handler run on the I/O thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "net/connection.hpp"
#include "net/node_key.hpp"
#include "redisson/command.hpp"
#include "redisson/config.hpp"

namespace redisson::detail {

class Router {
 public:
  /// How start() ended: an error and the words of whoever refused, or success.
  using StartCallback = std::function<void(std::error_code, const std::string& detail)>;
  /// Called on the I/O thread whenever the node serving some slots (or the master) changed.
  using ChangeHandler = std::function<void()>;
  /// Called right after a command was queued on a node's connection, with that connection and
  /// the node as "host:port": what it queues there runs after the command (Config::
  /// sync_replicas queues WAIT). Called once per send, resends included.
  using SentHook =
      std::function<void(const std::shared_ptr<Connection>& connection, const std::string& node)>;

  virtual ~Router() = default;

  /// Discovers the topology and connects; `done` runs once, on the I/O thread.
  virtual void start(StartCallback done) = 0;
  /// Sends `command` to the node that serves its routing key (any node when it has none),
  /// following redirections. `after_send`, when set, runs after each send of it (resends
  /// included) with the connection and node it went to. `read` (a blocking call's slot,
  /// redisson/detail/read_slot.hpp) goes with the first send only: a resend is never read by
  /// the caller.
  virtual void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
                      SentHook after_send = nullptr, ReadSlot* read = nullptr) = 0;
  /// The masters holding the data set: the one server (single server, master/replica,
  /// Sentinel: the current master) or every master of the last slot map (Cluster). Commands
  /// about the whole data set (SCAN, DBSIZE, FLUSHDB) go to each of them with submit_to().
  virtual std::vector<ServerAddress> masters() const = 0;
  /// Sends `command` to `node` (one of masters()) as it is: not routed by key, no redirection
  /// followed. With one master it goes to the current master, whatever `node` says (a failover
  /// may have moved it since masters() was asked).
  virtual void submit_to(const ServerAddress& node, const Command& command,
                         Clock::time_point deadline, ReplyCallback callback) = 0;
  /// The connection of the master serving `key` (any master when it has none), as submit()
  /// would pick it now, without redirections; null once closed. A batch (batch/) queues its
  /// group for one node there whole.
  virtual std::shared_ptr<Connection> connection_for(std::optional<std::string_view> key) = 0;
  /// The node a subscription to `channel` belongs on.
  virtual ServerAddress pubsub_node(std::string_view channel) const = 0;
  /// Whether lock channels use SSUBSCRIBE/SPUBLISH.
  virtual bool sharded_pubsub() const { return false; }
  virtual void set_change_handler(ChangeHandler handler) = 0;
  /// Learns the topology again now, then runs `done` (I/O thread; changes are announced first).
  virtual void refresh(std::function<void()> done) = 0;
  /// refresh(), asking `first` before any other node when the deployment has several: a node
  /// that has just told the client something moved away from it (a dropped or refused sharded
  /// subscription) knows where it went, while the others may not have heard yet.
  virtual void refresh_asking(const ServerAddress& first, std::function<void()> done) {
    (void)first;
    refresh(std::move(done));
  }
  /// True when the node(s) commands go to are connected.
  virtual bool connected() const = 0;
  /// Fails every pending command with errc::shutdown. Idempotent.
  virtual void close() = 0;
};

}  // namespace redisson::detail
