#include "net/connection.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <asio/connect.hpp>
#include <asio/post.hpp>
#include <asio/ssl/error.hpp>
#include <asio/ssl/stream.hpp>
#include <asio/write.hpp>
#include <charconv>

#include "net/batch_clock.hpp"
#include "net/push_message.hpp"
#include "net/reply_error.hpp"
#include "net/tls_context.hpp"
#include "redisson/detail/read_slot.hpp"
#include "redisson/error.hpp"
#include "resp/writer.hpp"

namespace redisson::detail {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::chrono::milliseconds kReconnectFirstBackoff{100};
// deliver() sends what the callbacks submitted after kDeliverSlice replies, or sooner once
// kDeliverSliceTime has gone by in them (the clock is read every kDeliverClockEvery replies).
// The count keeps a large read of cheap replies moving; the time serves callbacks that do real
// work (a lock's bookkeeping, a codec): without it, 64 lock loops in one batch kept the server
// idle while the client worked through all 64 replies, and lock pairs ran at 0.8x the same
// scripts sent raw (bench `parallel`); with it 1.0x. A count of 16 instead fragmented the
// pipelined batches (raw 1.2 -> 0.6), which a time slice leaves alone.
constexpr std::size_t kDeliverSlice = 64;
constexpr std::chrono::microseconds kDeliverSliceTime{25};
constexpr std::size_t kDeliverClockEvery = 8;
constexpr std::int64_t kCallerPollSliceMs = 60'000;

void append_encoded(std::string& out, const Command& command) {
  resp::append_array_header(out, command.size());
  out.append(command.encoded_arguments());
}

// Only a connection every callback of whose router may run on any thread, on plain TCP (a TLS
// stream is not safe to read from two threads), not a subscriber's. Without a descriptor left,
// callers simply never take the reading.
int open_caller_wake_fd(const ConnectionOptions& options) {
  if (!options.caller_reads || options.server.tls || options.subscriber) return -1;
  return ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

}  // namespace

struct Connection::Tls {
  using Stream = asio::ssl::stream<asio::ip::tcp::socket>;
  asio::ssl::context context;
  // A fresh stream (and socket) per attempt: a TLS session cannot be reused after a failure.
  // Handlers of an attempt hold its stream, so a stale operation never outlives its stream.
  std::shared_ptr<Stream> stream;
};

Connection::Connection(asio::io_context& io, ConnectionOptions options)
    : io_(io),
      options_(std::move(options)),
      handshake_(HandshakeSettings{options_.resp3, options_.server.username,
                                   options_.server.password, options_.client_name,
                                   options_.server.database}),
      socket_(io),
      resolver_(io),
      connect_timer_(io),
      reconnect_timer_(io),
      deadline_timer_(io),
      caller_wake_fd_(open_caller_wake_fd(options_)),
      mux_(options_.subscriber),
      reading_(caller_wake_fd_ >= 0) {
  read_buffer_.resize(kReadChunk);
  if (options_.server.tls) {
    tls_ = std::make_unique<Tls>(Tls{make_tls_context(options_.tls), nullptr});
  }
}

asio::ip::tcp::socket& Connection::lowest_socket() {
  return tls_ && tls_->stream ? tls_->stream->next_layer() : socket_;
}

template <class Handler>
void Connection::transport_read(Handler&& handler) {
  if (!tls_)
    return socket_.async_read_some(asio::buffer(read_buffer_), std::forward<Handler>(handler));
  tls_->stream->async_read_some(asio::buffer(read_buffer_),
                                [stream = tls_->stream, handler = std::forward<Handler>(handler)](
                                    std::error_code ec, std::size_t n) mutable { handler(ec, n); });
}

template <class Handler>
void Connection::transport_write(const std::string& bytes, Handler&& handler) {
  if (!tls_) return asio::async_write(socket_, asio::buffer(bytes), std::forward<Handler>(handler));
  asio::async_write(*tls_->stream, asio::buffer(bytes),
                    [stream = tls_->stream, handler = std::forward<Handler>(handler)](
                        std::error_code ec, std::size_t n) mutable { handler(ec, n); });
}

Connection::~Connection() {
  if (caller_wake_fd_ >= 0) ::close(caller_wake_fd_);
}

void Connection::start(std::function<void(std::error_code)> on_first_attempt) {
  on_first_attempt_ = std::move(on_first_attempt);
  asio::post(io_, [self = shared_from_this()] { self->connect(); });
}

bool Connection::ready() const {
  std::lock_guard lock(mutex_);
  return state_ == State::ready;
}

void Connection::connect() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return;
    state_ = State::connecting;
  }
  const auto generation = ++generation_;
  parser_.reset();
  protocol_ = 2;
  std::error_code ignored;
  lowest_socket().close(ignored);
  if (tls_) {
    tls_->stream = std::make_shared<Tls::Stream>(io_, tls_->context);
  } else {
    socket_ = asio::ip::tcp::socket(io_);
  }

  connect_timer_.expires_after(options_.connect_timeout);
  connect_timer_.async_wait([self = shared_from_this(), generation](std::error_code ec) {
    if (ec || generation != self->generation_) return;
    // An expiry already queued when the handshake finished: the socket is in use (callers may
    // be writing to it, see submit()), so it stays.
    if (self->state() == State::ready) return;
    // Closing makes the pending resolve/connect complete with an error.
    std::error_code ignored_ec;
    self->resolver_.cancel();
    self->lowest_socket().close(ignored_ec);
  });

  resolver_.async_resolve(
      options_.server.host, std::to_string(options_.server.port),
      [self = shared_from_this(), generation](
          std::error_code ec, const asio::ip::tcp::resolver::results_type& results) {
        if (generation != self->generation_) return;
        if (ec) return self->on_failure(make_error_code(errc::connect_failed));
        asio::async_connect(
            self->lowest_socket(), results,
            [self, generation](std::error_code connect_ec, const asio::ip::tcp::endpoint&) {
              if (generation != self->generation_) return;
              if (connect_ec) return self->on_failure(make_error_code(errc::connect_failed));
              if (self->tls_) return self->start_tls_handshake();
              self->on_connected();
            });
      });
}

