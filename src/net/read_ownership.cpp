#include "net/read_ownership.hpp"

#include <utility>

namespace redisson::detail {

ReadOwnership::Grant ReadOwnership::take_for_caller(bool wants) noexcept {
  // Not while the I/O thread reads (the caller would take replies from the middle of its
  // batch), nor before it delivered what the last caller handed back (they answer commands
  // sent before this caller's).
  if (!caller_reads_ || !wants || mode_ != Mode::io_thread) return {};
  mode_ = Mode::caller;
  io_woke_ = false;
  return Grant{++token_, std::exchange(wake_pending_, false)};
}

void ReadOwnership::hand_over(std::uint64_t token, Reply&& reply) {
  if (!held_by(token)) return;  // its reading was taken back: those commands failed with it
  handed_.push_back(std::move(reply));
}

ReadOwnership::HandBack ReadOwnership::on_caller_done(std::uint64_t token, CallerEnd end) noexcept {
  if (!held_by(token)) return HandBack::nothing;
  garbage_ = end == CallerEnd::garbage;
  const bool io_work = !handed_.empty() || garbage_;
  mode_ = io_work ? Mode::handing_back : Mode::io_thread;
  const bool io_woke = std::exchange(io_woke_, false);
  if (io_work || end == CallerEnd::stream_ended) return HandBack::read_cycle;
  // The I/O thread's wait fired while the caller read, and it re-armed it: data that came
  // before the re-arming and that the caller left unread would not be reported again.
  return io_woke ? HandBack::read_cycle_if_unread : HandBack::nothing;
}

ReadOwnership::IoTurn ReadOwnership::on_io_ready() {
  IoTurn turn;
  switch (mode_) {
    case Mode::caller:
      // The caller reads what woke the I/O thread; on_caller_done() looks for what it left.
      io_woke_ = true;
      turn.kind = IoTurn::Kind::wait_for_caller;
      return turn;
    case Mode::handing_back:
      turn.handed.swap(handed_);
      if (std::exchange(garbage_, false)) turn.kind = IoTurn::Kind::fail_garbage;
      break;
    case Mode::io_thread:
    case Mode::io_reading:
      break;
  }
  // Also on garbage: nobody takes the reading of a session about to be failed.
  mode_ = Mode::io_reading;
  return turn;
}

void ReadOwnership::on_io_drained() noexcept {
  if (mode_ == Mode::io_reading) mode_ = Mode::io_thread;
}

ReadOwnership::Wake ReadOwnership::on_front_expired() noexcept { return wake_caller(); }

ReadOwnership::Wake ReadOwnership::on_connection_lost() noexcept {
  const auto wake = wake_caller();
  mode_ = Mode::io_thread;
  io_woke_ = false;
  garbage_ = false;
  handed_.clear();
  return wake;
}

// One count in the eventfd is enough to end a caller's poll; the next hand-over drains it.
ReadOwnership::Wake ReadOwnership::wake_caller() noexcept {
  if (mode_ != Mode::caller || wake_pending_) return Wake::none;
  wake_pending_ = true;
  return Wake::caller;
}

}  // namespace redisson::detail
