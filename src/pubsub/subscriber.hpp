// Pub/sub for one server: one subscriber connection, many channels multiplexed on it (plain,
// pattern and sharded alike), reference-counted listeners per channel. The library's own channels
// are sharded on a cluster node whose lock channels are (SSUBSCRIBE), plain otherwise.
//
// Every method runs on the I/O thread. After a reconnect every channel that still has
// listeners is subscribed again and each listener's on_resubscribed runs, because messages
// published while the connection was down are lost: a waiter must re-check its condition.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "net/connection.hpp"
#include "pubsub/pubsub.hpp"

namespace redisson::detail {

class Subscriber : public PubSub, public std::enable_shared_from_this<Subscriber> {
 public:
  /// Told about a sharded channel the server dropped by itself (its slot left this node), or
  /// refused with a redirection (MOVED, ASK: the slot is not this node's; up to kMaxRefusals in
  /// a row, while whoever waits for the confirmation keeps waiting).
  using DroppedHandler = std::function<void(const std::string& channel)>;

  /// `sharded`: the library's own channels are sharded (a cluster node whose lock channels are).
  Subscriber(asio::io_context& io, ConnectionOptions options,
             std::chrono::milliseconds subscription_timeout, bool sharded = false);

  std::uint64_t listen(ChannelKind kind, const std::string& channel, Listener listener,
                       ReadyCallback on_ready) override;
  /// Removes a listener; the last one of a channel unsubscribes, at once or, with `linger`,
  /// when the channel has had no listener for that long (a lock waited on again soon after then
  /// costs no SUBSCRIBE/UNSUBSCRIBE pair). Unknown ids are ignored.
  void remove(std::uint64_t id, std::chrono::milliseconds linger = {}) override;
  /// True when `channel` is subscribed and confirmed now: a listener added now misses nothing
  /// published from this moment on.
  bool confirmed(const std::string& channel) const override;
  Received received(const std::string& channel) const override;
  bool quiet() const override { return channel_count_.load(std::memory_order_relaxed) == 0; }
  void close() override;

  /// Without a handler a dropped channel is subscribed again on this node at once; with one,
  /// the handler decides (and calls resubscribe() if the channel stays here).
  void set_dropped_handler(DroppedHandler handler) { dropped_handler_ = std::move(handler); }
  /// Subscribes `channel` again if it has listeners but no subscription (after a drop).
  void resubscribe(ChannelKind kind, const std::string& channel);

  std::size_t channel_count() const { return channels_.size(); }

 private:
  struct Channel {
    std::map<std::uint64_t, std::shared_ptr<Listener>> listeners;
    std::vector<ReadyCallback> ready_waiters;
    bool subscribe_sent = false;  // the last command sent for it was SUBSCRIBE
    bool confirmed = false;
    bool resubscribing = false;
    int refusals = 0;  // redirections in a row (on_subscribe_reply)
    std::uint64_t generation = 0;
    Received received;                   // since subscribed (received())
    Clock::time_point unsubscribe_at{};  // lingering (no listeners): when to let it go
  };

  // channels_ is keyed by the kind's letter followed by the name ("cname", "ppattern*"): a
  // channel and a pattern of the same text are two subscriptions.
  static std::string key_of(ChannelKind kind, std::string_view name);
  // key_of() into a buffer kept for it: a message's lookup allocates nothing (lock channel
  // names are longer than a short string holds).
  const std::string& lookup_key(ChannelKind kind, std::string_view name);
  std::string lookup_key_;
  void ensure_connection();
  void reconcile(const std::string& key, std::chrono::milliseconds linger = {});
  void unsubscribe(const std::string& key);
  void arm_linger_timer(Clock::time_point when);
  void on_linger_timer();
  void on_subscribe_reply(const std::string& key, std::uint64_t generation, std::error_code ec,
                          std::string_view error);
  void on_push(Reply&& push);
  void deliver(const std::string& key, std::string_view channel, std::string_view payload);
  void on_dropped(const std::string& key);
  void on_connection_state(bool ready);

  asio::io_context& io_;
  ConnectionOptions options_;
  std::chrono::milliseconds subscription_timeout_;
  std::shared_ptr<Connection> connection_;
  asio::steady_timer linger_timer_;
  Clock::time_point linger_timer_at_ = Clock::time_point::max();
  std::unordered_map<std::string, Channel> channels_;
  std::atomic<std::size_t> channel_count_{0};  // channels_.size(), for quiet() on other threads
  void count_channels() { channel_count_.store(channels_.size(), std::memory_order_relaxed); }
  std::unordered_map<std::uint64_t, std::string> channel_of_listener_;
  std::uint64_t next_listener_id_ = 1;
  DroppedHandler dropped_handler_;
  bool closed_ = false;
};

}  // namespace redisson::detail
