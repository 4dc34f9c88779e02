#include "pubsub/subscriber.hpp"

#include <algorithm>

#include "redisson/error.hpp"

namespace redisson::detail {

Subscriber::Subscriber(asio::io_context& io, ConnectionOptions options,
                       std::chrono::milliseconds subscription_timeout, bool sharded)
    : PubSub(sharded ? ChannelKind::sharded : ChannelKind::plain),
      io_(io),
      options_(std::move(options)),
      subscription_timeout_(subscription_timeout),
      linger_timer_(io) {
  options_.subscriber = true;
}

const std::string& Subscriber::lookup_key(ChannelKind kind, std::string_view name) {
  lookup_key_.assign(1, static_cast<char>(kind));
  lookup_key_ += name;
  return lookup_key_;
}

std::string Subscriber::key_of(ChannelKind kind, std::string_view name) {
  std::string key(1, static_cast<char>(kind));
  key += name;
  return key;
}

namespace {
// How many redirections in a row a subscription follows before its waiters are told (about a
// second at RoutedPubSub's pace).
constexpr int kMaxRefusals = 50;

bool is_redirection(std::string_view error) {
  return error.starts_with("MOVED ") || error.starts_with("ASK ");
}

// The subscribe / unsubscribe commands of a channel key's kind (its first letter).
const char* subscriber_verb(char kind, bool subscribe) {
  switch (static_cast<ChannelKind>(kind)) {
    case ChannelKind::pattern:
      return subscribe ? "PSUBSCRIBE" : "PUNSUBSCRIBE";
    case ChannelKind::sharded:
      return subscribe ? "SSUBSCRIBE" : "SUNSUBSCRIBE";
    case ChannelKind::plain:
      break;
  }
  return subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE";
}
}  // namespace

void Subscriber::ensure_connection() {
  if (connection_) return;
  connection_ = std::make_shared<Connection>(io_, options_);
  std::weak_ptr<Subscriber> weak = weak_from_this();
  connection_->set_push_handler([weak](Reply&& push) {
    if (auto self = weak.lock()) self->on_push(std::move(push));
  });
  connection_->set_state_handler([weak](bool ready) {
    if (auto self = weak.lock()) self->on_connection_state(ready);
  });
  // A failed first attempt is retried by the connection; queued SUBSCRIBEs time out meanwhile.
  connection_->start([](std::error_code) {});
}

std::uint64_t Subscriber::listen(ChannelKind kind, const std::string& channel, Listener listener,
                                 ReadyCallback on_ready) {
  if (closed_) {
    if (on_ready) on_ready(make_error_code(errc::shutdown));
    return 0;
  }
  ensure_connection();
  const auto id = next_listener_id_++;
  auto key = key_of(kind, channel);
  auto& entry = channels_[key];
  count_channels();
  entry.listeners.emplace(id, std::make_shared<Listener>(std::move(listener)));
  channel_of_listener_.emplace(id, key);
  if (on_ready) {
    if (entry.confirmed) {
      on_ready({});
    } else {
      entry.ready_waiters.push_back(std::move(on_ready));
    }
  }
  reconcile(key);
  return id;
}

void Subscriber::remove(std::uint64_t id, std::chrono::milliseconds linger) {
  const auto found = channel_of_listener_.find(id);
  if (found == channel_of_listener_.end()) return;
  const std::string key = found->second;
  channel_of_listener_.erase(found);
  if (auto it = channels_.find(key); it != channels_.end()) {
    it->second.listeners.erase(id);
    reconcile(key, linger);
  }
}

bool Subscriber::confirmed(const std::string& channel) const {
  const auto it = channels_.find(key_of(own_kind(), channel));
  return it != channels_.end() && it->second.confirmed && it->second.subscribe_sent;
}

Received Subscriber::received(const std::string& channel) const {
  const auto it = channels_.find(key_of(own_kind(), channel));
  return it == channels_.end() ? Received{} : it->second.received;
}

// Brings the server's view of one channel in line with whether it has listeners. The
// pipeline keeps SUBSCRIBE/UNSUBSCRIBE in order, so only the last one sent matters.
void Subscriber::reconcile(const std::string& key, std::chrono::milliseconds linger) {
  const auto it = channels_.find(key);
  if (it == channels_.end() || closed_) return;
  auto& entry = it->second;
  const bool wanted = !entry.listeners.empty();
  if (wanted && !entry.subscribe_sent) {
    entry.subscribe_sent = true;
    entry.confirmed = false;
    const auto generation = ++entry.generation;
    std::weak_ptr<Subscriber> weak = weak_from_this();
    connection_->submit(Command{subscriber_verb(key[0], true), std::string_view(key).substr(1)},
                        Clock::now() + subscription_timeout_,
                        [weak, key, generation](std::error_code ec, const Reply& reply) {
                          if (auto self = weak.lock())
                            self->on_subscribe_reply(key, generation, ec, reply.str);
                        });
  } else if (wanted) {
    entry.unsubscribe_at = {};
  } else if (entry.subscribe_sent) {
    if (linger.count() > 0) {
      entry.unsubscribe_at = Clock::now() + linger;
      arm_linger_timer(entry.unsubscribe_at);
    } else {
      unsubscribe(key);
    }
  } else {
    channels_.erase(it);
    count_channels();
  }
}

void Subscriber::unsubscribe(const std::string& key) {
  auto& entry = channels_[key];
  entry.subscribe_sent = false;
  entry.confirmed = false;
  entry.unsubscribe_at = {};
  ++entry.generation;
  std::weak_ptr<Subscriber> weak = weak_from_this();
  connection_->submit(Command{subscriber_verb(key[0], false), std::string_view(key).substr(1)},
                      Clock::now() + subscription_timeout_,
                      [weak, key](std::error_code, const Reply&) {
                        auto self = weak.lock();
                        if (!self) return;
                        const auto again = self->channels_.find(key);
                        if (again != self->channels_.end() && again->second.listeners.empty() &&
                            !again->second.subscribe_sent) {
                          self->channels_.erase(again);
                          self->count_channels();
                        }
                      });
}

// One timer for every lingering channel, armed for the earliest of them.
void Subscriber::arm_linger_timer(Clock::time_point when) {
  if (when >= linger_timer_at_) return;
  linger_timer_at_ = when;
  linger_timer_.expires_at(when);
  std::weak_ptr<Subscriber> weak = weak_from_this();
  linger_timer_.async_wait([weak](std::error_code ec) {
    if (ec) return;  // re-armed earlier, or closed
    if (auto self = weak.lock()) self->on_linger_timer();
  });
}

void Subscriber::on_linger_timer() {
  linger_timer_at_ = Clock::time_point::max();
  if (closed_) return;
  const auto now = Clock::now();
  auto next = Clock::time_point::max();
  std::vector<std::string> expired;
  for (const auto& [name, entry] : channels_) {
    if (!entry.listeners.empty() || !entry.subscribe_sent ||
        entry.unsubscribe_at == Clock::time_point{}) {
      continue;
    }
    if (entry.unsubscribe_at <= now) {
      expired.push_back(name);
    } else {
      next = std::min(next, entry.unsubscribe_at);
    }
  }
  for (const auto& name : expired) unsubscribe(name);
  if (next != Clock::time_point::max()) arm_linger_timer(next);
}

void Subscriber::on_subscribe_reply(const std::string& key, std::uint64_t generation,
                                    std::error_code ec, std::string_view error) {
  const auto it = channels_.find(key);
  if (it == channels_.end() || it->second.generation != generation) return;
  auto& entry = it->second;
  // A broken connection re-subscribes on its own (on_connection_state); waiters keep waiting.
  if (ec == errc::connection_lost) return;
  std::vector<std::shared_ptr<Listener>> to_notify;
  if (ec) {
    entry.subscribe_sent = false;  // the next reconcile or reconnect sends it again
    // A node that no longer serves the slot (a failover or a migration the client has not
    // learnt yet) answers MOVED: the handler finds the slot's master and subscribes there.
    // Whoever waits for the confirmation keeps waiting for that one, unless the nodes keep
    // refusing (kMaxRefusals: a slot no node serves).
    if (ec == errc::server_error && dropped_handler_ && is_redirection(error) &&
        entry.refusals < kMaxRefusals) {
      ++entry.refusals;
      return dropped_handler_(key.substr(1));
    }
  } else {
    entry.refusals = 0;
    entry.confirmed = true;
    if (std::exchange(entry.resubscribing, false)) {
      for (auto& [id, listener] : entry.listeners) to_notify.push_back(listener);
    }
  }
  auto waiters = std::move(entry.ready_waiters);
  entry.ready_waiters.clear();
  for (auto& waiter : waiters) waiter(ec);
  for (auto& listener : to_notify) {
    if (listener->on_resubscribed) listener->on_resubscribed();
  }
}

void Subscriber::on_connection_state(bool ready) {
  if (ready || closed_) return;
  // Queue the SUBSCRIBEs again now: they go out first thing after the reconnect.
  std::vector<std::string> names;
  std::vector<std::shared_ptr<Listener>> interrupted;
  for (auto& [name, entry] : channels_) {
    names.push_back(name);
    for (auto& [id, listener] : entry.listeners) interrupted.push_back(listener);
  }
  for (const auto& name : names) {
    auto& entry = channels_[name];
    if (entry.confirmed) entry.resubscribing = true;
    entry.subscribe_sent = false;
    entry.confirmed = false;
    ++entry.generation;
    reconcile(name);
  }
  for (auto& listener : interrupted) {
    if (listener->on_interrupted) listener->on_interrupted();
  }
}

void Subscriber::resubscribe(ChannelKind kind, const std::string& channel) {
  const auto key = key_of(kind, channel);
  const auto it = channels_.find(key);
  if (it == channels_.end() || it->second.subscribe_sent || closed_) return;
  reconcile(key);
}

// The server unsubscribed us from a sharded channel by itself: its slot now belongs to another
// shard (a migration) or the shard's master changed (a failover).
void Subscriber::on_dropped(const std::string& key) {
  const auto it = channels_.find(key);
  if (it == channels_.end() || !it->second.subscribe_sent) return;
  auto& entry = it->second;
  if (entry.confirmed) entry.resubscribing = true;
  entry.subscribe_sent = false;
  entry.confirmed = false;
  ++entry.generation;
  if (dropped_handler_) return dropped_handler_(key.substr(1));
  reconcile(key);
}

void Subscriber::on_push(Reply&& push) {
  // message / smessage: [kind, channel, payload]; pmessage: [kind, pattern, channel, payload]
  if (push.elements.size() < 3) return;
  const std::string_view kind = push.elements[0].str;
  const auto& first = push.elements[1].str;
  if (kind == "message") {
    return deliver(lookup_key(ChannelKind::plain, first), first, push.elements[2].str);
  }
  if (kind == "smessage") {
    return deliver(lookup_key(ChannelKind::sharded, first), first, push.elements[2].str);
  }
  if (kind == "pmessage" && push.elements.size() >= 4) {
    return deliver(lookup_key(ChannelKind::pattern, first), push.elements[2].str,
                   push.elements[3].str);
  }
  if (kind == "sunsubscribe") on_dropped(key_of(ChannelKind::sharded, first));
}

void Subscriber::deliver(const std::string& key, std::string_view channel,
                         std::string_view payload) {
  const auto it = channels_.find(key);
  if (it == channels_.end()) return;
  ++it->second.received.messages;
  it->second.received.last = Clock::now();
  // Copy first: a listener may remove itself (or others) while being called.
  std::vector<std::shared_ptr<Listener>> listeners;
  listeners.reserve(it->second.listeners.size());
  for (auto& [id, listener] : it->second.listeners) listeners.push_back(listener);
  for (auto& listener : listeners) {
    if (listener->on_message) listener->on_message(channel, payload);
  }
}

void Subscriber::close() {
  if (closed_) return;
  closed_ = true;
  std::vector<ReadyCallback> waiters;
  for (auto& [name, entry] : channels_) {
    for (auto& waiter : entry.ready_waiters) waiters.push_back(std::move(waiter));
  }
  channels_.clear();
  count_channels();
  channel_of_listener_.clear();
  linger_timer_.cancel();
  if (connection_) connection_->close();
  for (auto& waiter : waiters) waiter(make_error_code(errc::shutdown));
}

}  // namespace redisson::detail
