#include "pubsub/topic_listeners.hpp"

#include <asio/post.hpp>
#include <utility>

#include "client/client_core.hpp"

namespace redisson::detail {

struct TopicListeners::Entry {
  Entry(ListenerPool::Strand strand, ChannelKind kind, std::string channel,
        TopicCallbacks callbacks)
      : strand(std::move(strand)),
        kind(kind),
        channel(std::move(channel)),
        callbacks(std::move(callbacks)) {}

  ListenerPool::Strand strand;
  ChannelKind kind;
  std::string channel;  // as subscribed (a pattern's text)
  TopicCallbacks callbacks;
  // Cleared on remove (I/O thread), read on the strand: no call starts after a remove.
  std::atomic<bool> active{true};
};

TopicListeners::TopicListeners(ClientCore& core)
    : core_(core), pool_(core.service<ListenerPool>()) {}

TopicListeners::~TopicListeners() = default;

void TopicListeners::add(ChannelKind kind, const std::string& channel, TopicCallbacks callbacks,
                         Ready on_ready) {
  auto entry = std::make_shared<Entry>(pool_.strand(), kind, channel, std::move(callbacks));
  std::weak_ptr<TopicListeners> weak = weak_from_this();
  Listener listener;
  if (entry->callbacks.on_io_message) {
    listener.on_message = [entry](std::string_view, std::string_view payload) {
      if (entry->active.load(std::memory_order_acquire)) entry->callbacks.on_io_message(payload);
    };
  } else if (entry->callbacks.on_message) {
    listener.on_message = [weak, entry](std::string_view from, std::string_view payload) {
      if (entry->callbacks.accept && !entry->callbacks.accept(payload)) return;
      if (auto self = weak.lock()) self->post(entry, std::string(from), std::string(payload));
    };
  }
  if (entry->callbacks.on_status) {
    listener.on_interrupted = [weak, entry] {
      if (auto self = weak.lock()) self->post(entry, TopicStatus::interrupted, entry->channel);
    };
    listener.on_resubscribed = [weak, entry] {
      if (auto self = weak.lock()) self->post(entry, TopicStatus::resubscribed, entry->channel);
    };
  }
  auto ready = std::make_shared<Ready>(std::move(on_ready));
  core_.subscriber().listen_with_id(
      kind, channel, std::move(listener),
      [weak, entry, ready](std::error_code ec, std::uint64_t id) {
        auto self = weak.lock();
        if (!ec && self) {
          self->entries_.emplace(id, entry);
          if (entry->callbacks.on_status)
            self->post(entry, TopicStatus::subscribed, entry->channel);
        } else if (self && id != 0) {
          self->core_.subscriber().remove(id);  // a failed subscription leaves nothing behind
        }
        (*ready)(ec, ec ? 0 : id);
      });
}

bool TopicListeners::remove(std::uint64_t id) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return false;
  it->second->active.store(false, std::memory_order_release);
  entries_.erase(it);
  core_.subscriber().remove(id);
  return true;
}

std::int64_t TopicListeners::remove_all(ChannelKind kind, const std::string& channel) {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, entry] : entries_) {
    if (entry->kind == kind && entry->channel == channel) ids.push_back(id);
  }
  for (const auto id : ids) remove(id);
  return static_cast<std::int64_t>(ids.size());
}

std::int64_t TopicListeners::count(ChannelKind kind, const std::string& channel) const {
  std::int64_t count = 0;
  for (const auto& [id, entry] : entries_) {
    if (entry->kind == kind && entry->channel == channel) ++count;
  }
  return count;
}

void TopicListeners::post(const std::shared_ptr<Entry>& entry, std::string channel,
                          std::string payload) {
  const Config* config = &core_.config();
  asio::post(entry->strand,
             [entry, config, channel = std::move(channel), payload = std::move(payload)] {
               if (!entry->active.load(std::memory_order_acquire)) return;
               ListenerPool::run(*config, "topic", entry->channel,
                                 [&] { entry->callbacks.on_message(channel, payload); });
             });
}

void TopicListeners::post(const std::shared_ptr<Entry>& entry, TopicStatus status,
                          std::string channel) {
  const Config* config = &core_.config();
  asio::post(entry->strand, [entry, config, status, channel = std::move(channel)] {
    if (!entry->active.load(std::memory_order_acquire)) return;
    ListenerPool::run(*config, "topic", entry->channel,
                      [&] { entry->callbacks.on_status(status, channel); });
  });
}

void TopicListeners::closing() noexcept {
  for (auto& [id, entry] : entries_) entry->active.store(false, std::memory_order_release);
  entries_.clear();
}

}  // namespace redisson::detail
