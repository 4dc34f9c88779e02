// What one reliable topic subscriber does next: Redisson's poll loop as a state machine without
// I/O (the driver, pubsub/reliable_topics.cpp, sends what it asks for and feeds the outcomes
// back; unit tests drive it with no server).
//
// The loop: join (register the subscriber, make its group), then read what was delivered to it
// and never acknowledged (the pending script), else wait for new entries (XREADGROUP BLOCK);
// deliver what came to the listeners; then, pipelined in one round trip, acknowledge it (XACK),
// run the update script (expire dead subscribers, trim) and read the pending entries again;
// and so on. Redisson sends these three one after another, each after the last one's reply.
// (The driver may answer finish with the acknowledgement alone, finished(ok, true, ok, {}),
// when it ran the update a moment ago: a busy topic is then read on at once.)
//
// Exactly once within one run of the process: an entry whose id is not above the last one
// delivered is acknowledged and not delivered again (an XACK lost with a broken connection
// leaves it pending, and the next pending read would hand it out twice). Across a restart it
// is at least once: what was delivered and not acknowledged comes again.
//
// Failures: NOGROUP, or the update script saying the subscriber is no longer registered (it
// was away past the watchdog timeout and another subscriber removed it), joins again, with the
// group starting after the last acknowledged id so nothing still in the stream is missed or
// repeated; the driver reports it (what was trimmed meanwhile is lost). Other errors are tried
// again after kRetry (Redisson's 1 s); a read or pending read whose connection broke goes on at
// once with the pending read, so entries a lost reply handed out are delivered before newer
// ones (the reader is never re-sent behind the loop's back). A failure of the first join ends
// the loop: the caller that added the first listener gets it.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "redisson/objects/stream_message_id.hpp"

namespace redisson::detail {

/// One entry of the stream as the subscriber gets it.
struct ReliableEntry {
  StreamMessageId id;
  std::string payload;  // the field `m`: the message's codec bytes
};

class ReliablePoll {
 public:
  static constexpr std::chrono::milliseconds kRetry{1000};

  enum class Step {
    wait,          ///< nothing to send: an answer is awaited
    join,          ///< run the join script with resume_from()
    read_pending,  ///< run the pending script
    read_new,      ///< XREADGROUP GROUP id consumer COUNT n BLOCK ... STREAMS name >
    deliver,       ///< hand delivery() to the listeners, then call delivered()
    finish,        ///< XACK to_acknowledge(), the update script, the pending script, pipelined
    retry,         ///< call retry_now() after kRetry
    leave,         ///< run the leave script (the last listener was removed), then left()
    acknowledge,   ///< XACK to_acknowledge(); the loop is over (a delivery that ended a stop)
    stopped,       ///< the loop is over
  };

  /// Why the loop joins again (the driver reports it).
  enum class Rejoin { none, group_lost, expired };

  /// How a command ended, as the loop tells them apart.
  enum class Outcome {
    ok,
    no_group,     ///< NOGROUP: the subscriber's group (or the whole stream) is gone
    ended,        ///< cancelled, or the client shuts down
    interrupted,  ///< the connection broke (or timed out) under it; after a read, what it may
                  ///< have handed out is looked at at once (the pending read)
    failed,       ///< anything else (server away, wrong type): tried again after kRetry
  };

  Step start();

  Step joined(Outcome outcome, std::error_code ec);
  /// The pending script's entries.
  Step pending(Outcome outcome, std::vector<ReliableEntry> entries);
  /// XREADGROUP's entries; none: the wait ended with nothing.
  Step read(Outcome outcome, std::vector<ReliableEntry> entries);
  /// Every listener returned from delivery().
  Step delivered();
  /// The finish round trip: the update script's outcome (`registered`: its answer), then the
  /// pending read's. A failed update is not a reason to stop (the next one trims).
  Step finished(Outcome update, bool registered, Outcome pending,
                std::vector<ReliableEntry> entries);
  Step retry_now();
  /// The last listener is gone: `leave` removes the subscriber, else (the client shuts down)
  /// it stays registered until its watchdog deadline, so a restart can resume it. A delivery
  /// under way is waited for: delivered() then asks to acknowledge it, so that a restarted
  /// subscriber does not get again what the listeners already had.
  Step stop(bool leave);
  Step left();

  /// The entries to deliver now (Step::deliver).
  const std::vector<ReliableEntry>& delivery() const noexcept { return *delivery_; }
  /// The same, shared (the listeners' strands hold it while they run: not copied).
  const std::shared_ptr<const std::vector<ReliableEntry>>& shared_delivery() const noexcept {
    return delivery_;
  }
  /// The ids to acknowledge (Step::finish).
  const std::vector<StreamMessageId>& to_acknowledge() const noexcept { return ack_; }
  /// Where a group made by the join starts: "0" for a new subscriber, the last acknowledged id
  /// when it joins again.
  std::string resume_from() const;
  /// Why the current join happens.
  Rejoin rejoin() const noexcept { return rejoin_; }
  /// The first join failed: the error for the caller.
  std::error_code failure() const noexcept { return failure_; }
  bool running() const noexcept { return state_ < State::draining; }
  /// A stop waits for the delivery under way.
  bool draining() const noexcept { return state_ == State::draining; }

 private:
  // Running states first (running()).
  enum class State {
    idle,
    joining,
    pending,
    reading,
    delivering,
    finishing,
    waiting,
    draining,
    leaving,
    stopped
  };

  Step after_entries(Outcome outcome, std::vector<ReliableEntry> entries);
  Step on_failure(Outcome outcome, Step retry);
  Step join_again(Rejoin why);

  State state_ = State::idle;
  bool joined_once_ = false;
  bool leave_after_join_ = false;
  Step retry_step_ = Step::join;
  Rejoin rejoin_ = Rejoin::none;
  std::error_code failure_;
  std::optional<StreamMessageId> last_;                         // the last entry delivered
  std::shared_ptr<const std::vector<ReliableEntry>> delivery_;  // Step::deliver until delivered()
  std::vector<StreamMessageId> ack_;
};

}  // namespace redisson::detail