// Still under the connect timer: a server that accepts but never finishes the handshake is
// dropped at connect_timeout like one that never accepts.
void Connection::start_tls_handshake() {
  const auto generation = generation_;
  auto stream = tls_->stream;
  if (std::string why;
      !prepare_tls_session(stream->native_handle(), options_.tls, options_.server.host, why)) {
    last_error_ = why;
    return on_failure(make_error_code(errc::connect_failed));
  }
  stream->async_handshake(asio::ssl::stream_base::client, [self = shared_from_this(), generation,
                                                           stream](std::error_code ec) {
    if (generation != self->generation_) return;
    if (ec) {
      // The connect timer closes the socket under a handshake that takes too long.
      self->last_error_ = ec == asio::error::operation_aborted
                              ? "TLS: no handshake within connect_timeout"
                              : describe_tls_failure(stream->native_handle(), ec);
      return self->on_failure(make_error_code(errc::connect_failed));
    }
    self->on_connected();
  });
}

void Connection::on_connected() {
  connect_timer_.cancel();
  std::error_code ignored;
  lowest_socket().set_option(asio::ip::tcp::no_delay(true), ignored);
  lowest_socket().set_option(asio::socket_base::keep_alive(true), ignored);
  {
    std::lock_guard lock(mutex_);
    state_ = State::handshaking;
  }
  mux_.on_connected();
  start_read();
  advance_handshake(handshake_.start());
}

// Handshake commands go ahead of every queued user command, one round trip at a time.
void Connection::push_front_internal(const Command& command, ReplyCallback callback) {
  handshake_buffer_.clear();
  append_encoded(handshake_buffer_, command);
  {
    std::lock_guard lock(mutex_);
    mux_.insert_sent(Clock::now() + options_.connect_timeout, std::move(callback));
  }
  arm_deadline_timer_if_earlier(Clock::now() + options_.connect_timeout);
  transport_write(handshake_buffer_, [self = shared_from_this(), generation = generation_](
                                         std::error_code ec, std::size_t) {
    if (generation != self->generation_) return;
    if (ec) {
      // The server's refusal may reach us as a failed write of the handshake as well as a read.
      self->note_session_refused(ec);
      self->on_failure(make_error_code(errc::connection_lost));
    }
  });
}

