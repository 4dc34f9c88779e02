// Redis Cluster routing: a slot map from CLUSTER SHARDS (CLUSTER SLOTS on servers without it),
// one pipelined Connection per master (opened on first use), each command sent to the master of
// its key's slot.
//
// Redirections: MOVED updates that slot's owner at once, refreshes the whole map in the
// background and resends; ASK sends ASKING + the command to the named node (once per ASK). At
// most kMaxRedirects per command, then the last error is returned with a note. TRYAGAIN and
// CLUSTERDOWN (the command did not run) are retried every 100 ms until the command's deadline. The
// map is refreshed every scan_interval and whenever a master connection is lost, so a promoted
// replica takes over its slots without a MOVED round trip. While a slot-serving master is
// unreachable the map is asked again every 500 ms; once it shows the master's slots served
// elsewhere, commands still queued unsent for it (the crash case: no node answers MOVED) move to
// the new owner. Commands it had already been sent fail with connection_lost: they may have run.
//
// Cost: one map lookup under a mutex per command and a copy of the command (kept for resending).
#pragma once

#include <array>
#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "topology/refresh_schedule.hpp"
#include "topology/router.hpp"
#include "topology/slot_map.hpp"

namespace redisson::detail {

class ClusterRouter : public Router, public std::enable_shared_from_this<ClusterRouter> {
 public:
  static constexpr int kMaxRedirects = 5;

  /// `base` gives the login, client name and timeouts every node connection uses.
  ClusterRouter(asio::io_context& io, ConnectionOptions base, ClusterConfig config,
                std::chrono::milliseconds command_timeout);

  void start(StartCallback done) override;
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
              SentHook after_send = nullptr, ReadSlot* read = nullptr) override;
  std::vector<ServerAddress> masters() const override;
  void submit_to(const ServerAddress& node, const Command& command, Clock::time_point deadline,
                 ReplyCallback callback) override;
  std::shared_ptr<Connection> connection_for(std::optional<std::string_view> key) override;
  ServerAddress pubsub_node(std::string_view channel) const override;
  bool sharded_pubsub() const override { return sharded_; }
  void set_change_handler(ChangeHandler handler) override { change_handler_ = std::move(handler); }
  bool connected() const override;
  void close() override;

  /// Asks for a fresh slot map now (coalesced with one already under way), then runs `done`.
  void refresh(std::function<void()> done) override;
  void refresh_asking(const ServerAddress& first, std::function<void()> done) override;
  /// The master serving `slot` as "host:port" (empty when unknown): for tests.
  std::string owner_of(int slot) const;

 private:
  struct Request;
  struct Node {
    ClusterNodeAddress address;
    std::shared_ptr<Connection> connection;  // opened on first use
  };

  int node_index_locked(const ClusterNodeAddress& address);
  /// `node` with base_'s login, for callers outside the router.
  ServerAddress server_address(const ClusterNodeAddress& node) const;
  std::shared_ptr<Connection> connection_locked(int node);
  std::shared_ptr<Connection> connection_for_slot(int slot);
  void send(const std::shared_ptr<Request>& request, std::shared_ptr<Connection> connection,
            bool asking, ReadSlot* read = nullptr);
  void on_reply(const std::shared_ptr<Request>& request, const ClusterNodeAddress& from,
                std::error_code ec, Reply reply);
  void query_map(std::vector<ClusterNodeAddress> candidates, std::size_t next, bool use_slots,
                 const std::string& last_error);
  void on_map(SlotMap map);
  void finish_refresh(std::error_code ec, const std::string& detail);
  bool serving_master_down() const;

  asio::io_context& io_;
  ConnectionOptions base_;
  ClusterConfig config_;
  std::chrono::milliseconds command_timeout_;
  RefreshSchedule refreshes_;      // every scan_interval, and on request
  asio::steady_timer down_timer_;  // quick refreshes while a master is unreachable
  ChangeHandler change_handler_;
  StartCallback on_started_;
  bool sharded_ = false;
  bool refreshing_ = false;                                  // I/O thread
  std::optional<ClusterNodeAddress> ask_first_;              // I/O thread: the next refresh's
  bool refresh_again_ = false;                               // I/O thread
  bool down_refresh_armed_ = false;                          // I/O thread
  std::vector<std::function<void()>> refresh_waiters_;       // for the refresh under way
  std::vector<std::function<void()>> next_refresh_waiters_;  // for the one after it
  std::vector<ClusterNodeAddress> notified_owners_;  // per slot, as last announced (I/O thread)

  mutable std::mutex mutex_;  // guards everything below
  std::vector<Node> nodes_;
  std::array<std::int16_t, kClusterSlots> owner_{};
  std::vector<int> master_nodes_;  // indexes into nodes_ of the masters in the last map
  bool closed_ = false;
};

}  // namespace redisson::detail
