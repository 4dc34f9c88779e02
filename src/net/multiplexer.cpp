#include "net/multiplexer.hpp"

#include <utility>

#include "net/push_message.hpp"
#include "resp/writer.hpp"

namespace redisson::detail {

bool Multiplexer::submit(const Command& command, Clock::time_point deadline,
                         ReplyCallback callback) {
  const bool was_idle = pending_.empty() && !writing_;
  const auto before = out_.size();
  resp::append_array_header(out_, command.size());
  out_.append(command.encoded_arguments());
  pending_.push_back(Pending{std::move(callback), deadline,
                             static_cast<std::uint32_t>(out_.size() - before),
                             subscriber_ && command.name() == "SUNSUBSCRIBE"});
  return was_idle;
}

void Multiplexer::submit_group(std::span<const Command* const> commands, Clock::time_point deadline,
                               std::span<ReplyCallback> callbacks) {
  auto before = out_.size();
  for (std::size_t i = 0; i < commands.size(); ++i) {
    resp::append_array_header(out_, commands[i]->size());
    out_.append(commands[i]->encoded_arguments());
    if (!callbacks[i]) continue;  // no reply: its bytes go with the next answered command's
    pending_.push_back(Pending{std::move(callbacks[i]), deadline,
                               static_cast<std::uint32_t>(out_.size() - before), false});
    before = out_.size();
  }
}

void Multiplexer::insert_sent(Clock::time_point deadline, ReplyCallback callback) {
  pending_.insert(pending_.begin() + static_cast<std::ptrdiff_t>(written_),
                  Pending{std::move(callback), deadline, 0, false});
  ++written_;
}

bool Multiplexer::start_write(std::string& buffer) {
  if (writing_ || out_.empty()) return false;
  if (cancelled_unsent_ > 0) drop_cancelled_unsent();
  if (out_.empty()) return false;
  buffer.clear();
  std::swap(buffer, out_);  // out_ keeps the buffer's capacity for the next commands
  written_ = pending_.size();
  writing_ = true;
  return true;
}

// Unsent commands that timed out must never reach the server: their caller was told they
// failed. Rebuilds the unsent bytes without them.
void Multiplexer::drop_cancelled_unsent() {
  std::string kept;
  kept.reserve(out_.size());
  std::size_t offset = 0;
  auto it = pending_.begin() + static_cast<std::ptrdiff_t>(written_);
  while (it != pending_.end()) {
    if (!it->callback) {
      offset += it->encoded_size;
      it = pending_.erase(it);
      continue;
    }
    kept.append(out_, offset, it->encoded_size);
    offset += it->encoded_size;
    ++it;
  }
  out_.swap(kept);
  cancelled_unsent_ = 0;
}

bool Multiplexer::route_replies(std::span<const Reply> replies, Routing& routing) {
  routing.callbacks.clear();
  routing.is_push.assign(replies.size(), 0);
  std::size_t answers = 0;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    const auto& reply = replies[i];
    bool push = is_push_message(reply, subscriber_);
    // A cluster node drops sharded channels whose slot left it with an sunsubscribe nobody
    // asked for: a message for the subscriber, not the answer to the next command.
    if (!push && subscriber_ && !reply.elements.empty() &&
        reply.elements.front().str == "sunsubscribe") {
      push = answers >= written_ || !pending_[answers].sunsubscribe;
    }
    routing.is_push[i] = push ? 1 : 0;
    answers += push ? 0 : 1;
  }
  if (answers > written_) return false;
  for (std::size_t i = 0; i < answers; ++i) {
    routing.callbacks.push_back(std::move(pending_.front().callback));
    pending_.pop_front();
  }
  written_ -= answers;
  return true;
}

ReplyCallback Multiplexer::complete_front() {
  auto callback = std::move(pending_.front().callback);
  pending_.pop_front();
  --written_;
  return callback;
}

Multiplexer::Expiry Multiplexer::on_deadline(Clock::time_point now, bool ready) {
  Expiry expiry;
  bool sent_expired = false;
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    auto& entry = pending_[i];
    if (!entry.callback) continue;
    if (entry.deadline <= now) {
      expiry.expired.push_back(std::move(entry.callback));
      entry.callback = nullptr;
      if (i == 0) expiry.front_expired = true;
      if (i >= written_) {
        ++cancelled_unsent_;
      } else {
        sent_expired = true;
      }
    } else if (entry.deadline < expiry.next) {
      expiry.next = entry.deadline;
    }
  }
  // A connection that stays open but never answers (half-open TCP, a peer that lost its other
  // side) is never closed by the kernel in time: commands would time out on it forever. One
  // timeout alone is a slow server.
  expiry.presumed_dead = sent_expired && ready &&
                         silent_timeouts_.fetch_add(1, std::memory_order_relaxed) + 1 >=
                             kSilentTimeoutsBeforeReconnect;
  return expiry;
}

std::vector<ReplyCallback> Multiplexer::on_connection_lost() {
  std::vector<ReplyCallback> lost;
  for (std::size_t i = 0; i < written_; ++i) {
    if (pending_.front().callback) lost.push_back(std::move(pending_.front().callback));
    pending_.pop_front();
  }
  written_ = 0;
  writing_ = false;
  return lost;
}

std::vector<ReplyCallback> Multiplexer::cancel_unsent() {
  std::vector<ReplyCallback> taken;
  // Commands written by the Connection itself (the handshake's) sit in [0, written_).
  for (std::size_t i = written_; i < pending_.size(); ++i) {
    if (pending_[i].callback) taken.push_back(std::move(pending_[i].callback));
  }
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(written_), pending_.end());
  out_.clear();
  cancelled_unsent_ = 0;
  return taken;
}

std::vector<ReplyCallback> Multiplexer::take_all() {
  std::vector<ReplyCallback> taken;
  for (auto& entry : pending_) {
    if (entry.callback) taken.push_back(std::move(entry.callback));
  }
  pending_.clear();
  written_ = 0;
  out_.clear();
  cancelled_unsent_ = 0;
  return taken;
}

}  // namespace redisson::detail
