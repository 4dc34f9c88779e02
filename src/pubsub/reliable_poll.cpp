#include "pubsub/reliable_poll.hpp"

#include <memory>
#include <utility>

namespace redisson::detail {

using Step = ReliablePoll::Step;

Step ReliablePoll::start() {
  state_ = State::joining;
  return Step::join;
}

Step ReliablePoll::joined(Outcome outcome, std::error_code ec) {
  if (state_ == State::leaving && std::exchange(leave_after_join_, false)) {
    // Removed while its first join ran: what the join made is removed again.
    if (outcome == Outcome::ok) return Step::leave;
    state_ = State::stopped;
    return Step::stopped;
  }
  if (state_ != State::joining) return state_ == State::stopped ? Step::stopped : Step::wait;
  if (outcome != Outcome::ok) {
    if (!joined_once_) {
      // The caller adding the first listener gets the error; nothing keeps running.
      failure_ = ec;
      state_ = State::stopped;
      return Step::stopped;
    }
    return on_failure(outcome, Step::join);
  }
  joined_once_ = true;
  rejoin_ = Rejoin::none;
  state_ = State::pending;
  return Step::read_pending;
}

Step ReliablePoll::pending(Outcome outcome, std::vector<ReliableEntry> entries) {
  if (state_ != State::pending) return state_ == State::stopped ? Step::stopped : Step::wait;
  return after_entries(outcome, std::move(entries));
}

Step ReliablePoll::read(Outcome outcome, std::vector<ReliableEntry> entries) {
  if (state_ != State::reading) return state_ == State::stopped ? Step::stopped : Step::wait;
  if (outcome == Outcome::interrupted) {
    // What the lost reply handed out is pending now: read it before anything newer. (A pending
    // read that fails in turn waits kRetry, so a server that is down is not hammered.)
    state_ = State::pending;
    return Step::read_pending;
  }
  return after_entries(outcome, std::move(entries));
}

Step ReliablePoll::after_entries(Outcome outcome, std::vector<ReliableEntry> entries) {
  if (outcome != Outcome::ok) return on_failure(outcome, Step::read_pending);
  ack_.clear();
  std::vector<ReliableEntry> fresh;
  fresh.reserve(entries.size());
  for (auto& entry : entries) {
    if (last_ && !(*last_ < entry.id)) {
      ack_.push_back(entry.id);  // delivered already: its acknowledgement was lost
    } else {
      fresh.push_back(std::move(entry));
    }
  }
  delivery_ = std::make_shared<const std::vector<ReliableEntry>>(std::move(fresh));
  if (!delivery_->empty()) {
    state_ = State::delivering;
    return Step::deliver;
  }
  if (!ack_.empty()) {
    state_ = State::finishing;
    return Step::finish;
  }
  // Nothing pending: wait for new entries. A wait that ended with nothing waits again.
  state_ = State::reading;
  return Step::read_new;
}

Step ReliablePoll::delivered() {
  if (state_ != State::delivering && state_ != State::draining) {
    return state_ == State::stopped ? Step::stopped : Step::wait;
  }
  for (const auto& entry : *delivery_) ack_.push_back(entry.id);
  last_ = delivery_->back().id;
  delivery_.reset();
  if (state_ == State::draining) {
    state_ = State::stopped;
    return Step::acknowledge;
  }
  state_ = State::finishing;
  return Step::finish;
}

Step ReliablePoll::finished(Outcome update, bool registered, Outcome pending,
                            std::vector<ReliableEntry> entries) {
  if (state_ != State::finishing) return state_ == State::stopped ? Step::stopped : Step::wait;
  ack_.clear();
  if (update == Outcome::ok && !registered) return join_again(Rejoin::expired);
  state_ = State::pending;
  return after_entries(pending, std::move(entries));
}

Step ReliablePoll::on_failure(Outcome outcome, Step retry) {
  switch (outcome) {
    case Outcome::no_group:
      return join_again(Rejoin::group_lost);
    case Outcome::ended:
      state_ = State::stopped;
      return Step::stopped;
    case Outcome::ok:
    case Outcome::interrupted:
    case Outcome::failed:
      break;
  }
  retry_step_ = retry;
  state_ = State::waiting;
  return Step::retry;
}

Step ReliablePoll::join_again(Rejoin why) {
  rejoin_ = why;
  state_ = State::joining;
  return Step::join;
}

Step ReliablePoll::retry_now() {
  if (state_ != State::waiting) return state_ == State::stopped ? Step::stopped : Step::wait;
  state_ = retry_step_ == Step::join ? State::joining : State::pending;
  return retry_step_;
}

Step ReliablePoll::stop(bool leave) {
  if (state_ == State::stopped || state_ == State::leaving) return Step::wait;
  if (leave && !joined_once_ && state_ == State::joining) {
    state_ = State::leaving;  // the first join's answer decides (joined())
    leave_after_join_ = true;
    return Step::wait;
  }
  // A subscriber that never joined has nothing to remove.
  if (leave && joined_once_) {
    state_ = State::leaving;
    return Step::leave;
  }
  if (!leave && state_ == State::delivering) {
    state_ = State::draining;  // delivered() acknowledges
    return Step::wait;
  }
  state_ = State::stopped;
  return Step::stopped;
}

Step ReliablePoll::left() {
  state_ = State::stopped;
  return Step::stopped;
}

std::string ReliablePoll::resume_from() const { return last_ ? last_->to_string() : "0"; }

}  // namespace redisson::detail
