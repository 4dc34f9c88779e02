// Who reads a plain-TCP connection's socket, as a state machine with no I/O in it: the I/O
// thread, or a blocking caller that wrote its command on an idle connection and reads its own
// reply (net/connection.hpp, "Reads"), and how the reading changes hands between them.
//
// Modes:
//   io_thread     the I/O thread reads when its readiness wait completes; a caller may take over.
//   io_reading    the I/O thread is between a recv and delivering what it read (or has posted the
//                 rest of a full read): a caller keeps out, or it would take replies out of order.
//   caller        a caller holds the reading under a token; the I/O thread's wait only notes that
//                 data came (the caller reads it).
//   handing_back  the caller gave the reading back with work for the I/O thread (replies it
//                 parsed that were not its own, or garbage to fail the session on): until that
//                 read cycle ran, nobody else may take the reading.
//
// The Connection feeds it events (a caller takes the reading, hands over a reply, ends its read
// in one of four ways; the I/O thread's read cycle starts, or finds the socket drained; the first
// command's deadline passes; the connection is lost; a shutdown) and performs the action each
// returns: drain or write the eventfd that wakes a reading caller, post a read cycle, arm the
// readiness wait, deliver the handed-over replies, fail the session. A token identifies each
// hand-over, so a caller whose reading was taken back (by a failure, a shutdown) and that reports
// late changes nothing. The tests drive it with made-up events
// (tests/unit/net/read_ownership_test.cpp): no socket, no thread, no sleep.
//
// Threading: none of its own. The Connection calls everything under its mutex.
//
// Cost: a few bytes of state; handed-over replies are moved, never copied.
#pragma once

#include <cstdint>
#include <vector>

#include "redisson/reply.hpp"

namespace redisson::detail {

class ReadOwnership {
 public:
  enum class Mode : std::uint8_t { io_thread, io_reading, caller, handing_back };

  /// A caller was given the reading (take_for_caller()).
  struct Grant {
    /// 0: not given (the caller waits for the I/O thread like any other); else the token the
    /// caller's later events carry.
    std::uint64_t token = 0;
    /// Drain the eventfd first: it still counts a wake meant for an earlier reading caller.
    bool drain_wake = false;
    explicit operator bool() const noexcept { return token != 0; }
  };

  /// How a caller's read ended (on_caller_done()).
  enum class CallerEnd : std::uint8_t {
    replied,       ///< it read its own reply (and maybe others, handed over)
    gave_up,       ///< it stopped without a reply: its command timed out, or it never read
    stream_ended,  ///< recv returned 0 or an error: the I/O thread's own recv finds out why
    garbage,       ///< the parser failed: the I/O thread fails the session (protocol_error)
  };

  /// What the I/O thread must do once a caller gave the reading back.
  enum class HandBack : std::uint8_t {
    nothing,               ///< its readiness wait reports whatever comes next
    read_cycle,            ///< post a read cycle (replies to deliver, garbage, or end of stream)
    read_cycle_if_unread,  ///< its wait fired for data the caller may have left: post a read
                           ///< cycle if the socket still holds some (the wait will not fire
                           ///< again for it)
  };

  /// What the I/O thread does when its read cycle starts (on_io_ready()).
  struct IoTurn {
    enum class Kind : std::uint8_t {
      read,             ///< deliver `handed`, then recv until the socket is drained
      fail_garbage,     ///< deliver `handed`, then fail the session with protocol_error
      wait_for_caller,  ///< a caller reads: only re-arm the readiness wait
    };
    Kind kind = Kind::read;
    /// Replies a caller parsed that were not its own, in order, for the I/O thread to deliver.
    std::vector<Reply> handed;
  };

  /// A wake for the reading caller (write the eventfd), or none.
  enum class Wake : std::uint8_t { none, caller };

  /// `caller_reads`: the Connection can wake a reading caller (it has an eventfd); without it,
  /// no caller is ever given the reading.
  explicit ReadOwnership(bool caller_reads) noexcept : caller_reads_(caller_reads) {}

  // --- events ---

  /// A caller wrote the only command pending on an idle connection and `wants` to read its
  /// reply (a blocking call that may). Given only while the I/O thread waits for readiness.
  [[nodiscard]] Grant take_for_caller(bool wants) noexcept;
  /// The caller holding `token` parsed `reply`, not its own (a push, or the reply to a command
  /// queued behind its own): the I/O thread delivers it, in order, after the hand-back.
  void hand_over(std::uint64_t token, Reply&& reply);
  /// The caller holding `token` stops reading, for the reason `end`. A stale token (its reading
  /// was taken back meanwhile) changes nothing.
  [[nodiscard]] HandBack on_caller_done(std::uint64_t token, CallerEnd end) noexcept;

  /// The I/O thread's read cycle starts: its readiness wait completed, or a cycle was posted.
  [[nodiscard]] IoTurn on_io_ready();
  /// The I/O thread's recv found the socket drained: it arms its readiness wait, and a caller
  /// may take the reading again.
  void on_io_drained() noexcept;

  /// The deadline of the first command pending passed: a caller reading for it stops.
  [[nodiscard]] Wake on_front_expired() noexcept;
  /// The connection broke: the reading is the I/O thread's again (for the next connection), and
  /// what a caller parsed is dropped (its commands fail with the connection).
  [[nodiscard]] Wake on_connection_lost() noexcept;
  /// The connection is closed for good: as on_connection_lost().
  [[nodiscard]] Wake on_shutdown() noexcept { return on_connection_lost(); }

  // --- state ---

  Mode mode() const noexcept { return mode_; }
  /// The caller holding `token` still holds the reading.
  bool held_by(std::uint64_t token) const noexcept {
    return mode_ == Mode::caller && token == token_;
  }
  /// The eventfd counts a wake not yet drained.
  bool wake_pending() const noexcept { return wake_pending_; }
  /// Replies handed over and not yet taken by the I/O thread.
  std::size_t handed() const noexcept { return handed_.size(); }

 private:
  [[nodiscard]] Wake wake_caller() noexcept;

  bool caller_reads_;
  Mode mode_ = Mode::io_thread;
  std::uint64_t token_ = 0;    // of the latest hand-over; 0 never given
  bool io_woke_ = false;       // caller mode: the I/O thread's wait fired meanwhile
  bool wake_pending_ = false;  // the eventfd counts a wake
  bool garbage_ = false;       // handing_back: the caller's parse failed
  std::vector<Reply> handed_;  // parsed by a caller, not its own
};

}  // namespace redisson::detail
