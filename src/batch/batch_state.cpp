#include "batch/batch_state.hpp"

#include <string>
#include <utility>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

Status batch_refusal(std::string_view what) {
  return {make_error_code(errc::invalid_argument),
          "batch: " + std::string(what) + " cannot be part of a batch"};
}

Status blocking_in_batch_refusal() {
  return {make_error_code(errc::invalid_argument),
          "batch: the blocking form of an operation of an object bound to a batch has no "
          "result before Batch::execute(); use its async form"};
}

void BatchState::add(const Command& command, ReplyCallback callback) {
  {
    std::lock_guard lock(mutex_);
    if (phase_ == Phase::open) {
      entries_.push_back(BatchEntry{command, std::nullopt, std::move(callback)});
      return;
    }
  }
  // Executed or discarded: an operation's later command (sent after an earlier reply) would
  // run outside the batch.
  callback(make_error_code(errc::invalid_argument), Reply{});
}

void BatchState::add(ScriptCall call, ReplyCallback callback) {
  {
    std::lock_guard lock(mutex_);
    if (phase_ == Phase::open) {
      entries_.push_back(
          BatchEntry{std::move(call.command), std::move(call.script), std::move(callback)});
      return;
    }
  }
  callback(make_error_code(errc::invalid_argument), Reply{});
}

Status BatchState::take(std::vector<BatchEntry>& entries) {
  std::lock_guard lock(mutex_);
  if (phase_ == Phase::executing) {
    return {make_error_code(errc::invalid_argument), "batch: executed already"};
  }
  if (phase_ == Phase::closed) {
    return {make_error_code(errc::invalid_argument), "batch: discarded or executed already"};
  }
  phase_ = Phase::executing;
  entries.swap(entries_);
  return {};
}

BatchState::~BatchState() {
  try {
    discard();
  } catch (...) {
    // No memory to complete a handler with: it is dropped, as the process is about to be.
  }
}

void BatchState::discard() {
  std::vector<BatchEntry> dropped;
  {
    std::lock_guard lock(mutex_);
    phase_ = Phase::closed;
    dropped.swap(entries_);
  }
  for (auto& entry : dropped) entry.callback(make_error_code(errc::invalid_argument), Reply{});
}

std::size_t BatchState::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace redisson::detail
