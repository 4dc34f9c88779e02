#include "pubsub/routed_pubsub.hpp"

#include <vector>

#include "net/node_key.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

RoutedPubSub::RoutedPubSub(asio::io_context& io, ConnectionOptions base,
                           std::chrono::milliseconds subscription_timeout, bool sharded,
                           NodeOf node_of, Refresh refresh)
    : PubSub(sharded ? ChannelKind::sharded : ChannelKind::plain),
      io_(io),
      base_(std::move(base)),
      subscription_timeout_(subscription_timeout),
      node_of_(std::move(node_of)),
      refresh_(std::move(refresh)) {}

std::shared_ptr<Subscriber> RoutedPubSub::subscriber_for(const ServerAddress& address) {
  const auto key = node_key(address);
  auto& subscriber = subscribers_[key];
  if (!subscriber) {
    auto options = base_;
    options.server = address;
    subscriber = std::make_shared<Subscriber>(io_, options, subscription_timeout_,
                                              own_kind() == ChannelKind::sharded);
    subscriber->set_dropped_handler([weak = weak_from_this()](const std::string& channel) {
      if (auto self = weak.lock()) self->on_dropped(channel);
    });
  }
  return subscriber;
}

// Puts `entry` on the subscriber of `address`. Its first confirmation completes the caller's
// on_ready; a later one (after a move) is a resubscription.
void RoutedPubSub::attach(std::uint64_t id, const ServerAddress& address) {
  auto& entry = entries_.at(id);
  const auto generation = ++entry.generation;
  entry.node = node_key(address);
  const auto listener = entry.listener;
  Listener inner{[listener](std::string_view channel, std::string_view payload) {
                   if (listener->on_message) listener->on_message(channel, payload);
                 },
                 [listener] {
                   if (listener->on_resubscribed) listener->on_resubscribed();
                 },
                 [listener] {
                   if (listener->on_interrupted) listener->on_interrupted();
                 }};
  const auto channel = entry.channel;
  const auto kind = entry.kind;
  // listen() may confirm at once and run the caller's on_ready, which may add or remove entries:
  // look `entry` up again afterwards instead of holding on to it.
  const auto inner_id = subscriber_for(address)->listen(
      kind, channel, std::move(inner),
      [weak = weak_from_this(), id, generation](std::error_code ec) {
        auto self = weak.lock();
        if (!self) return;
        const auto it = self->entries_.find(id);
        if (it == self->entries_.end() || it->second.generation != generation) return;
        auto& moved = it->second;
        if (moved.on_ready) return std::exchange(moved.on_ready, nullptr)(ec);
        const auto listener = moved.listener;
        if (!ec && listener->on_resubscribed) {
          listener->on_resubscribed();
        } else if (ec && listener->on_interrupted) {
          listener->on_interrupted();  // a waiter re-checks instead of sleeping on a dead channel
        }
      });
  if (const auto it = entries_.find(id);
      it != entries_.end() && it->second.generation == generation) {
    it->second.inner_id = inner_id;
  }
}

std::uint64_t RoutedPubSub::listen(ChannelKind kind, const std::string& channel, Listener listener,
                                   ReadyCallback on_ready) {
  if (closed_) {
    if (on_ready) on_ready(make_error_code(errc::shutdown));
    return 0;
  }
  const auto id = next_id_++;
  auto& entry = entries_[id];
  entry.kind = kind;
  entry.channel = channel;
  entry.listener = std::make_shared<Listener>(std::move(listener));
  // A null on_ready still needs a marker so a later move counts as a resubscription.
  entry.on_ready = on_ready ? std::move(on_ready) : ReadyCallback([](std::error_code) {});
  attach(id, node_of_(channel));
  return id;
}

void RoutedPubSub::remove(std::uint64_t id, std::chrono::milliseconds linger) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  if (const auto sub = subscribers_.find(it->second.node); sub != subscribers_.end()) {
    sub->second->remove(it->second.inner_id, linger);
  }
  entries_.erase(it);
}

bool RoutedPubSub::confirmed(const std::string& channel) const {
  const auto it = subscribers_.find(node_key(node_of_(channel)));
  return it != subscribers_.end() && it->second->confirmed(channel);
}

Received RoutedPubSub::received(const std::string& channel) const {
  const auto it = subscribers_.find(node_key(node_of_(channel)));
  return it == subscribers_.end() ? Received{} : it->second->received(channel);
}

void RoutedPubSub::reroute() {
  if (closed_) return;
  reroute_pending_ = false;
  std::vector<std::uint64_t> ids;
  for (const auto& [id, entry] : entries_) ids.push_back(id);
  for (const auto id : ids) {
    const auto it = entries_.find(id);
    if (it == entries_.end()) continue;  // removed by a listener meanwhile
    const auto address = node_of_(it->second.channel);
    const auto old_node = it->second.node;
    const auto old_id = it->second.inner_id;
    if (node_key(address) == old_node) {
      subscribers_.at(old_node)->resubscribe(it->second.kind, it->second.channel);
      continue;
    }
    // Subscribe on the new node before leaving the old one, so no window has neither.
    attach(id, address);
    subscribers_.at(old_node)->remove(old_id);
  }
  close_idle_subscribers();
}

void RoutedPubSub::on_dropped(const std::string& channel) {
  (void)channel;
  if (reroute_pending_ || closed_) return;
  reroute_pending_ = true;
  // Learn where the slot went first; reroute() then moves or resubscribes every dropped channel.
  refresh_([weak = weak_from_this()] {
    if (auto self = weak.lock()) self->reroute();
  });
}

void RoutedPubSub::close_idle_subscribers() {
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    bool used = false;
    for (const auto& [id, entry] : entries_) used = used || entry.node == it->first;
    if (!used && it->second->channel_count() == 0) {
      it->second->close();
      it = subscribers_.erase(it);
    } else {
      ++it;
    }
  }
}

void RoutedPubSub::close() {
  if (closed_) return;
  closed_ = true;
  std::vector<ReadyCallback> waiters;
  for (auto& [id, entry] : entries_) {
    if (entry.on_ready) waiters.push_back(std::move(entry.on_ready));
  }
  entries_.clear();
  for (auto& [key, subscriber] : subscribers_) subscriber->close();
  subscribers_.clear();
  for (auto& waiter : waiters) waiter(make_error_code(errc::shutdown));
}

}  // namespace redisson::detail
