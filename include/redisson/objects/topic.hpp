// redisson::Topic, PatternTopic and ShardedTopic: Java Redisson's RTopic, RPatternTopic and
// RShardedTopic. Publish/subscribe on Redis channels with messages encoded by a codec, so a C++
// and a Java service share one channel.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/listener.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

class Batch;

/// What a topic's status listener hears about its subscription (Redisson's StatusListener).
enum class TopicStatus {
  subscribed,    ///< the server confirmed the subscription (once, after add_status_listener)
  interrupted,   ///< the subscriber connection broke: what is published now is not delivered
  resubscribed,  ///< subscribed again after a reconnect or a failover: re-check what you missed
};

namespace detail {

/// How a topic subscribes: SUBSCRIBE, PSUBSCRIBE or SSUBSCRIBE.
enum class TopicKind : char { plain = 'c', pattern = 'p', sharded = 's' };

/// A listener's calls as the library sees them (bytes, not yet decoded). Each runs on the
/// listener's strand of the client's listener threads (Config::listener_threads).
struct TopicCallbacks {
  std::function<void(std::string_view channel, std::string_view payload)> on_message;
  std::function<void(TopicStatus status, std::string_view channel)> on_status;
  /// When set, runs on the I/O thread first: a message it refuses is dropped there, not posted
  /// (an object listener's filter on a keyevent channel that every key of the server shares).
  /// It must be quick and must not throw.
  std::function<bool(std::string_view payload)> accept = nullptr;
  /// When set, every message is handled by it on the I/O thread as it arrives, and on_message
  /// and accept are not used: for the library's own channels (a near cache's invalidations, a
  /// scheduler's wake-up), which must not wait behind user listeners on the listener threads.
  /// It must be quick and must not throw.
  std::function<void(std::string_view payload)> on_io_message = nullptr;
};

/// The .cpp side of the topics (src/objects/topic.cpp). `topic`: the name is the channel (or
/// the pattern).
void start_topic_listen(const ObjectPtr& topic, TopicKind kind, TopicCallbacks callbacks,
                        Done<ListenerId> done);
void start_topic_remove(const ObjectPtr& topic, ListenerId id, Done<bool> done);
void start_topic_remove_all(const ObjectPtr& topic, TopicKind kind, Done<std::int64_t> done);
void start_topic_count_listeners(const ObjectPtr& topic, TopicKind kind, Done<std::int64_t> done);

/// What the three topics share: a name, a codec, the client, and listeners of Ts.
template <JavaValue T, TopicKind Kind>
class BasicTopic {
 public:
  /// Called with the channel a message was published to (a pattern topic's: the channel that
  /// matched) and the message.
  using MessageListener = std::function<void(std::string_view channel, T message)>;
  /// Called with what happened to the subscription of `channel`.
  using StatusListener = std::function<void(TopicStatus status, std::string_view channel)>;