// E.g. a server that requires a client certificate refuses the session with an alert after a
// TLS 1.3 handshake (its words are what the caller needs), or just resets the connection,
// which says nothing on its own.
void Connection::note_session_refused(std::error_code ec) {
  if (!tls_) return;
  if (ec.category() == asio::error::get_ssl_category()) {
    last_error_ = describe_tls_failure(nullptr, ec);
  } else if (state() == State::handshaking) {
    last_error_ = "TLS: the server closed the session before answering (" + ec.message() +
                  "); a server with tls-auth-clients yes does so when no client certificate "
                  "(tls.cert_file, tls.key_file) was sent";
  }
}

void Connection::advance_handshake(const Handshake::Step& step) {
  switch (step.kind) {
    case Handshake::Step::Kind::send:
      return push_front_internal(
          step.command, [self = shared_from_this(), generation = generation_](std::error_code ec,
                                                                              const Reply& reply) {
            if (generation != self->generation_) return;
            self->advance_handshake(self->handshake_.on_reply(ec, reply));
          });
    case Handshake::Step::Kind::done:
      protocol_ = step.protocol;
      return finish_handshake({}, {});
    case Handshake::Step::Kind::failed:
      return finish_handshake(step.error, step.detail);
  }
}

void Connection::finish_handshake(std::error_code ec, const std::string& detail) {
  if (ec) {
    last_error_ = detail;
    // Commands waiting for this connection cannot succeed with these credentials.
    if (ec == errc::auth_failed) fail_all(ec);
    return on_failure(ec);
  }
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return;
    state_ = State::ready;
  }
  reconnect_delay_ = std::chrono::milliseconds{0};
  if (on_first_attempt_) std::exchange(on_first_attempt_, nullptr)({});
  if (state_handler_) state_handler_(true);
  flush();
}

void Connection::start_read() {
  if (!tls_) return pump();
  transport_read(
      [self = shared_from_this(), generation = generation_](std::error_code ec, std::size_t n) {
        if (generation != self->generation_) return;
        if (ec) {
          self->note_session_refused(ec);
          return self->on_failure(make_error_code(errc::connection_lost));
        }
        self->on_read(n);
      });
}

void Connection::on_read(std::size_t bytes) {
  if (consume(bytes)) start_read();
}

// Parses `bytes` of read_buffer_ and delivers the replies; false when the session ended.
bool Connection::consume(std::size_t bytes) {
  mux_.on_bytes_read();  // the server is answering
  const auto generation = generation_;
  std::string_view input(read_buffer_.data(), bytes);
  replies_.clear();
  while (!input.empty()) {
    Reply reply;
    std::error_code ec;
    const auto result = parser_.parse(input, reply, ec);
    if (result.status == resp::ParseStatus::error) {
      last_error_ = parser_.error_message();
      deliver(replies_);
      if (generation == generation_) on_failure(make_error_code(errc::protocol_error));
      return false;
    }
    input.remove_prefix(result.consumed);
    if (result.status != resp::ParseStatus::reply_ready) break;
    replies_.push_back(std::move(reply));
  }
  deliver(replies_);
  return generation == generation_;
}

