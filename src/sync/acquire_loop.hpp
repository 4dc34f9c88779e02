// The driver of AcquireMachine (acquire_machine.hpp, which says how a waiter waits): it owns the
// timer, the subscriber listener and the attempt function, and performs the machine's actions on
// the client's I/O thread. Every synchronizer that waits runs one, with its own AcquirePolicy.
//
// Cancellation (Asio per-operation cancellation, via cancel_on()) reaches the machine on the I/O
// thread; a cancelled wait finishes with asio::error::operation_aborted.
#pragma once

#include <asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "net/connection.hpp"
#include "pubsub/subscriber.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "sync/acquire_machine.hpp"

namespace redisson::detail {

class ClientCore;

using AttemptCallback = UniqueFunction<void(Status, AttemptResult)>;
/// One try; called on the I/O thread, possibly many times, and the first time perhaps on the
/// caller's. The ReadSlot* is the blocking caller's slot (redisson/detail/read_slot.hpp) for
/// that first try when the caller sends it itself, else null: an attempt that passes it on
/// with its command lets the caller read the reply.
using Attempt = std::function<void(AttemptCallback, ReadSlot*)>;
/// Called once with the outcome: (error, acquired). The Status keeps what the server said.
using AcquireCallback = UniqueFunction<void(Status, bool)>;
/// Called when the loop gives up after a failed attempt (wait exhausted), before `done`:
/// lets a fair lock leave its queue. It must call its argument when finished.
using GiveUp = std::function<void(UniqueFunction<void()>)>;

class AcquireLoop : public std::enable_shared_from_this<AcquireLoop> {
 public:
  struct Options {
    std::string channel;  // where releases are announced (unused by PollPolicy)
    AcquirePolicy policy;
    Clock::time_point deadline = Clock::time_point::max();  // max(): wait forever
    std::chrono::milliseconds unknown_hint{1000};
  };

  /// Runs the loop on the client's I/O thread (posted there). With `cancel`, a cancellation
  /// request stops it (see acquire_machine.hpp). `read`: a blocking caller's slot, handed to
  /// the first attempt when the caller sends it itself.
  static void start(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
                    AcquireCallback done, GiveUp give_up = nullptr,
                    const CancellationPtr& cancel = nullptr, ReadSlot* read = nullptr);

  AcquireLoop(const std::shared_ptr<ClientCore>& core, Options options, Attempt attempt,
              AcquireCallback done, GiveUp give_up);

 private:
  void begin();
  void perform(AcquireAction action);
  void send_attempt(bool listen, bool on_caller_thread, ReadSlot* read = nullptr);
  Listener make_listener();
  void arm_timer(Clock::time_point when);
  void stop_timer();
  void finish(AcquireAction action);

  std::shared_ptr<ClientCore> core_;
  std::string channel_;
  AcquireMachine machine_;
  Attempt attempt_;
  AcquireCallback done_;
  GiveUp give_up_;
  asio::steady_timer timer_;
  std::uint64_t listener_id_ = 0;
  std::uint64_t timer_generation_ = 0;
  bool timer_armed_ = false;
};

}  // namespace redisson::detail
