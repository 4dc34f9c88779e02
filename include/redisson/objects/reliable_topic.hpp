// redisson::ReliableTopic: Java Redisson's RReliableTopic. A topic kept in a Redis stream, so a
// subscriber that was away gets what was published meanwhile, in order, and Java and C++
// subscribers share one topic.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "redisson/codec.hpp"
#include "redisson/detail/object_op.hpp"
#include "redisson/objects/topic.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

namespace detail {
/// The .cpp side (src/objects/reliable_topic.cpp). `subscriber` empty: the client's own.
void start_reliable_listen(const ObjectPtr& topic, const std::string& subscriber,
                           TopicCallbacks callbacks, Done<ListenerId> done);
void start_reliable_remove(const ObjectPtr& topic, ListenerId id, Done<bool> done);
void start_reliable_remove_all(const ObjectPtr& topic, Done<std::int64_t> done);
void start_reliable_count_listeners(const ObjectPtr& topic, Done<std::int64_t> done);
void start_reliable_publish(const ObjectPtr& topic, const std::string& payload, Done<Reply>& done);
void start_reliable_count_subscribers(const ObjectPtr& topic, Done<Reply>& done);
}  // namespace detail

/// A topic kept in the stream `name` (Java Redisson's RReliableTopic, same keys and bytes):
/// publish adds an entry (field `m`, the codec's bytes); each subscribing client is a consumer
/// group of the stream, registered with a deadline in the zset `{name}:timeout`.
///
/// Delivery is at least once, in order. A subscriber that is disconnected, or whose process
/// restarts with the same subscriber id (as_subscriber), gets what was published meanwhile
/// once it is back, provided it is back within Config::reliable_topic_watchdog_timeout (10
/// minutes by default; its client renews its deadline while it runs). Within one run of a
/// client nothing is delivered twice; an entry delivered and not yet acknowledged when the
/// process died is delivered again to the restarted subscriber. Each client's subscriber
/// trims the stream to what the slowest live subscriber has not read, so the stream holds
/// only the backlog.
///
/// A new subscriber starts at the beginning of what the stream holds (as Redisson's does): it
/// may get messages a slower subscriber has not read yet, published before it subscribed.
///
/// Cost: publish is one script (XADD, XINFO GROUPS). A client's subscriber of a topic holds one
/// of its blocking connections (Config::blocking_connections) while it has listeners, waiting
/// with XREADGROUP; each batch it reads (up to 100 entries) is acknowledged, and the stream
/// trimmed, in one round trip once every listener returned.
///
/// A handle: cheap to copy, sends nothing until called, thread-safe. Listeners belong to the
/// client, not the handle: they stay until removed (or the client shuts down, which leaves the
/// subscriber registered until its deadline, so that a restart with the same id goes on).
template <JavaValue T = Value>
class ReliableTopic {
 public:
  /// Called with the topic's name and the message.
  using MessageListener = std::function<void(std::string_view topic, T message)>;

  /// The reliable topic `name` of `client`, messages encoded with `codec` (null: the client's
  /// default).
  ReliableTopic(const Client& client, std::string name, CodecPtr codec = nullptr)
      : state_(detail::make_object(client, std::move(name), std::move(codec), "ReliableTopic")) {}

  /// The same topic, whose listeners subscribe as `subscriber_id` (a consumer group name of the
  /// stream), not as the client's own random id: a process that
  /// restarts with the same id goes on after the last message it acknowledged. Two clients
  /// must not use one id at once (they would share its messages, each getting some).
  ReliableTopic as_subscriber(const std::string& subscriber_id) const {
    ReliableTopic copy = *this;
    copy.subscriber_ = subscriber_id;
    return copy;
  }

  const std::string& name() const noexcept { return state_->name; }
  const Codec& codec() const noexcept { return *state_->codec; }
  /// The subscriber id set by as_subscriber() (empty: the client's own).
  const std::string& subscriber_id() const noexcept { return subscriber_; }