// The plain-TCP read cycle on the I/O thread: what a caller handed over first, then one recv,
// then wait for the socket to become readable again. Data is never left unread without a wait
// armed or a read cycle queued: a wait only completes for data arriving after it was armed.
void Connection::pump() {
  const auto generation = generation_;
  auto turn = [&] {
    std::lock_guard lock(mutex_);
    return reading_.on_io_ready();
  }();
  if (turn.kind == ReadOwnership::IoTurn::Kind::wait_for_caller) return arm_read_wait();
  deliver(turn.handed);
  if (generation != generation_) return;
  if (turn.kind == ReadOwnership::IoTurn::Kind::fail_garbage) {
    last_error_ = parser_.error_message();
    return on_failure(make_error_code(errc::protocol_error));
  }
  for (;;) {
    const auto n =
        ::recv(socket_.native_handle(), read_buffer_.data(), read_buffer_.size(), MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      if (!consume(static_cast<std::size_t>(n))) return;
      // A full buffer: more is likely waiting. Read it after the handlers queued meanwhile
      // (the write of what these replies' callbacks submitted) had their turn; a caller keeps
      // out (the reading stays io_reading) until then.
      if (static_cast<std::size_t>(n) == read_buffer_.size()) {
        return asio::post(io_, [self = shared_from_this(), generation] {
          if (generation == self->generation_) self->pump();
        });
      }
      break;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    return on_failure(make_error_code(errc::connection_lost));  // closed by the server, or reset
  }
  {
    std::lock_guard lock(mutex_);
    reading_.on_io_drained();
  }
  // Nothing that arrives after the recv is missed: the reactor reports readiness only between
  // handlers, so this wait is armed before it looks again.
  arm_read_wait();
}

void Connection::arm_read_wait() {
  if (read_wait_armed_) return;
  read_wait_armed_ = true;
  socket_.async_wait(asio::socket_base::wait_read,
                     [self = shared_from_this(), generation = generation_](std::error_code ec) {
                       if (generation != self->generation_) return;
                       self->read_wait_armed_ = false;
                       if (ec) return self->on_failure(make_error_code(errc::connection_lost));
                       self->pump();
                     });
}

// Called with mutex_ held by write_directly_locked(), on the caller's thread: the command it
// wrote is the only one pending.
void Connection::take_caller_read_locked(ReadSlot& read) {
  const auto grant = reading_.take_for_caller(read.open());
  if (!grant) return;
  if (grant.drain_wake) {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto drained = ::read(caller_wake_fd_, &count, sizeof count);
  }
  read.hold(shared_from_this(), grant.token);
}

// Called with mutex_ held by the caller holding `token`: gives the reading back to the I/O
// thread, with a read cycle when it has replies to deliver, garbage to fail on, or data its
// re-armed wait will not report (it arrived while the caller read).
void Connection::hand_back_locked(std::uint64_t token, ReadOwnership::CallerEnd end) {
  switch (reading_.on_caller_done(token, end)) {
    case ReadOwnership::HandBack::nothing:
      return;
    case ReadOwnership::HandBack::read_cycle_if_unread: {
      int unread = 0;
      if (::ioctl(socket_.native_handle(), FIONREAD, &unread) == 0 && unread == 0) return;
      break;
    }
    case ReadOwnership::HandBack::read_cycle:
      break;
  }
  post_pump_locked();
}

// Called with mutex_ held: the caller reading must stop (its command is over, or the session).
void Connection::wake_locked(ReadOwnership::Wake wake) {
  if (wake != ReadOwnership::Wake::caller) return;
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(caller_wake_fd_, &one, sizeof one);
}

void Connection::post_pump_locked() {
  asio::post(io_, [self = shared_from_this(), epoch = ready_epoch_] {
    {
      std::lock_guard lock(self->mutex_);
      if (epoch != self->ready_epoch_) return;  // that session is gone, and its reading
    }
    self->pump();
  });
}

void Connection::release_caller_read(std::uint64_t token) noexcept {
  std::lock_guard lock(mutex_);
  hand_back_locked(token, ReadOwnership::CallerEnd::gave_up);
}

void Connection::read_own_reply(std::uint64_t token) {
  using CallerEnd = ReadOwnership::CallerEnd;
  bool mine = false;
  Reply reply;
  ReplyCallback callback;
  for (;;) {
    int socket_fd = -1;
    Clock::time_point deadline;
    {
      std::lock_guard lock(mutex_);
      // Taken back by a failure or a shutdown: the I/O thread completes the command.
      if (!reading_.held_by(token)) return;
      // Timed out (the I/O thread's timer called back), or about to: the I/O thread's part.
      if (!mux_.front_waiting() || mux_.front_deadline() <= Clock::now()) {
        return hand_back_locked(token, CallerEnd::gave_up);
      }
      socket_fd = socket_.native_handle();
      deadline = mux_.front_deadline();
    }
    // In slices of at most a minute: poll() takes an int of milliseconds.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    const auto slice = std::clamp<std::int64_t>(left.count(), 0, kCallerPollSliceMs);
    std::array<pollfd, 2> fds{pollfd{socket_fd, POLLIN, 0}, pollfd{caller_wake_fd_, POLLIN, 0}};
    ::poll(fds.data(), fds.size(), static_cast<int>(slice));
    {
      std::lock_guard lock(mutex_);
      if (!reading_.held_by(token)) return;
      if (!mux_.front_waiting()) return hand_back_locked(token, CallerEnd::gave_up);
      const auto n = ::recv(socket_fd, read_buffer_.data(), read_buffer_.size(), MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      // Closed or reset: the I/O thread's own recv finds out and fails the session.
      if (n <= 0) return hand_back_locked(token, CallerEnd::stream_ended);
      mux_.on_bytes_read();
      std::string_view input(read_buffer_.data(), static_cast<std::size_t>(n));
      bool garbage = false;
      while (!input.empty()) {
        Reply parsed;
        std::error_code ec;
        const auto result = parser_.parse(input, parsed, ec);
        if (result.status == resp::ParseStatus::error) {
          garbage = true;
          break;
        }
        input.remove_prefix(result.consumed);
        if (result.status != resp::ParseStatus::reply_ready) break;
        if (!mine && !is_push_message(parsed, false)) {
          // The first answer is the caller's: its command was the only one pending.
          mine = true;
          reply = std::move(parsed);
          callback = mux_.complete_front();
        } else {
          reading_.hand_over(token, std::move(parsed));
        }
      }
      if (garbage || mine) {
        hand_back_locked(token, garbage ? CallerEnd::garbage : CallerEnd::replied);
        break;
      }
    }
  }
  if (!mine) return;  // garbage before the answer: the I/O thread fails the session
  const auto ec = error_for_reply(reply);
  callback(ec, std::move(reply));
}

// Matches replies to pending commands in order, then calls back outside the lock.
void Connection::deliver(std::vector<Reply>& replies) {
  if (replies.empty()) return;
  bool in_step = false;
  {
    std::lock_guard lock(mutex_);
    in_step = mux_.route_replies(replies, routing_);
  }
  if (!in_step) {
    last_error_ = "more replies than commands sent";
    return on_failure(make_error_code(errc::protocol_error));
  }
  std::size_t next = 0;
  std::size_t since_flush = 0;
  // The deadlines of what the callbacks submit; its time, refreshed at each flush, is also when
  // the current slice began.
  BatchClock::Scope batch_clock;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    auto& reply = replies[i];
    // Commands issued by the callbacks go out in slices while the rest are being delivered,
    // so the server works on them meanwhile instead of waiting for the whole batch.
    ++since_flush;
    bool slice_done = since_flush == kDeliverSlice;
    if (!slice_done && since_flush % kDeliverClockEvery == 0) {
      slice_done = BatchClock::Clock::now() - BatchClock::now() >= kDeliverSliceTime;
    }
    if (slice_done) {
      since_flush = 0;
      flush();
      batch_clock.refresh();
    }
    if (routing_.is_push[i] != 0) {
      if (push_handler_) push_handler_(std::move(reply));
      continue;
    }
    auto& callback = routing_.callbacks[next++];
    if (!callback) continue;  // timed out earlier; the late reply is dropped
    const auto ec = error_for_reply(reply);
    callback(ec, std::move(reply));
  }
  routing_.callbacks.clear();
  flush();
}

void Connection::submit(const Command& command, Clock::time_point deadline, ReplyCallback callback,
                        ReadSlot* read) {
  // "*0\r\n" gets no reply from Redis, so every later reply would complete the wrong caller.
  if (command.empty()) {
    callback(make_error_code(errc::invalid_argument), Reply{});
    return;
  }
  bool post_kick = false;
  {
    std::unique_lock lock(mutex_);
    if (state_ == State::closed) {
      lock.unlock();
      callback(make_error_code(errc::shutdown), Reply{});
      return;
    }
    const bool was_idle = mux_.submit(command, deadline, std::move(callback));
    const bool written_here = may_write_directly_locked(was_idle);
    if (written_here) write_directly_locked(read);
    // Written here, the command still needs the I/O thread for its deadline, unless the timer
    // already armed goes off before it (its expiry re-arms for what is still pending).
    const bool needs_io_thread =
        !written_here || deadline < deadline_armed_at_.load(std::memory_order_relaxed);
    if (deadline < earliest_new_deadline_) earliest_new_deadline_ = deadline;
    post_kick = needs_io_thread && !kick_posted_;
    if (post_kick) kick_posted_ = true;
  }
  if (post_kick) asio::post(io_, [self = shared_from_this()] { self->kick(); });
}

void Connection::submit_group(std::span<const Command* const> commands, Clock::time_point deadline,
                              std::vector<ReplyCallback> callbacks) {
  bool post_kick = false;
  {
    std::unique_lock lock(mutex_);
    if (state_ == State::closed) {
      lock.unlock();
      for (auto& callback : callbacks) {
        if (callback) callback(make_error_code(errc::shutdown), Reply{});
      }
      return;
    }
    mux_.submit_group(commands, deadline, callbacks);
    if (deadline < earliest_new_deadline_) earliest_new_deadline_ = deadline;
    post_kick = !kick_posted_;
    if (post_kick) kick_posted_ = true;
  }
  if (post_kick) asio::post(io_, [self = shared_from_this()] { self->kick(); });
}

// Only a caller outside the I/O thread gains by writing itself (the I/O thread batches what it
// is handed, which is what pipelining needs), and only on an idle plain-TCP connection: a TLS
// stream is not safe to use from two threads, and a queue in front must go out first.
bool Connection::may_write_directly_locked(bool pipeline_was_idle) const {
  return pipeline_was_idle && !tls_ && !options_.subscriber && state_ == State::ready &&
         !io_.get_executor().running_in_this_thread();
}

// Called with mutex_ held, with the pipeline holding just the one command just submitted. A
// write the socket cannot take at once (a full send buffer, or an error the I/O thread then
// reports) is handed to the I/O thread as an ordinary write of the rest.
void Connection::write_directly_locked(ReadSlot* read) {
  mux_.start_write(write_buffer_);
  const auto sent = ::send(socket_.native_handle(), write_buffer_.data(), write_buffer_.size(),
                           MSG_DONTWAIT | MSG_NOSIGNAL);
  const auto taken = sent > 0 ? static_cast<std::size_t>(sent) : std::size_t{0};
  if (taken == write_buffer_.size()) {
    mux_.write_done();
    if (read != nullptr) take_caller_read_locked(*read);
    return;
  }
  write_buffer_.erase(0, taken);
  asio::post(io_,
             [self = shared_from_this(), epoch = ready_epoch_] { self->write_remainder(epoch); });
}

void Connection::write_remainder(std::uint64_t ready_epoch) {
  {
    std::lock_guard lock(mutex_);
    // The connection broke since: its failure dropped this write (and the commands with it).
    if (ready_epoch != ready_epoch_ || state_ != State::ready) return;
  }
  start_write();
}

void Connection::kick() {
  Clock::time_point earliest;
  {
    std::lock_guard lock(mutex_);
    kick_posted_ = false;
    earliest = std::exchange(earliest_new_deadline_, Clock::time_point::max());
  }
  arm_deadline_timer_if_earlier(earliest);
  flush();
}

void Connection::flush(bool write_finished) {
  std::unique_lock lock(mutex_);
  if (write_finished) mux_.write_done();
  if (state_ != State::ready || !mux_.start_write(write_buffer_)) return;
  lock.unlock();
  start_write();
}

// Writes write_buffer_ (the pipeline says a write is under way, so nothing else touches it until
// this completes).
void Connection::start_write() {
  transport_write(write_buffer_, [self = shared_from_this(), generation = generation_](
                                     std::error_code ec, std::size_t) {
    if (generation != self->generation_) return;
    if (ec) return self->on_failure(make_error_code(errc::connection_lost));
    self->flush(/*write_finished=*/true);
  });
}

void Connection::arm_deadline_timer_if_earlier(Clock::time_point deadline) {
  if (deadline >= deadline_armed_at_.load(std::memory_order_relaxed)) return;
  deadline_armed_at_.store(deadline, std::memory_order_relaxed);
  deadline_timer_.expires_at(deadline);
  deadline_timer_.async_wait([self = shared_from_this()](std::error_code ec) {
    if (ec) return;
    self->on_deadline_timer();
  });
}

void Connection::on_deadline_timer() {
  // Before the scan below (under mutex_): a command submit() wrote itself after the scan sees
  // max here and asks the I/O thread to arm for it; one written before it is found by the scan.
  deadline_armed_at_.store(Clock::time_point::max(), std::memory_order_relaxed);
  Multiplexer::Expiry expiry;
  {
    std::lock_guard lock(mutex_);
    expiry = mux_.on_deadline(Clock::now(), state_ == State::ready);
    if (expiry.front_expired) wake_locked(reading_.on_front_expired());  // its reader stops
  }
  for (auto& callback : expiry.expired) callback(make_error_code(errc::timeout), Reply{});
  // Sent commands that timed out at separate deadlines with nothing read in between: the
  // connection stays open but never answers (half-open TCP, a peer that lost its other side),
  // which the kernel does not notice in time. Commands still waiting on it fail with
  // connection_lost (they may have run) and the usual reconnect follows.
  if (expiry.presumed_dead) {
    last_error_ = "no reply to " + std::to_string(Multiplexer::kSilentTimeoutsBeforeReconnect) +
                  " timed-out commands in a row: connection presumed dead";
    return on_failure(make_error_code(errc::connection_lost));
  }
  if (expiry.next != Clock::time_point::max()) arm_deadline_timer_if_earlier(expiry.next);
}

void Connection::on_failure(std::error_code ec) {
  std::vector<ReplyCallback> lost;
  bool was_ready = false;
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return;
    was_ready = state_ == State::ready;
    state_ = State::idle;
    ++ready_epoch_;
    // A caller reading this socket stops; its command fails below with the others.
    wake_locked(reading_.on_connection_lost());
    lost = mux_.on_connection_lost();
  }
  ++generation_;  // outstanding reads, writes and timers of the old socket become stale
  read_wait_armed_ = false;
  connect_timer_.cancel();
  resolver_.cancel();
  std::error_code ignored;
  lowest_socket().close(ignored);
  // Sent commands may or may not have run; only the caller can decide whether to retry.
  // Garbage from the server is reported as such, not as an anonymous lost connection.
  const auto lost_ec =
      ec == errc::protocol_error ? ec : std::error_code(make_error_code(errc::connection_lost));
  for (auto& callback : lost) callback(lost_ec, Reply{});
  if (on_first_attempt_) std::exchange(on_first_attempt_, nullptr)(ec);
  if (was_ready && state_handler_) state_handler_(false);
  schedule_reconnect();
}

