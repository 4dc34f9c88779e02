// One Redis connection on Asio: connect, TLS for rediss://, handshake (HELLO/AUTH/SETNAME/
// SELECT), pipelining, per-command deadlines, reconnect with backoff.
//
// The transport is a plain TCP socket or, for rediss://, an OpenSSL stream over one; everything
// above the transport (pipeline, deadlines, reconnect) is the same code for both.
//
// The pipeline's bookkeeping (the commands queued, the bytes not yet written, which reply answers
// which command, deadlines, what a lost connection takes with it) is a Multiplexer
// (net/multiplexer.hpp), a state machine with no I/O in it; this class performs what it decides.
//
// Threading: submit() may be called from any thread; everything else runs on the io_context's
// thread. Callbacks are invoked on that thread, never while an internal lock is held, except
// the one of a command whose blocking caller reads its own reply (below): on that caller's.
//
// Writes: the I/O thread writes what submit() queued, in batches. A caller on another thread that
// finds a plain-TCP connection idle (nothing queued, nothing awaiting a reply) writes its command
// to the socket itself, under the lock: a blocking call then costs one hand-over between threads
// (the reply's) instead of two. The socket is only ever replaced or closed after the state left
// `ready` under that lock, so such a write never reaches a stale or reused descriptor.
//
// Reads: on plain TCP the I/O thread waits for the socket to become readable and reads it
// itself (recv until EAGAIN), so that the reading can change hands. A blocking caller that wrote
// its command on an idle connection, submitted with its call's ReadSlot
// (redisson/detail/read_slot.hpp), may take the reading: it polls the socket, reads and parses
// under the lock, takes its own reply and runs its callback on its thread (one wake-up per round
// trip instead of two). What else it parsed (replies to commands queued behind it, pushes) is
// handed to the I/O thread in order. Whatever breaks meanwhile (the connection, a shutdown, the
// command's deadline) takes the reading back and wakes the caller through an eventfd.
//
// Who reads, and every rule of how the reading changes hands (when a caller may take it, what a
// hand-back leaves the I/O thread to do, when the caller must be woken, which late reports count
// for nothing), is a ReadOwnership (net/read_ownership.hpp), a state machine with no I/O in it;
// this class performs what it decides (poll, recv, the eventfd, posting a read cycle).
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "net/handshake.hpp"
#include "net/multiplexer.hpp"
#include "net/read_ownership.hpp"
#include "redisson/command.hpp"
#include "redisson/config.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/reply.hpp"
#include "resp/parser.hpp"

namespace redisson::detail {

struct ConnectionOptions {
  ServerAddress server;
  std::string client_name;
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds reconnect_max_delay{3000};
  bool resp3 = true;
  TlsConfig tls;  ///< used when server.tls (rediss://)
  /// A subscriber connection routes message pushes (and, on RESP2, message arrays) to the
  /// push handler, and matches (un)subscribe confirmations to pending commands.
  bool subscriber = false;
  /// A blocking caller may read its own reply when every callback of the router on this
  /// connection may run on any thread (see "Reads" above).
  bool caller_reads = false;
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  /// Called with every push frame that is not a reply to a command.
  using PushHandler = std::function<void(Reply&&)>;
  /// Called after each successful handshake (true) and on each loss of the connection (false).
  using StateHandler = std::function<void(bool ready)>;

  Connection(asio::io_context& io, ConnectionOptions options);
  ~Connection();

  void set_push_handler(PushHandler handler) { push_handler_ = std::move(handler); }
  void set_state_handler(StateHandler handler) { state_handler_ = std::move(handler); }

  /// Starts connecting; `on_first_attempt` learns how the first attempt ended.
  void start(std::function<void(std::error_code)> on_first_attempt);

  /// Queues a command. It is sent now, or after the next successful reconnect; it fails with
  /// errc::timeout at `deadline` if no reply arrived by then (a late reply is then dropped),
  /// with connection_lost if the connection broke after it was sent, or with shutdown. A
  /// connection on which sent commands time out at two deadlines in a row with nothing read in
  /// between is presumed dead and reopened (its other sent commands fail with connection_lost).
  /// A command with no arguments fails at once with invalid_argument. `read`: the slot of a
  /// blocking call's start (redisson/detail/read_slot.hpp), which takes the reading of this
  /// command's reply when the caller wrote it on an idle connection.
  void submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
              ReadSlot* read = nullptr);

  /// Queues `commands` back to back, with nothing of another caller between them (a batch's
  /// MULTI ... EXEC or CLIENT REPLY OFF ... ON must reach the server whole); written by the
  /// I/O thread. `callbacks` as Multiplexer::submit_group's (empty: no reply expected).
  void submit_group(std::span<const Command* const> commands, Clock::time_point deadline,
                    std::vector<ReplyCallback> callbacks);

