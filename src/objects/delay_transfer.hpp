// The transfer task of a delayed queue: moves the elements that are due from the delayed
// queue's keys to its destination queue, as Redisson's QueueTransferTask does, so it runs in
// whichever client, Java or C++, has the delayed queue open.
//
// One per client and destination (ClientCore::shared_task), alive while a DelayedQueue handle
// holds it. It subscribes to redisson_delay_queue_channel:{n}; on the subscription's
// confirmation, on each restored subscription and when its timer fires, it runs the transfer
// script, which answers when the next element is due, and sets its timer for then. A message
// (the due time of an element that became the first due) sets the timer earlier. A failed run is
// retried after 5 s (Redisson's delay). On a Cluster with sharded pub/sub the channel's messages
// (sent with PUBLISH by Java and by us) do not reach an SSUBSCRIBE, so there the timer is also
// set at most kShardedRecheck ahead.
//
// Threading: made on any thread; everything else runs on the I/O thread. Destroying the handle
// stops the task there.
#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace redisson::detail {

class ClientCore;

class DelayTransfer {
 public:
  static constexpr std::chrono::milliseconds kRetry{5000};
  static constexpr std::chrono::milliseconds kShardedRecheck{1000};
  /// The longest timer set for a due time: a day (a later one is looked at again then).
  static constexpr std::chrono::milliseconds kLongestWait{24 * 60 * 60 * 1000};

  /// Starts the task for the delayed queue of `destination`.
  DelayTransfer(const std::shared_ptr<ClientCore>& core, std::string destination);
  ~DelayTransfer();
  DelayTransfer(const DelayTransfer&) = delete;
  DelayTransfer& operator=(const DelayTransfer&) = delete;

 private:
  class State;
  std::shared_ptr<ClientCore> core_;
  std::shared_ptr<State> state_;
};

/// The delayed queue keys of `destination`, as Redisson names them.
std::string delay_queue_list(const std::string& destination);
std::string delay_queue_timeouts(const std::string& destination);
std::string delay_queue_channel(const std::string& destination);

}  // namespace redisson::detail
