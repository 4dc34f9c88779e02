#include "pubsub/routed_pubsub.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "net/node_key.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

namespace {
// The least time between two refreshes for dropped or refused channels (see the header).
constexpr std::chrono::milliseconds kRefusedGap{20};
}  // namespace

RoutedPubSub::RoutedPubSub(asio::io_context& io, ConnectionOptions base,
                           std::chrono::milliseconds subscription_timeout, bool sharded,
                           NodeOf node_of, Masters masters, Refresh refresh)
    : PubSub(sharded ? ChannelKind::sharded : ChannelKind::plain),
      io_(io),
      base_(std::move(base)),
      subscription_timeout_(subscription_timeout),
      node_of_(std::move(node_of)),
      masters_(std::move(masters)),
      refresh_(std::move(refresh)),
      drop_timer_(io) {}

bool RoutedPubSub::node_local(std::string_view channel) noexcept {
  // Redisson's ChannelName.isKeyspace, with the same prefixes.
  for (const std::string_view prefix :
       {"__keyspace", "__keyevent", "__subkeyspace", "__subkeyevent"}) {
    if (channel.starts_with(prefix)) return true;
  }
  return false;
}

std::vector<ServerAddress> RoutedPubSub::nodes_for(const Entry& entry) const {
  if (entry.kind != ChannelKind::sharded && node_local(entry.channel)) {
    auto masters = masters_();
    if (!masters.empty()) return masters;
  }
  return {node_of_(entry.channel)};
}

std::shared_ptr<Subscriber> RoutedPubSub::subscriber_for(const ServerAddress& address) {
  const auto key = node_key(address);
  auto& subscriber = subscribers_[key];
  if (!subscriber) {
    auto options = base_;
    options.server = address;
    subscriber = std::make_shared<Subscriber>(io_, options, subscription_timeout_,
                                              own_kind() == ChannelKind::sharded);
    subscriber->set_dropped_handler([weak = weak_from_this(), address](const std::string&) {
      if (auto self = weak.lock()) self->on_dropped(address);
    });
  }
  return subscriber;
}

// Puts `entry` on the subscriber of `address` too. Each first placement's confirmation counts
// towards the caller's on_ready; a later one (after a move) is a resubscription.
void RoutedPubSub::attach(std::uint64_t id, const ServerAddress& address) {
  auto& entry = entries_.at(id);
  const auto generation = ++entry.generation;
  const auto node = node_key(address);
  entry.placements[node] = Placement{0, generation, false};
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
      [weak = weak_from_this(), id, node, generation](std::error_code ec) {
        if (auto self = weak.lock()) self->confirm(id, node, generation, ec);
      });
  if (const auto it = entries_.find(id); it != entries_.end()) {
    const auto placement = it->second.placements.find(node);
    if (placement != it->second.placements.end() && placement->second.generation == generation) {
      placement->second.inner_id = inner_id;
    }
  }
}

void RoutedPubSub::confirm(std::uint64_t id, const std::string& node, std::uint64_t generation,
                           std::error_code ec) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  auto& entry = it->second;
  const auto placement = entry.placements.find(node);
  if (placement == entry.placements.end() || placement->second.generation != generation) return;
  const bool first = !placement->second.confirmed;
  placement->second.confirmed = true;
  if (entry.on_ready) {
    if (ec) return std::exchange(entry.on_ready, nullptr)(ec);
    if (first && entry.unconfirmed > 0) --entry.unconfirmed;
    if (entry.unconfirmed == 0) std::exchange(entry.on_ready, nullptr)(ec);
    return;
  }
  const auto listener = entry.listener;
  if (!ec && listener->on_resubscribed) {
    listener->on_resubscribed();
  } else if (ec && listener->on_interrupted) {
    listener->on_interrupted();  // a waiter re-checks instead of sleeping on a dead channel
  }
}

void RoutedPubSub::detach(Entry& entry, const std::string& node) {
  const auto placement = entry.placements.find(node);
  if (placement == entry.placements.end()) return;
  if (const auto sub = subscribers_.find(node); sub != subscribers_.end()) {
    sub->second->remove(placement->second.inner_id);
  }
  // A placement gone before it confirmed no longer holds up the caller.
  if (!placement->second.confirmed && entry.unconfirmed > 0) --entry.unconfirmed;
  entry.placements.erase(placement);
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
  const auto nodes = nodes_for(entry);
  entry.unconfirmed = nodes.size();
  for (const auto& node : nodes) {
    if (!entries_.contains(id)) break;  // removed by its own on_ready (a failed first node)
    attach(id, node);
  }
  return id;
}

void RoutedPubSub::remove(std::uint64_t id, std::chrono::milliseconds linger) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  for (const auto& [node, placement] : it->second.placements) {
    if (const auto sub = subscribers_.find(node); sub != subscribers_.end()) {
      sub->second->remove(placement.inner_id, linger);
    }
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
    // attach() may run a caller's on_ready, which may add or remove entries (and so move them
    // in entries_): every step looks the entry up again.
    const auto first = entries_.find(id);
    if (first == entries_.end()) continue;  // removed by a listener meanwhile
    const auto addresses = nodes_for(first->second);
    std::vector<std::string> wanted;
    for (const auto& address : addresses) {
      const auto it = entries_.find(id);
      if (it == entries_.end()) break;
      const auto node = node_key(address);
      wanted.push_back(node);
      if (it->second.placements.contains(node)) {
        subscribers_.at(node)->resubscribe(it->second.kind, it->second.channel);
        continue;
      }
      // Subscribe on the new node before leaving the old one, so no window has neither.
      if (it->second.on_ready) ++it->second.unconfirmed;
      attach(id, address);
    }
    const auto it = entries_.find(id);
    if (it == entries_.end()) continue;
    auto& entry = it->second;
    std::vector<std::string> gone;
    for (const auto& [node, placement] : entry.placements) {
      if (std::find(wanted.begin(), wanted.end(), node) == wanted.end()) gone.push_back(node);
    }
    for (const auto& node : gone) detach(entry, node);
    // The first placements left before confirming: the ones kept have all confirmed.
    if (entry.on_ready && entry.unconfirmed == 0 && !gone.empty()) {
      std::exchange(entry.on_ready, nullptr)(std::error_code{});
    }
  }
  close_idle_subscribers();
}

void RoutedPubSub::on_dropped(const ServerAddress& from) {
  if (reroute_pending_ || closed_) return;
  reroute_pending_ = true;
  // Learn where the slot went first; reroute() then moves or resubscribes every dropped channel.
  const auto start = [weak = weak_from_this(), from] {
    auto self = weak.lock();
    if (!self || self->closed_) return;
    self->refresh_(from, [weak] {
      if (auto again = weak.lock()) again->reroute();
    });
  };
  const auto now = Clock::now();
  const auto at = std::max(now, next_drop_refresh_);
  next_drop_refresh_ = at + kRefusedGap;
  if (at == now) return start();
  drop_timer_.expires_at(at);
  drop_timer_.async_wait([start](std::error_code ec) {
    if (!ec) start();
  });
}

void RoutedPubSub::close_idle_subscribers() {
  for (auto it = subscribers_.begin(); it != subscribers_.end();) {
    bool used = false;
    for (const auto& [id, entry] : entries_) used = used || entry.placements.contains(it->first);
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
  drop_timer_.cancel();
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