  /// Takes back every command not yet written to the socket and fails it with `ec` (the
  /// caller may send it elsewhere: the server never saw it); commands already written keep
  /// waiting for their replies. Returns how many were taken back.
  std::size_t cancel_unsent(std::error_code ec);

  /// Fails every pending command with errc::shutdown and closes the socket. Idempotent.
  void close();

  bool ready() const;

  /// For ReadSlot: reads the reply to the command this thread wrote while it holds the
  /// reading under `token`, and runs its callback; returns once that ran, or once the reading
  /// went back to the I/O thread (which then completes the command).
  void read_own_reply(std::uint64_t token);
  /// For ReadSlot: gives back a reading taken and not used.
  void release_caller_read(std::uint64_t token) noexcept;

  /// 3 after a successful HELLO 3, else 2.
  int protocol() const { return protocol_; }
  /// The server this connection talks to.
  const ServerAddress& server() const { return options_.server; }
  /// The server's (or parser's) text for the most recent failure, for error messages.
  const std::string& last_error() const { return last_error_; }

 private:
  enum class State { idle, connecting, handshaking, ready, closed };

  struct Tls;  // the TLS context and the current attempt's TLS stream (connection.cpp)

  void connect();
  void start_tls_handshake();
  asio::ip::tcp::socket& lowest_socket();
  State state() const {
    std::lock_guard lock(mutex_);
    return state_;
  }
  template <class Handler>
  void transport_read(Handler&& handler);
  template <class Handler>
  void transport_write(const std::string& bytes, Handler&& handler);
  void on_connected();
  void advance_handshake(const Handshake::Step& step);
  void finish_handshake(std::error_code ec, const std::string& detail);
  void start_read();
  void on_read(std::size_t bytes);
  bool consume(std::size_t bytes);
  void pump();
  void arm_read_wait();
  void take_caller_read_locked(ReadSlot& read);
  void hand_back_locked(std::uint64_t token, ReadOwnership::CallerEnd end);
  void wake_locked(ReadOwnership::Wake wake);
  void post_pump_locked();
  void deliver(std::vector<Reply>& replies);
  void kick();
  void flush(bool write_finished = false);
  void start_write();
  bool may_write_directly_locked(bool pipeline_was_idle) const;
  void write_directly_locked(ReadSlot* read);
  void write_remainder(std::uint64_t ready_epoch);
  void on_failure(std::error_code ec);
  void note_session_refused(std::error_code ec);
  void schedule_reconnect();
  void arm_deadline_timer_if_earlier(Clock::time_point deadline);
  void on_deadline_timer();
  void fail_all(std::error_code ec);
  void push_front_internal(const Command& command, ReplyCallback callback);

  asio::io_context& io_;
  ConnectionOptions options_;
  Handshake handshake_;           // the session opening (state only; restarted on every connect)
  asio::ip::tcp::socket socket_;  // the transport of redis:// connections
  std::unique_ptr<Tls> tls_;      // rediss:// only
  asio::ip::tcp::resolver resolver_;
  asio::steady_timer connect_timer_;
  asio::steady_timer reconnect_timer_;
  asio::steady_timer deadline_timer_;
  // Read by submit() on callers' threads (a deadline before it needs the I/O thread to re-arm).
  std::atomic<Clock::time_point> deadline_armed_at_{Clock::time_point::max()};

  PushHandler push_handler_;
  StateHandler state_handler_;
  std::function<void(std::error_code)> on_first_attempt_;

  resp::Parser parser_;
  std::vector<char> read_buffer_;
  std::vector<Reply> replies_;    // reused between reads
  Multiplexer::Routing routing_;  // reused between reads
  bool read_wait_armed_ = false;  // a wait for the socket to become readable is under way
  int caller_wake_fd_ = -1;       // eventfd a caller reading its reply also polls; -1: none
  std::string write_buffer_;
  std::string handshake_buffer_;
  std::string last_error_;  // the server's or parser's words for the last failure
  int protocol_ = 2;
  std::uint64_t generation_ = 0;  // bumps on every (re)connect; stale handlers check it
  std::chrono::milliseconds reconnect_delay_{0};

  mutable std::mutex mutex_;  // guards everything below
  State state_ = State::idle;
  // The pipeline: commands pending, unsent bytes, reply matching, deadlines. While it says a
  // write is under way, write_buffer_ belongs to that write.
  Multiplexer mux_;
  // Bumped whenever the state leaves `ready`: a write handed over to the I/O thread for a
  // ready connection is dropped if the connection broke meanwhile.
  std::uint64_t ready_epoch_ = 0;
  bool kick_posted_ = false;
  Clock::time_point earliest_new_deadline_ = Clock::time_point::max();
  // Who reads the socket (plain TCP): the I/O thread, or the caller it was handed to; and the
  // replies such a caller parsed for others. Never a caller without caller_wake_fd_.
  ReadOwnership reading_;
};

}  // namespace redisson::detail
