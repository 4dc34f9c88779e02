#include "pubsub/topic_listeners.hpp"

#include <asio/post.hpp>
#include <exception>
#include <utility>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

struct TopicListeners::Entry {
  Entry(asio::io_context& pool, ChannelKind kind, std::string channel, TopicCallbacks callbacks)
      : strand(asio::make_strand(pool)),
        kind(kind),
        channel(std::move(channel)),
        callbacks(std::move(callbacks)) {}

  asio::strand<asio::io_context::executor_type> strand;
  ChannelKind kind;
  std::string channel;  // as subscribed (a pattern's text)
  TopicCallbacks callbacks;
  // Cleared on remove (I/O thread), read on the strand: no call starts after a remove.
  std::atomic<bool> active{true};
};

TopicListeners::TopicListeners(ClientCore& core) : core_(core) {}

TopicListeners::~TopicListeners() { stopped(); }

void TopicListeners::start_threads() {
  if (io_) return;
  io_ = std::make_shared<asio::io_context>();
  work_ = std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(
      io_->get_executor());
  for (int i = 0; i < core_.config().listener_threads; ++i) {
    threads_.emplace_back([io = io_] { io->run(); });
  }
}

void TopicListeners::add(ChannelKind kind, const std::string& channel, TopicCallbacks callbacks,
                         Ready on_ready) {
  start_threads();
  auto entry = std::make_shared<Entry>(*io_, kind, channel, std::move(callbacks));
  std::weak_ptr<TopicListeners> weak = weak_from_this();
  Listener listener;
  if (entry->callbacks.on_message) {
    listener.on_message = [weak, entry](std::string_view from, std::string_view payload) {
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

namespace {
// Runs one call of a listener: what it throws goes to the error handler, never into the pool.
template <class Call>
void call_listener(const Config& config, const std::string& channel, Call&& call) noexcept {
  try {
    call();
  } catch (const error& failure) {
    report_failure(config, error(errc::listener_failed,
                                 "topic '" + channel + "': " + std::string(failure.what())));
  } catch (const std::exception& failure) {
    report_failure(config, error(errc::listener_failed,
                                 "topic '" + channel + "': listener threw: " + failure.what()));
  } catch (...) {
    report_failure(config, error(errc::listener_failed,
                                 "topic '" + channel + "': listener threw a non-exception"));
  }
}
}  // namespace

void TopicListeners::post(const std::shared_ptr<Entry>& entry, std::string channel,
                          std::string payload) {
  const Config* config = &core_.config();
  asio::post(entry->strand, [entry, config, channel = std::move(channel),
                             payload = std::move(payload)] {
    if (!entry->active.load(std::memory_order_acquire)) return;
    call_listener(*config, entry->channel, [&] { entry->callbacks.on_message(channel, payload); });
  });
}

void TopicListeners::post(const std::shared_ptr<Entry>& entry, TopicStatus status,
                          std::string channel) {
  const Config* config = &core_.config();
  asio::post(entry->strand, [entry, config, status, channel = std::move(channel)] {
    if (!entry->active.load(std::memory_order_acquire)) return;
    call_listener(*config, entry->channel, [&] { entry->callbacks.on_status(status, channel); });
  });
}

void TopicListeners::closing() noexcept {
  for (auto& [id, entry] : entries_) entry->active.store(false, std::memory_order_release);
  entries_.clear();
}

// Every I/O thread has ended, so nothing posts any more: the pool finishes the calls that run
// and stops. A listener that shut the client down runs on a pool thread, which cannot join
// itself: it is detached and ends when the listener returns (it shares the io_context).
void TopicListeners::stopped() noexcept {
  if (!io_) return;
  work_.reset();
  io_->stop();
  for (auto& thread : threads_) {
    if (thread.get_id() == std::this_thread::get_id()) {
      thread.detach();
    } else if (thread.joinable()) {
      thread.join();
    }
  }
  threads_.clear();
}

}  // namespace redisson::detail