  // ---- asynchronous forms: complete through any Asio completion token --------------------
  template <class CompletionToken>
  auto async_publish(const T& message, CompletionToken&& token) {
    return detail::async_started<std::int64_t>(
        state_, token,
        [payload = state_->codec->encode(to_value(message))](const detail::ObjectPtr& object,
                                                             detail::Done<Reply>& done) mutable {
          detail::start_reliable_publish(object, payload, done);
        },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_add_listener(MessageListener listener, CompletionToken&& token) {
    auto callbacks = detail::decoding_callbacks<T>(state_->codec, std::move(listener));
    return detail::async_op<ListenerId>(
        state_->core, token,
        [state = state_, subscriber = subscriber_,
         callbacks = std::move(callbacks)](detail::Done<ListenerId> done) mutable {
          detail::start_reliable_listen(state, subscriber, std::move(callbacks), std::move(done));
        });
  }
  template <class CompletionToken>
  auto async_remove_listener(ListenerId id, CompletionToken&& token) {
    return detail::async_op<bool>(state_->core, token, [state = state_, id](auto done) {
      detail::start_reliable_remove(state, id, std::move(done));
    });
  }
  template <class CompletionToken>
  auto async_remove_all_listeners(CompletionToken&& token) {
    return detail::async_op<std::int64_t>(state_->core, token, [state = state_](auto done) {
      detail::start_reliable_remove_all(state, std::move(done));
    });
  }
  template <class CompletionToken>
  auto async_count_listeners(CompletionToken&& token) const {
    return detail::async_op<std::int64_t>(state_->core, token, [state = state_](auto done) {
      detail::start_reliable_count_listeners(state, std::move(done));
    });
  }
  template <class CompletionToken>
  auto async_count_subscribers(CompletionToken&& token) const {
    return detail::async_started<std::int64_t>(
        state_, token,
        [](const detail::ObjectPtr& object, detail::Done<Reply>& done) {
          detail::start_reliable_count_subscribers(object, done);
        },
        &detail::reply_integer);
  }
  template <class CompletionToken>
  auto async_size(CompletionToken&& token) const {
    return detail::async_command<std::int64_t>(
        state_, token, [&] { return Command{"XLEN"}.key(state_->name); }, &detail::reply_integer);
  }

  // ---- blocking forms: wait for the async form; throw redisson::error ---------------------
  /// Adds `message` to the stream; how many subscribers it was added for (the stream's groups).
  std::int64_t publish(const T& message) {
    return async_publish(message, detail::blocking("publish", name()));
  }
  /// Adds a listener; returns once the subscriber is registered (with the first listener of
  /// the topic on this client: its group made, its deadline set). Its calls run on the client's
  /// listener threads, never on the I/O thread, in order, one at a time; a message that does
  /// not decode as a T is skipped (Redisson's class filter), one the codec cannot read at all
  /// and an exception the listener throws go to Config::error_handler (the message counts as
  /// delivered). Listeners of one client's subscriber get each batch together: the next is
  /// read once all of them returned.
  ListenerId add_listener(MessageListener listener) {
    return async_add_listener(std::move(listener), detail::blocking("add_listener", name()));
  }
  /// Removes a listener; the topic's last one on this client removes its subscriber from the
  /// server (its group and deadline). No call of it starts after this returns. False when `id`
  /// is not a listener of a reliable topic of this client.
  bool remove_listener(ListenerId id) {
    return async_remove_listener(id, detail::blocking("remove_listener", name()));
  }
  /// Removes every listener this client has on the topic, and its subscribers; how many.
  std::int64_t remove_all_listeners() {
    return async_remove_all_listeners(detail::blocking("remove_all_listeners", name()));
  }
  /// The listeners this client has on the topic. Local: sends nothing.
  std::int64_t count_listeners() const {
    return async_count_listeners(detail::blocking("count_listeners", name()));
  }
  /// The subscribers registered on the server, of every client (the stream's consumer groups;
  /// 0 when the stream does not exist).
  std::int64_t count_subscribers() const {
    return async_count_subscribers(detail::blocking("count_subscribers", name()));
  }
  /// The messages the stream holds (XLEN): those some subscriber has not read yet.
  std::int64_t size() const { return async_size(detail::blocking("size", name())); }

 private:
  friend class Batch;  // binds it to itself (Batch::get)
  detail::ObjectPtr state_;
  std::string subscriber_;
};

}  // namespace redisson
