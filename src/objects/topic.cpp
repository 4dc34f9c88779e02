// The topics' operations on listeners: each runs on the I/O thread, where the client's
// registry of topic listeners (pubsub/topic_listeners.hpp) and its subscriber live.
#include "redisson/objects/topic.hpp"

#include <asio/post.hpp>

#include "client/client_core.hpp"
#include "pubsub/topic_listeners.hpp"
#include "redisson/detail/object_listen.hpp"

namespace redisson::detail {

namespace {
ChannelKind channel_kind(TopicKind kind) {
  switch (kind) {
    case TopicKind::pattern:
      return ChannelKind::pattern;
    case TopicKind::sharded:
      return ChannelKind::sharded;
    case TopicKind::plain:
      break;
  }
  return ChannelKind::plain;
}

// Runs `work(listeners)` on the I/O thread; `done` fails with errc::shutdown once the client is
// shutting down (work posted then may never run).
template <class R, class Work>
void on_topic_listeners(const ObjectPtr& topic, Done<R> done, Work work) {
  const auto& core = topic->core;
  if (topic->batch) return fail<R>(done, batch_refusal("a topic's listeners"));
  if (core->stopping()) return fail<R>(done, Status(errc::shutdown));
  asio::post(core->io(), [core, done = std::move(done), work = std::move(work)]() mutable {
    work(core->service<TopicListeners>(), done);
  });
}
}  // namespace

void start_topic_listen(const ObjectPtr& topic, TopicKind kind, TopicCallbacks callbacks,
                        Done<ListenerId> done) {
  if (topic->batch) return fail<ListenerId>(done, batch_refusal("a topic's listeners"));
  start_registry_listen(topic->core, channel_kind(kind), topic->name, std::move(callbacks),
                        std::move(done));
}

void start_registry_listen(const std::shared_ptr<ClientCore>& core, ChannelKind kind,
                           std::string channel, TopicCallbacks callbacks, Done<ListenerId> done) {
  if (core->stopping()) return fail<ListenerId>(done, Status(errc::shutdown));
  asio::post(core->io(), [core, kind, channel = std::move(channel),
                          callbacks = std::move(callbacks), done = std::move(done)]() mutable {
    core->service<TopicListeners>().add(
        kind, channel, std::move(callbacks),
        [done = std::move(done)](std::error_code ec, std::uint64_t id) mutable { done(ec, id); });
  });
}

void start_listener_remove(const std::shared_ptr<ClientCore>& core, ListenerId id,
                           Done<bool> done) {
  if (core->stopping()) return fail<bool>(done, Status(errc::shutdown));
  asio::post(core->io(), [core, id, done = std::move(done)]() mutable {
    done(Status{}, core->service<TopicListeners>().remove(id));
  });
}

void start_topic_remove(const ObjectPtr& topic, ListenerId id, Done<bool> done) {
  if (topic->batch) return fail<bool>(done, batch_refusal("a topic's listeners"));
  start_listener_remove(topic->core, id, std::move(done));
}

void start_topic_remove_all(const ObjectPtr& topic, TopicKind kind, Done<std::int64_t> done) {
  on_topic_listeners<std::int64_t>(
      topic, std::move(done),
      [name = topic->name, kind](TopicListeners& listeners, Done<std::int64_t>& done) {
        done(Status{}, listeners.remove_all(channel_kind(kind), name));
      });
}

void start_topic_count_listeners(const ObjectPtr& topic, TopicKind kind, Done<std::int64_t> done) {
  on_topic_listeners<std::int64_t>(
      topic, std::move(done),
      [name = topic->name, kind](TopicListeners& listeners, Done<std::int64_t>& done) {
        done(Status{}, listeners.count(channel_kind(kind), name));
      });
}

std::int64_t reply_numsub(const Reply& reply) {
  // [channel, count]
  if (!reply.is_aggregate() || reply.elements.size() < 2 || !reply.elements[1].is_integer()) {
    throw_unexpected_reply("[channel, count]", reply);
  }
  return reply.elements[1].integer;
}

}  // namespace redisson::detail
