// Pub/sub as the tests see it: how many subscribers a channel has on the server, and the
// messages a client's subscription received.
//
//   ASSERT_TRUE(subscribers_are(server, "redisson_lock__channel:{name}", 1));  // a waiter sleeps
//   Messages messages;
//   auto subscription = client.subscribe(channel, messages.sink());
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "redisson/client.hpp"
#include "support/eventually.hpp"
#include "support/redis_server.hpp"

namespace redisson::test {

/// PUBSUB NUMSUB `channel` as command() prints it: "<channel>\n<count>". One round trip.
inline std::string numsub(const RedisServer& server, const std::string& channel) {
  return server.command({"PUBSUB", "NUMSUB", channel});
}

/// Waits (eventually()'s default deadline) until `channel` has exactly `count` subscribers.
inline bool subscribers_are(const RedisServer& server, const std::string& channel, int count) {
  return eventually(
      [&] { return numsub(server, channel) == channel + "\n" + std::to_string(count); });
}

/// Shuts `client` down when it goes out of scope. A topic listener runs on the client's listener
/// threads until the client shuts down; declared after the state listeners capture (and before a
/// guard that lets a blocked listener go), it joins those threads before that state is destroyed.
struct ShutdownAtEnd {
  explicit ShutdownAtEnd(Client& c) : client(c) {}
  Client& client;
  ShutdownAtEnd(const ShutdownAtEnd&) = delete;
  ShutdownAtEnd& operator=(const ShutdownAtEnd&) = delete;
  ~ShutdownAtEnd() { client.shutdown(); }
};

/// Collects the messages of a subscription; safe to read while they arrive.
struct Messages {
  std::mutex mutex;
  std::vector<std::string> received;

  /// The callback to subscribe with.
  std::function<void(std::string_view)> sink() {
    return [this](std::string_view message) {
      std::lock_guard guard(mutex);
      received.emplace_back(message);
    };
  }
  /// A copy of what arrived so far, in order.
  std::vector<std::string> get() {
    std::lock_guard guard(mutex);
    return received;
  }
};

}  // namespace redisson::test
