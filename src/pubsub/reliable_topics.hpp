// The reliable topics' subscribers of one client (a ClientService): for each topic this client
// listens to, one subscriber (a consumer group of the topic's stream, Redisson's layout) whose
// poll loop (pubsub/reliable_poll.hpp) runs on the I/O thread, and the listeners it delivers to.
//
// Each listener has a strand of the client's listener threads (pubsub/listener_pool.hpp), as a
// topic's does. A batch of entries read is handed to every listener; the loop acknowledges it
// and reads on once every listener returned, so a listener is never more than one batch
// (kReadCount entries) behind the stream and what it did not finish is delivered again after a
// crash. The watchdog renews the subscriber's deadline every third of
// Config::reliable_topic_watchdog_timeout while it has listeners.
//
// add/remove/count run on the I/O thread; the hooks as ClientService says.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <system_error>

#include "client/client_services.hpp"
#include "pubsub/listener_pool.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/objects/topic.hpp"

namespace redisson::detail {

class ReliableTopics : public ClientService, public std::enable_shared_from_this<ReliableTopics> {
 public:
  /// Entries one XREADGROUP (and one pending read) hands out at most.
  static constexpr int kReadCount = 100;

  using Ready = UniqueFunction<void(std::error_code, std::uint64_t id)>;
  using Removed = UniqueFunction<void(std::error_code, bool removed)>;
  using RemovedAll = UniqueFunction<void(std::error_code, std::int64_t removed)>;

  explicit ReliableTopics(ClientCore& core);
  ~ReliableTopics() override;

  /// Adds a listener of the reliable topic `topic` as the subscriber `subscriber` (empty: this
  /// client's own, a new random id). `on_ready` runs once the subscriber is registered, with
  /// the listener's id (or the error, and nothing stays registered).
  void add(const std::string& topic, const std::string& subscriber, TopicCallbacks callbacks,
           Ready on_ready);
  /// Removes the listener `id`; the topic's last listener removes its subscriber from the
  /// server (its group and deadline) before `done` runs. False: no such listener.
  void remove(std::uint64_t id, Removed done);
  /// Removes every listener of `topic` (and its subscribers); how many.
  void remove_all(const std::string& topic, RemovedAll done);
  /// The listeners this client has on `topic`.
  std::int64_t count(const std::string& topic) const;
  /// The subscriber ids this client has on `topic` (tests, tools).
  std::vector<std::string> subscribers(const std::string& topic) const;

  /// The loops stop; a delivery under way is acknowledged once its listeners return (waiting at
  /// most kDrainWait). Subscribers stay registered until their deadline, so that a client made
  /// again with the same subscriber id goes on where this one stopped.
  void shutdown_started(bool can_wait) noexcept override;
  void closing() noexcept override;

  static constexpr std::chrono::milliseconds kDrainWait{2000};

 private:
  class Subscription;
  struct ListenerEntry;

  ClientCore& core_;
  ListenerPool& pool_;  // made first, so stopped after this
  std::uint64_t next_id_ = 1;
  std::map<std::string, std::shared_ptr<Subscription>> subscriptions_;  // topic '\0' subscriber
  std::map<std::uint64_t, std::shared_ptr<Subscription>> by_listener_;
};

}  // namespace redisson::detail