  /// The channel (or the pattern).
  const std::string& name() const noexcept { return state_->name; }
  /// The codec messages are encoded with.
  const Codec& codec() const noexcept { return *state_->codec; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_add_listener(MessageListener listener, CompletionToken&& token);
  template <class CompletionToken>
  auto async_add_status_listener(StatusListener listener, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_listener(ListenerId id, CompletionToken&& token);
  template <class CompletionToken>
  auto async_remove_all_listeners(CompletionToken&& token);
  template <class CompletionToken>
  auto async_count_listeners(CompletionToken&& token) const;

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds a listener and returns once the server confirmed the subscription (SUBSCRIBE,
  /// PSUBSCRIBE or SSUBSCRIBE with the first listener of the channel on this client): from then
  /// on every message published reaches it, except while the connection is down (a status
  /// listener hears of that). It runs on the client's listener threads, never on the I/O
  /// thread; one listener's messages arrive in order, one call at a time. A message that does
  /// not decode as a T is skipped (Redisson's listener class filter); one the codec cannot read
  /// at all, and an exception the listener throws, go to Config::error_handler.
  ListenerId add_listener(MessageListener listener) {
    return async_add_listener(std::move(listener), detail::blocking("add_listener", name()));
  }
  /// Adds a listener of the subscription's status (it subscribes the channel too, and counts in
  /// count_listeners()).
  ListenerId add_status_listener(StatusListener listener) {
    return async_add_status_listener(std::move(listener),
                                     detail::blocking("add_status_listener", name()));
  }
  /// Removes a listener (any topic's of this client); the last one of a channel unsubscribes.
  /// No call of it starts after this returns. False when `id` is not registered.
  bool remove_listener(ListenerId id) {
    return async_remove_listener(id, detail::blocking("remove_listener", name()));
  }
  /// Removes every listener this client added to this channel (or pattern); how many.
  std::int64_t remove_all_listeners() {
    return async_remove_all_listeners(detail::blocking("remove_all_listeners", name()));
  }
  /// The listeners this client has on this channel (or pattern), status listeners included.
  /// Local: sends nothing.
  std::int64_t count_listeners() const {
    return async_count_listeners(detail::blocking("count_listeners", name()));
  }

 protected:
  friend class redisson::Batch;  // binds a topic to itself (Batch::get): publish is queued
  BasicTopic(const Client& client, std::string name, CodecPtr codec, const char* kind)
      : state_(detail::make_object(client, std::move(name), std::move(codec), kind)) {}

  detail::ObjectPtr state_;
};

/// A topic that publishes: Topic (PUBLISH) and ShardedTopic (SPUBLISH).
template <JavaValue T, TopicKind Kind>
class PublishingTopic : public BasicTopic<T, Kind> {
 public:
  // ---- asynchronous forms ------------------------------------------------------------------
  template <class CompletionToken>
  auto async_publish(const T& message, CompletionToken&& token);
  template <class CompletionToken>
  auto async_count_subscribers(CompletionToken&& token) const;

  // ---- blocking forms ----------------------------------------------------------------------
  /// Publishes the codec's bytes of `message`; how many subscribers received it (on a Cluster,
  /// a sharded topic's count is its shard's, a plain topic's the node's that got the PUBLISH).
  std::int64_t publish(const T& message) {
    return async_publish(message, detail::blocking("publish", this->name()));
  }
  /// How many subscribers the channel has on the server, of every client (PUBSUB NUMSUB, or
  /// PUBSUB SHARDNUMSUB for a sharded topic, on the node of the channel's slot).
  std::int64_t count_subscribers() const {
    return async_count_subscribers(detail::blocking("count_subscribers", this->name()));
  }
  /// The channel, as Redisson's getChannelNames.
  std::vector<std::string> channel_names() const { return {this->name()}; }

 protected:
  using BasicTopic<T, Kind>::BasicTopic;
};

}  // namespace detail

/// Publish/subscribe on the channel `name` (Java Redisson's RTopic): PUBLISH and SUBSCRIBE.
/// Delivery is at most once: a message published while a subscriber's connection is down is
/// lost for it (a status listener hears `interrupted`, then `resubscribed`). For delivery that
/// survives a disconnection, use a stream (Stream) or Redisson's reliable topic.
///
/// A handle: cheap to copy, sends nothing until called, thread-safe. Listeners belong to the
/// client, not the handle: they stay until removed (or the client shuts down). On a Cluster the
/// channel is subscribed on the master of its slot (as Redisson does) and moves with it.
template <JavaValue T = Value>
class Topic : public detail::PublishingTopic<T, detail::TopicKind::plain> {
 public:
  /// The topic `name` of `client`, messages encoded with `codec` (null: the client's default).
  Topic(const Client& client, std::string name, CodecPtr codec = nullptr)
      : detail::PublishingTopic<T, detail::TopicKind::plain>(client, std::move(name),
                                                             std::move(codec), "Topic") {}
};

/// A sharded topic (Java Redisson's RShardedTopic, Redis 7): SPUBLISH and SSUBSCRIBE, on the
/// master of the channel's slot on a Cluster (so its messages stay within one shard), and on
/// the one server otherwise, as Redisson does. A plain subscriber (SUBSCRIBE, PSUBSCRIBE) never
/// hears it. Delivery as Topic's.
template <JavaValue T = Value>
class ShardedTopic : public detail::PublishingTopic<T, detail::TopicKind::sharded> {
 public:
  ShardedTopic(const Client& client, std::string name, CodecPtr codec = nullptr)
      : detail::PublishingTopic<T, detail::TopicKind::sharded>(client, std::move(name),
                                                               std::move(codec), "ShardedTopic") {}
};

/// The channels matching a glob-style pattern (Java Redisson's RPatternTopic): PSUBSCRIBE; a
/// listener hears every PUBLISH to a matching channel, with that channel's name. It publishes
/// nothing (publish on a Topic of the channel). On a Cluster the pattern is subscribed on the
/// master of its own slot (PUBLISH reaches every node), except a keyspace or keyevent pattern
/// (`__keyspace...`, `__keyevent...`): those notifications are node-local, so it is subscribed
/// on every master, as a Topic on such a channel is.
template <JavaValue T = Value>
class PatternTopic : public detail::BasicTopic<T, detail::TopicKind::pattern> {
 public:
  PatternTopic(const Client& client, std::string pattern, CodecPtr codec = nullptr)
      : detail::BasicTopic<T, detail::TopicKind::pattern>(client, std::move(pattern),
                                                          std::move(codec), "PatternTopic") {}

  template <class CompletionToken>
  auto async_active_topics(CompletionToken&& token) const;

  /// The pattern, as Redisson's getPatternNames.
  std::vector<std::string> pattern_names() const { return {this->name()}; }
  /// The channels matching the pattern that have subscribers now (PUBSUB CHANNELS pattern, on
  /// the node of the pattern's slot), as Redisson's getActiveTopics.
  std::vector<std::string> active_topics() const {
    return async_active_topics(detail::blocking("active_topics", this->name()));
  }
};

}  // namespace redisson

#include "redisson/objects/impl/topic.hpp"
