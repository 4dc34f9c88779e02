// The semaphore releases this client published moments ago, per channel, so that its own waiters
// can tell their own client's release message from a new one.
//
// A process that releases and asks again at once (a worker loop) starts its waiting acquire
// after the release ran on the server. When the channel is still subscribed (a lingering
// subscription), the release's message often reaches the new waiter while its first attempt is on
// its way, or just after: the attempt has already seen that release's permits, but the message
// would count as one more release, whose permit one ahead must have taken (AcquireMachine's
// counting). The waiter would then believe itself one place nearer than it is and try too early,
// or, second in line, try again at once and take the permit its release woke the first one for.
// A waiter that starts listening while that message is still on its way lets it go by, and any
// before it (acquire_machine.cpp, message()): messages on a channel come in the order they were
// published, and the release's cannot come before the release was sent, so "still on its way" is
// "no message has come on the channel since the release was sent" (PubSub::received).
//
// Runs on the I/O thread. Bounded: an entry is remembered kRemembered, and the expired ones are
// dropped whenever the map has grown past a handful. One per client:
// ClientCore::service<OwnReleases>().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "client/client_services.hpp"
#include "net/connection.hpp"
#include "pubsub/pubsub.hpp"

namespace redisson::detail {

class OwnReleases : public ClientService {
 public:
  OwnReleases() = default;

  /// How long a release's message is expected after its reply: the message and the reply leave
  /// the server together, so a message later than this is taken for another one.
  static constexpr std::chrono::milliseconds kRemembered{50};

  /// Remembers each release `remembered` instead of kRemembered: tests, which must not depend on
  /// how fast a loaded machine runs the steps between a release and the message they publish.
  void set_remembered(std::chrono::nanoseconds remembered) { remembered_ = remembered; }

  /// This client's release on `channel`, sent at `sent`, published `count`; its reply came at
  /// `replied`; `received` is what the channel has received by now. When a message came after
  /// the release was sent, it may have been the release's own (a waiter that starts listening
  /// now would not hear it): then the release is not recorded, and the channel's earlier record
  /// is forgotten.
  void published(const std::string& channel, std::int64_t count, Clock::time_point sent,
                 Clock::time_point replied, const Received& received);

  /// A release of this client whose message a waiter that starts listening now has still to
  /// hear: its count, and until when to expect it.
  struct Pending {
    std::int64_t count = 0;
    Clock::time_point until;
  };
  /// The release on `channel` whose reply came at or before `since` (when the waiter began),
  /// within kRemembered of `now`, and after which no message has come (`received` counts what
  /// it counted when the release was recorded); nullopt when there is none.
  std::optional<Pending> pending(const std::string& channel, Clock::time_point since,
                                 Clock::time_point now, const Received& received) const;

  /// Entries kept (tests).
  std::size_t size() const noexcept { return latest_.size(); }

 private:
  struct Release {
    std::int64_t count = 0;
    Clock::time_point at;
    std::uint64_t messages = 0;  // PubSub::received when recorded
  };
  std::unordered_map<std::string, Release> latest_;
  std::chrono::nanoseconds remembered_ = kRemembered;
};

}  // namespace redisson::detail
