// Pub/sub for one server: one subscriber connection, many channels multiplexed on it,
// reference-counted listeners per channel.
//
// Every method runs on the I/O thread. After a reconnect every channel that still has
// listeners is subscribed again and each listener's on_resubscribed runs, because messages
// published while the connection was down are lost: a waiter must re-check its condition.
#pragma once

#include <asio/io_context.hpp>
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

namespace redisson::detail {

struct Listener {
  std::function<void(std::string_view payload)> on_message;
  /// After a reconnect restored the subscription (messages may have been missed meanwhile).
  std::function<void()> on_resubscribed;
  /// When the subscriber connection broke (no message can arrive until it is restored).
  std::function<void()> on_interrupted;
};

class Subscriber : public std::enable_shared_from_this<Subscriber> {
 public:
  using ReadyCallback = std::function<void(std::error_code)>;

  Subscriber(asio::io_context& io, ConnectionOptions options,
             std::chrono::milliseconds subscription_timeout);

  /// Adds a listener to `channel` (subscribing if it is the first). `on_ready` runs once the
  /// server confirmed the subscription (at once if it already had), or with an error at the
  /// subscription timeout. Returns an id for remove().
  std::uint64_t add(const std::string& channel, Listener listener, ReadyCallback on_ready);
  /// Removes a listener; the last one of a channel unsubscribes. Unknown ids are ignored.
  void remove(std::uint64_t id);
  void close();

  std::size_t channel_count() const { return channels_.size(); }

 private:
  struct Channel {
    std::map<std::uint64_t, std::shared_ptr<Listener>> listeners;
    std::vector<ReadyCallback> ready_waiters;
    bool subscribe_sent = false;  // the last command sent for it was SUBSCRIBE
    bool confirmed = false;
    bool resubscribing = false;
    std::uint64_t generation = 0;
  };

  void ensure_connection();
  void reconcile(const std::string& name);
  void on_subscribe_reply(const std::string& name, std::uint64_t generation, std::error_code ec);
  void on_push(Reply&& push);
  void on_connection_state(bool ready);

  asio::io_context& io_;
  ConnectionOptions options_;
  std::chrono::milliseconds subscription_timeout_;
  std::shared_ptr<Connection> connection_;
  std::unordered_map<std::string, Channel> channels_;
  std::unordered_map<std::uint64_t, std::string> channel_of_listener_;
  std::uint64_t next_listener_id_ = 1;
  bool closed_ = false;
};

}  // namespace redisson::detail
