// A Sentinel-managed master/replica set: the sentinels name the master (SENTINEL
// GET-MASTER-ADDR-BY-NAME), every command goes to it over one pipelined Connection.
//
// The master is learned again when a sentinel announces +switch-master (subscribed on the first
// sentinel that answers), every scan_interval, when the master connection is lost, and when the
// master answers READONLY (it was demoted). On a switch, new commands go to the new master at
// once; a command that met READONLY on the old one is resent to the new one (once). The old
// connection is closed after a command timeout, when nothing sent on it can still be answered.
#pragma once

#include <asio/io_context.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pubsub/subscriber.hpp"
#include "topology/refresh_schedule.hpp"
#include "topology/router.hpp"

namespace redisson::detail {

class SentinelRouter : public Router, public std::enable_shared_from_this<SentinelRouter> {
 public:
  SentinelRouter(asio::io_context& io, ConnectionOptions base, SentinelConfig config,
                 std::chrono::milliseconds command_timeout,
                 std::chrono::milliseconds subscription_timeout);

  void start(StartCallback done) override;
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
              SentHook after_send = nullptr, ReadSlot* read = nullptr) override;
  std::vector<ServerAddress> masters() const override;
  void submit_to(const ServerAddress& node, const Command& command, Clock::time_point deadline,
                 ReplyCallback callback) override;
  std::shared_ptr<Connection> connection_for(std::optional<std::string_view> key) override;
  ServerAddress pubsub_node(std::string_view channel) const override;
  void set_change_handler(ChangeHandler handler) override { change_handler_ = std::move(handler); }
  void refresh(std::function<void()> done) override;
  bool connected() const override;
  void close() override;

 private:
  void ask_sentinels(std::size_t next, const std::string& last_error,
                     std::function<void(std::error_code, const std::string&)> done);
  std::shared_ptr<Connection> sentinel_connection(std::size_t index);
  void switch_to(const std::string& host, int port);
  void watch_switches(std::size_t sentinel);
  void send(std::shared_ptr<const Command> command, Clock::time_point deadline,
            ReplyCallback callback, const SentHook& after_send, ReadSlot* read = nullptr);

  asio::io_context& io_;
  ConnectionOptions base_;
  SentinelConfig config_;
  std::chrono::milliseconds command_timeout_;
  std::chrono::milliseconds subscription_timeout_;
  RefreshSchedule refreshes_;  // every scan_interval, and on request
  ChangeHandler change_handler_;
  std::vector<std::shared_ptr<Connection>> sentinels_;  // I/O thread; opened on first use
  std::shared_ptr<Subscriber> switch_watch_;            // +switch-master, on one sentinel
  bool asking_ = false;                                 // I/O thread
  std::vector<std::function<void()>> refresh_waiters_;  // I/O thread

  mutable std::mutex mutex_;  // guards the two below
  ServerAddress master_;
  std::shared_ptr<Connection> master_connection_;
  bool closed_ = false;
};

}  // namespace redisson::detail