void Connection::schedule_reconnect() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return;
  }
  const auto delay = reconnect_delay_;
  reconnect_delay_ =
      std::min(std::max(delay * 2, kReconnectFirstBackoff), options_.reconnect_max_delay);
  reconnect_timer_.expires_after(delay);
  reconnect_timer_.async_wait([self = shared_from_this()](std::error_code ec) {
    if (!ec) self->connect();
  });
}

void Connection::fail_all(std::error_code ec) {
  std::vector<ReplyCallback> failed;
  {
    std::lock_guard lock(mutex_);
    failed = mux_.take_all();
  }
  for (auto& callback : failed) callback(ec, Reply{});
}

std::size_t Connection::cancel_unsent(std::error_code ec) {
  std::vector<ReplyCallback> taken;
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return 0;
    taken = mux_.cancel_unsent();
  }
  for (auto& callback : taken) callback(ec, Reply{});
  return taken.size();
}

void Connection::close() {
  {
    std::lock_guard lock(mutex_);
    if (state_ == State::closed) return;
    state_ = State::closed;
    ++ready_epoch_;
    wake_locked(reading_.on_shutdown());
  }
  ++generation_;
  read_wait_armed_ = false;
  std::error_code ignored;
  connect_timer_.cancel();
  reconnect_timer_.cancel();
  deadline_timer_.cancel();
  resolver_.cancel();
  lowest_socket().close(ignored);
  fail_all(make_error_code(errc::shutdown));
  if (on_first_attempt_) std::exchange(on_first_attempt_, nullptr)(make_error_code(errc::shutdown));
  state_handler_ = nullptr;
  push_handler_ = nullptr;
}

}  // namespace redisson::detail
