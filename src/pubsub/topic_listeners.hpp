// The listeners users add to topics (Topic, PatternTopic, ShardedTopic), one registry per
// client (a ClientService): which channel each listens on, and the threads their calls run on.
//
// The I/O thread only copies a message and posts it to the listener's strand of the client's
// listener threads (pubsub/listener_pool.hpp): one listener's messages run in the order the
// server sent them, one at a time, while two listeners run in parallel. Nothing bounds a
// strand's queue: a listener slower than its channel falls behind (at-most-once delivery keeps
// no backlog elsewhere).
//
// add/remove/count run on the I/O thread; the hooks as ClientService says.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "client/client_services.hpp"
#include "pubsub/listener_pool.hpp"
#include "pubsub/pubsub.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/objects/topic.hpp"

namespace redisson::detail {

class TopicListeners : public ClientService, public std::enable_shared_from_this<TopicListeners> {
 public:
  using Ready = UniqueFunction<void(std::error_code, std::uint64_t id)>;

  explicit TopicListeners(ClientCore& core);
  ~TopicListeners() override;

  /// Subscribes `callbacks` to `channel` as `kind`; `on_ready` runs on the I/O thread once the
  /// server confirmed it, with the listener's id (or the error, and nothing stays registered).
  void add(ChannelKind kind, const std::string& channel, TopicCallbacks callbacks, Ready on_ready);
  /// Removes the listener `id`; false when it is not (or no longer) registered. No call of it
  /// starts after this returns (one running may finish).
  bool remove(std::uint64_t id);
  /// Removes every listener of `channel` (as `kind`) this client added through a topic; how many.
  std::int64_t remove_all(ChannelKind kind, const std::string& channel);
  /// The listeners of `channel` (as `kind`) this client added through a topic.
  std::int64_t count(ChannelKind kind, const std::string& channel) const;

  void closing() noexcept override;

 private:
  struct Entry;
  void post(const std::shared_ptr<Entry>& entry, TopicStatus status, std::string channel);
  void post(const std::shared_ptr<Entry>& entry, std::string channel, std::string payload);

  ClientCore& core_;
  ListenerPool& pool_;                                       // made first, so stopped after this
  std::map<std::uint64_t, std::shared_ptr<Entry>> entries_;  // by PubSub listener id
};

/// Adds `callbacks` on `channel` to the client's registry from any thread (posted to the I/O
/// thread); completes with the listener's id once the server confirmed the subscription. What
/// topics, object listeners and MapCache entry listeners all subscribe through.
void start_registry_listen(const std::shared_ptr<ClientCore>& core, ChannelKind kind,
                           std::string channel, TopicCallbacks callbacks, Done<ListenerId> done);

}  // namespace redisson::detail
