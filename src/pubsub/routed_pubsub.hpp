// Pub/sub on a deployment with several nodes (Cluster, Sentinel): one Subscriber per node, each
// channel on the node `node_of(channel)` names (the master of the channel's slot, or the current
// master). When the topology changes, reroute() moves every channel whose node changed: it
// subscribes on the new node and, once confirmed, tells each listener on_resubscribed (messages
// may have been lost in between, so waiters re-check).
//
// A sharded channel the server drops by itself (its slot moved), or refuses with a redirection,
// is moved the same way after the topology has been refreshed, asking the node that dropped or
// refused it first: it knows where the slot went, while the other nodes may not have heard yet
// (a map from one of them would put the channel back on the old master, now a replica, which
// accepts the subscription but hears nothing until the new master counts it as its replica).
// Refreshes for refusals come at most every kRefusedGap, so that two nodes that disagree for a
// while cost a few refreshes, not a loop.
//
// Keyspace and keyevent notifications (`__keyspace@...`, `__keyevent@...`, as channels or
// patterns) are node-local: each node publishes its own keys' events to its own subscribers
// only. Such a channel is subscribed on every master (as Redisson does), and follows the set of
// masters as it changes. Every method runs on the I/O thread.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "pubsub/pubsub.hpp"
#include "pubsub/subscriber.hpp"

namespace redisson::detail {

class RoutedPubSub : public PubSub, public std::enable_shared_from_this<RoutedPubSub> {
 public:
  using NodeOf = std::function<ServerAddress(std::string_view channel)>;
  /// Every master now (for the node-local channels).
  using Masters = std::function<std::vector<ServerAddress>()>;
  /// Refreshes the topology, asking `first` first, then calls `done` (whether or not anything
  /// changed).
  using Refresh = std::function<void(const ServerAddress& first, std::function<void()> done)>;

  /// `base`: login and timeouts for every subscriber connection (the server is replaced).
  RoutedPubSub(asio::io_context& io, ConnectionOptions base,
               std::chrono::milliseconds subscription_timeout, bool sharded, NodeOf node_of,
               Masters masters, Refresh refresh);

  /// A keyspace or keyevent channel or pattern: published on each node for its own keys.
  static bool node_local(std::string_view channel) noexcept;

  std::uint64_t listen(ChannelKind kind, const std::string& channel, Listener listener,
                       ReadyCallback on_ready) override;
  void remove(std::uint64_t id, std::chrono::milliseconds linger = {}) override;
  bool confirmed(const std::string& channel) const override;
  Received received(const std::string& channel) const override;
  /// Never quiet: its subscribers come and go with the topology (on the I/O thread), so a
  /// caller on another thread cannot ask them.
  bool quiet() const override { return false; }
  void close() override;

  /// Moves every channel whose node changed; subscribes dropped channels again.
  void reroute();
  /// Subscriber connections currently open (for tests).
  std::size_t node_count() const { return subscribers_.size(); }

 private:
  // Where an entry is subscribed: one node, or every master for a node-local channel.
  struct Placement {
    std::uint64_t inner_id = 0;
    std::uint64_t generation = 0;  // stale confirmations (of a placement since removed) ignored
    bool confirmed = false;
  };
  struct Entry {
    ChannelKind kind = ChannelKind::plain;
    std::string channel;  // a pattern's text: on the node of its slot, where PUBLISH reaches too
    std::map<std::string, Placement> placements;  // by node_key() of the subscriber
    std::uint64_t generation = 0;                 // bumps on every new placement
    std::shared_ptr<Listener> listener;
    ReadyCallback on_ready;       // until every first placement confirmed (or one failed)
    std::size_t unconfirmed = 0;  // placements on_ready still waits for
  };

  std::vector<ServerAddress> nodes_for(const Entry& entry) const;
  std::shared_ptr<Subscriber> subscriber_for(const ServerAddress& address);
  void attach(std::uint64_t id, const ServerAddress& address);
  void confirm(std::uint64_t id, const std::string& node, std::uint64_t generation,
               std::error_code ec);
  // Leaves one placement (the entry stays).
  void detach(Entry& entry, const std::string& node);
  // A sharded channel dropped or refused by `from`.
  void on_dropped(const ServerAddress& from);
  void close_idle_subscribers();

  asio::io_context& io_;
  ConnectionOptions base_;
  std::chrono::milliseconds subscription_timeout_;
  NodeOf node_of_;
  Masters masters_;
  Refresh refresh_;
  std::map<std::string, std::shared_ptr<Subscriber>> subscribers_;  // by node_key
  std::unordered_map<std::uint64_t, Entry> entries_;
  std::uint64_t next_id_ = 1;
  bool reroute_pending_ = false;
  asio::steady_timer drop_timer_;  // holds a refresh back until next_drop_refresh_
  Clock::time_point next_drop_refresh_{};
  bool closed_ = false;
};

}  // namespace redisson::detail
