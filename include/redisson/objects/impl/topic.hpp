// The bodies of the topics' templates (objects/topic.hpp).
#pragma once

#include <optional>

#include "redisson/objects/topic.hpp"

namespace redisson::detail {

/// The count of a PUBSUB NUMSUB / SHARDNUMSUB reply: [channel, count].
std::int64_t reply_numsub(const Reply& reply);

/// A listener of Ts as the library calls it: decodes the payload with `codec` and skips a
/// message that is not a T (Redisson's listener class filter). Runs on the listener's strand.
/// Only the codec is captured: the listener lives in the client, and holding the client from
/// there would keep it alive.
template <JavaValue T>
TopicCallbacks decoding_callbacks(
    CodecPtr codec, std::function<void(std::string_view channel, T message)> listener) {
  TopicCallbacks callbacks;
  callbacks.on_message = [codec = std::move(codec), listener = std::move(listener)](
                             std::string_view channel, std::string_view payload) {
    const Value value = codec->decode(payload);  // unreadable bytes: reported by the caller
    std::optional<T> message;
    try {
      message.emplace(from_value<T>(value));
    } catch (const error&) {
      return;  // not a T: skipped
    }
    listener(channel, std::move(*message));
  };
  return callbacks;
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto BasicTopic<T, Kind>::async_add_listener(MessageListener listener, CompletionToken&& token) {
  auto callbacks = decoding_callbacks<T>(state_->codec, std::move(listener));
  return async_op<ListenerId>(
      state_->core, token,
      [state = state_, callbacks = std::move(callbacks)](Done<ListenerId> done) mutable {
        start_topic_listen(state, Kind, std::move(callbacks), std::move(done));
      });
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto BasicTopic<T, Kind>::async_add_status_listener(StatusListener listener,
                                                    CompletionToken&& token) {
  return async_op<ListenerId>(
      state_->core, token,
      [state = state_, listener = std::move(listener)](Done<ListenerId> done) mutable {
        start_topic_listen(state, Kind, TopicCallbacks{nullptr, std::move(listener)},
                           std::move(done));
      });
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto BasicTopic<T, Kind>::async_remove_listener(ListenerId id, CompletionToken&& token) {
  return async_op<bool>(state_->core, token, [state = state_, id](Done<bool> done) {
    start_topic_remove(state, id, std::move(done));
  });
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto BasicTopic<T, Kind>::async_remove_all_listeners(CompletionToken&& token) {
  return async_op<std::int64_t>(state_->core, token, [state = state_](Done<std::int64_t> done) {
    start_topic_remove_all(state, Kind, std::move(done));
  });
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto BasicTopic<T, Kind>::async_count_listeners(CompletionToken&& token) const {
  return async_op<std::int64_t>(state_->core, token, [state = state_](Done<std::int64_t> done) {
    start_topic_count_listeners(state, Kind, std::move(done));
  });
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto PublishingTopic<T, Kind>::async_publish(const T& message, CompletionToken&& token) {
  const auto& state = this->state_;
  return async_command<std::int64_t>(
      state, token,
      [&] {
        Command command{Kind == TopicKind::sharded ? "SPUBLISH" : "PUBLISH", state->name};
        command.arg(state->codec->encode(to_value(message)));
        return command;
      },
      &reply_integer);
}

template <JavaValue T, TopicKind Kind>
template <class CompletionToken>
auto PublishingTopic<T, Kind>::async_count_subscribers(CompletionToken&& token) const {
  const auto& state = this->state_;
  // Routed by the channel: the node of its slot is where subscribers subscribe on a Cluster.
  return async_command<std::int64_t>(
      state, token,
      [&] {
        return Command{"PUBSUB", Kind == TopicKind::sharded ? "SHARDNUMSUB" : "NUMSUB"}.key(
            state->name);
      },
      &reply_numsub);
}

}  // namespace redisson::detail

namespace redisson {

template <JavaValue T>
template <class CompletionToken>
auto PatternTopic<T>::async_active_topics(CompletionToken&& token) const {
  const auto& state = this->state_;
  return detail::async_command<std::vector<std::string>>(
      state, token,
      [&] {
        return Command{"PUBSUB", "CHANNELS"}.key(state->name);
      },
      &detail::reply_strings);
}

}  // namespace redisson
