// The pipeline of one connection, as a state machine with no I/O in it: the commands queued and
// the bytes of those not yet written, which reply answers which command, which commands a
// deadline fails, and what a lost connection or a shutdown takes with it.
//
// The Connection performs what it is told (write these bytes, call these callbacks with this
// reply, reconnect) and feeds back what happened (a write started or finished, replies parsed, a
// deadline passed, the connection broke). The tests drive it with made-up replies and times
// (tests/unit/net/multiplexer_test.cpp): no socket, no thread, no sleep.
//
// Threading: none of its own. The Connection calls everything under its mutex, except
// on_bytes_read(), which may be called without it. Callbacks are never invoked here: every event
// that completes commands returns their callbacks, for the Connection to run outside its lock.
//
// Cost: submit() appends the encoded command to one buffer and one entry to a deque; a reply
// pops one entry. Nothing is allocated per command beyond those (the buffers are reused).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "redisson/command.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/reply.hpp"

namespace redisson::detail {

using Clock = std::chrono::steady_clock;

/// What a command's reply is handed to (on the I/O thread).
using ReplyCallback = UniqueFunction<void(std::error_code, Reply)>;

class Multiplexer {
 public:
  /// Sent commands timing out at this many separate deadlines with not one byte read in between
  /// mark the connection dead (see on_deadline()).
  static constexpr int kSilentTimeoutsBeforeReconnect = 2;

  /// Where each reply of a read goes (route_replies()).
  struct Routing {
    /// Per reply: 1 when it is a push (for the push handler), 0 when it answers a command.
    std::vector<char> is_push;
    /// Per answer, in order: the callback of the command it answers; empty when that command
    /// timed out earlier (the late reply is dropped).
    std::vector<ReplyCallback> callbacks;
  };

  /// What a deadline passing did (on_deadline()).
  struct Expiry {
    /// To call with errc::timeout.
    std::vector<ReplyCallback> expired;
    /// The first command pending (the one a caller may be reading for) is among them.
    bool front_expired = false;
    /// The connection is presumed dead: to be closed and reopened.
    bool presumed_dead = false;
    /// The earliest deadline still pending, or time_point::max().
    Clock::time_point next = Clock::time_point::max();
  };

  /// A subscriber connection routes message pushes (and, on RESP2, message arrays) as pushes,
  /// and matches SUNSUBSCRIBE confirmations to the SUNSUBSCRIBE commands pending.
  explicit Multiplexer(bool subscriber) : subscriber_(subscriber) {}

  // --- events ---

  /// Queues `command` (encoded at the end of the unsent bytes) with its deadline and callback.
  /// True when the pipeline was idle before it: nothing pending and no write under way.
  bool submit(const Command& command, Clock::time_point deadline, ReplyCallback callback);
  /// Queues `commands` back to back (a batch's group: nothing of another caller between them),
  /// all with `deadline`. `callbacks[i]` empty: command i gets no reply (sent under CLIENT
  /// REPLY OFF); its bytes travel with the next answered command, so they are written, or
  /// dropped unsent, together with it. The last command must be answered.
  void submit_group(std::span<const Command* const> commands, Clock::time_point deadline,
                    std::span<ReplyCallback> callbacks);
  /// Queues a command the Connection writes itself (the handshake's) ahead of every unsent
  /// one, as sent: its reply is the next after those of the commands already sent.
  void insert_sent(Clock::time_point deadline, ReplyCallback callback);

  /// A write may start: moves the unsent bytes (without those of commands that timed out
  /// unsent: the server must never see them) into `buffer`, counts their commands as sent and
  /// notes a write under way. False, leaving `buffer` alone, when a write is under way already
  /// or nothing is unsent.
  bool start_write(std::string& buffer);
  /// The write start_write() began has finished.
  void write_done() noexcept { writing_ = false; }

  /// Sorts the replies of one read into pushes and answers, and takes the callbacks of the
  /// commands answered. False, changing nothing, when there are more answers than commands
  /// sent: the session is out of step (the Connection fails it with protocol_error).
  bool route_replies(std::span<const Reply> replies, Routing& routing);
  /// The reply to the first command sent arrived (and was read by its caller): takes its
  /// callback.
  ReplyCallback complete_front();

  /// Bytes were read: the server is answering. May be called without the Connection's lock.
  void on_bytes_read() noexcept { silent_timeouts_.store(0, std::memory_order_relaxed); }
  /// A new connection opened: no timeouts seen on it yet.
  void on_connected() noexcept { on_bytes_read(); }

  /// Time is `now`: takes the callbacks of commands whose deadline passed. A command timed out
  /// unsent is dropped before the next write; one sent stays (its late reply is dropped). When
  /// sent commands timed out at kSilentTimeoutsBeforeReconnect separate deadlines in a row on a
  /// `ready` connection with nothing read in between, the connection is presumed dead.
  Expiry on_deadline(Clock::time_point now, bool ready);

  /// The connection broke: takes the callbacks of the commands sent (they may or may not have
  /// run); the unsent ones stay, for the next connection.
  std::vector<ReplyCallback> on_connection_lost();
  /// Takes back every unsent command (the server never saw them); returns their callbacks.
  std::vector<ReplyCallback> cancel_unsent();
  /// Takes every command, sent or not, and the unsent bytes (a shutdown, a refused login).
  std::vector<ReplyCallback> take_all();

  // --- state ---

  /// Commands pending: sent and awaiting replies, then unsent.
  std::size_t pending() const noexcept { return pending_.size(); }
  /// Of those, how many were sent (or are being written).
  std::size_t sent() const noexcept { return written_; }
  /// A write is under way (between start_write() and write_done()).
  bool writing() const noexcept { return writing_; }
  /// The first command pending still waits for its reply (it did not time out).
  bool front_waiting() const noexcept { return !pending_.empty() && pending_.front().callback; }
  /// The deadline of the first command pending (which must exist).
  Clock::time_point front_deadline() const noexcept { return pending_.front().deadline; }

 private:
  struct Pending {
    ReplyCallback callback;  // empty once timed out
    Clock::time_point deadline;
    std::uint32_t encoded_size = 0;  // bytes in out_ (while unsent)
    bool sunsubscribe = false;       // a SUNSUBSCRIBE: its confirmation is its reply
  };

  void drop_cancelled_unsent();

  bool subscriber_;
  std::deque<Pending> pending_;  // [0, written_) sent and awaiting replies, then unsent
  std::size_t written_ = 0;
  std::size_t cancelled_unsent_ = 0;  // unsent commands that timed out, still in out_
  std::string out_;                   // encoded unsent commands, in pending_ order
  bool writing_ = false;              // a write is under way
  // Deadlines at which sent commands timed out since the last byte read.
  std::atomic<int> silent_timeouts_{0};
};

}  // namespace redisson::detail
