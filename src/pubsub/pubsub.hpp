// Pub/sub as the rest of the library sees it: listeners on channels, whatever the deployment.
// A single server uses one Subscriber directly; Cluster and Sentinel use a RoutedPubSub that
// keeps a Subscriber per node and moves channels when the topology changes.
//
// Every method runs on the I/O thread, except quiet().
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>

namespace redisson::detail {

/// What a channel has received on its connection since it was subscribed (with or without
/// listeners): how many messages, and when the last one came.
struct Received {
  std::uint64_t messages = 0;
  std::chrono::steady_clock::time_point last{};
};

struct Listener {
  std::function<void(std::string_view payload)> on_message;
  /// After the subscription was restored (a reconnect, or a move to another node); messages
  /// may have been missed meanwhile, so a waiter must re-check its condition.
  std::function<void()> on_resubscribed;
  /// When the subscriber connection broke (no message can arrive until it is restored).
  std::function<void()> on_interrupted;
};

class PubSub {
 public:
  using ReadyCallback = std::function<void(std::error_code)>;

  virtual ~PubSub() = default;

  /// Adds a listener to `channel` (subscribing if it is the first). `on_ready` runs once the
  /// server confirmed the subscription (at once if it already had), or with an error at the
  /// subscription timeout. Returns an id for remove().
  virtual std::uint64_t add(const std::string& channel, Listener listener,
                            ReadyCallback on_ready) = 0;
  /// Removes a listener; the last one of a channel unsubscribes, at once or, with `linger`,
  /// when the channel has had no listener for that long. Unknown ids are ignored.
  virtual void remove(std::uint64_t id, std::chrono::milliseconds linger = {}) = 0;
  /// True when `channel` is subscribed and confirmed now: a listener added now misses nothing
  /// published from this moment on.
  virtual bool confirmed(const std::string& channel) const = 0;
  /// What `channel` has received (nothing when not subscribed): whether any message arrived
  /// between two moments, or since one.
  virtual Received received(const std::string& channel) const = 0;
  /// True when no channel is subscribed, being subscribed or lingering, so confirmed() is false
  /// for every channel. Callable from any thread: a snapshot, which may be stale by the time
  /// the caller acts on it (a caller may only use it where a stale answer costs no correctness).
  virtual bool quiet() const = 0;
  virtual void close() = 0;
};

}  // namespace redisson::detail
