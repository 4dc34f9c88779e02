// Pub/sub as the rest of the library sees it: listeners on channels, whatever the deployment.
// A single server uses one Subscriber directly; Cluster and Sentinel use a RoutedPubSub that
// keeps a Subscriber per node and moves channels when the topology changes.
//
// Every method runs on the I/O thread, except quiet().
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "redisson/error.hpp"

namespace redisson::detail {

/// What a channel has received on its connection since it was subscribed (with or without
/// listeners): how many messages, and when the last one came.
struct Received {
  std::uint64_t messages = 0;
  std::chrono::steady_clock::time_point last{};
};

/// How a channel is subscribed, and so which messages reach its listeners.
enum class ChannelKind : char {
  plain = 'c',    ///< SUBSCRIBE: what is PUBLISHed to the channel
  pattern = 'p',  ///< PSUBSCRIBE: what is PUBLISHed to any channel the glob pattern matches
  sharded = 's',  ///< SSUBSCRIBE: what is SPUBLISHed to the channel (Redis 7; its slot's node)
};

struct Listener {
  /// A message: the channel it was published to (for a pattern, the matching channel) and its
  /// bytes.
  std::function<void(std::string_view channel, std::string_view payload)> on_message;
  /// After the subscription was restored (a reconnect, or a move to another node); messages
  /// may have been missed meanwhile, so a waiter must re-check its condition.
  std::function<void()> on_resubscribed;
  /// When the subscriber connection broke (no message can arrive until it is restored).
  std::function<void()> on_interrupted;
};

class PubSub {
 public:
  using ReadyCallback = std::function<void(std::error_code)>;

  /// `own`: how the library's own channels (lock, semaphore and latch wake-ups) are subscribed:
  /// sharded on a Cluster whose lock channels are sharded, plain otherwise.
  explicit PubSub(ChannelKind own) : own_(own) {}
  virtual ~PubSub() = default;
  PubSub(const PubSub&) = delete;
  PubSub& operator=(const PubSub&) = delete;

  /// How the library's own channels are subscribed (and published to: SPUBLISH when sharded).
  ChannelKind own_kind() const noexcept { return own_; }

  /// Adds a listener to the library's own channel `channel`: listen(own_kind(), ...).
  std::uint64_t add(const std::string& channel, Listener listener, ReadyCallback on_ready) {
    return listen(own_, channel, std::move(listener), std::move(on_ready));
  }
  /// Adds a listener to `channel` subscribed as `kind` (subscribing if it is the first). A
  /// channel and a pattern of the same name are two subscriptions. `on_ready` runs once the
  /// server confirmed the subscription (at once if it already had), or with an error at the
  /// subscription timeout. Returns an id for remove().
  virtual std::uint64_t listen(ChannelKind kind, const std::string& channel, Listener listener,
                               ReadyCallback on_ready) = 0;
  /// listen() for a caller that needs the listener's id with the outcome: `on_ready(ec, id)`
  /// runs once, after listen() returned (listen()'s own on_ready runs inside it when the channel
  /// was confirmed already, before the id is known). On an error the listener stays registered
  /// under `id` (remove it); id 0: refused, the pub/sub is closed.
  using IdReadyCallback = std::function<void(std::error_code, std::uint64_t id)>;
  void listen_with_id(ChannelKind kind, const std::string& channel, Listener listener,
                      IdReadyCallback on_ready) {
    auto id = std::make_shared<std::uint64_t>(0);
    auto early = std::make_shared<std::optional<std::error_code>>();
    auto ready = std::make_shared<IdReadyCallback>(std::move(on_ready));
    *id = listen(kind, channel, std::move(listener), [id, early, ready](std::error_code ec) {
      if (*id == 0) {
        *early = ec;  // inside listen(): answered below, once the id is known
      } else {
        (*ready)(ec, *id);
      }
    });
    if (*id == 0) return (*ready)(make_error_code(errc::shutdown), 0);
    if (*early) (*ready)(**early, *id);
  }
  /// Removes a listener; the last one of a channel unsubscribes, at once or, with `linger`,
  /// when the channel has had no listener for that long. Unknown ids are ignored.
  virtual void remove(std::uint64_t id, std::chrono::milliseconds linger = {}) = 0;
  // The library's own channels only (of own_kind()):
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

 private:
  ChannelKind own_;
};

}  // namespace redisson::detail
