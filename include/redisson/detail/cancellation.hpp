// Asio per-operation cancellation, as the library's operations see it.
//
// When a caller's completion handler has a connected cancellation slot (`co_await (op || timer)`,
// asio::bind_cancellation_slot, asio::experimental::parallel_group), the operation gets a
// Cancellation. Emitting the signal calls request(), on the emitter's thread; the operation
// registered what to do then (on_request: usually "post a stop to the I/O thread"). An operation
// that ends holding something (a lock, permits) registers an undo with on_success_undo(): if the
// signal arrived before the caller's handler ran, the completion releases what was taken and
// reports operation_aborted instead, so nothing stays held that the caller never learns of.
#pragma once

#include <memory>
#include <mutex>
#include <utility>

#include "redisson/detail/unique_function.hpp"

namespace redisson::detail {

class Cancellation {
 public:
  /// The caller asked to cancel. Runs the registered action once (now, on this thread).
  void request() {
    UniqueFunction<void()> action;
    {
      std::lock_guard lock(mutex_);
      if (requested_) return;
      requested_ = true;
      action = std::move(on_request_);
    }
    if (action) action();
  }

  bool requested() const {
    std::lock_guard lock(mutex_);
    return requested_;
  }

  /// What request() does; runs at once (on this thread) when the request already came.
  void on_request(UniqueFunction<void()> action) {
    {
      std::lock_guard lock(mutex_);
      if (!requested_) {
        on_request_ = std::move(action);
        return;
      }
    }
    action();
  }

  /// Gives back what a successful completion took, should the request beat the handler.
  void on_success_undo(UniqueFunction<void()> undo) {
    std::lock_guard lock(mutex_);
    undo_ = std::move(undo);
  }

  /// At completion, on the handler's executor: true when the caller cancelled before the handler
  /// ran and a success had to be undone (the undo has been started).
  bool undo_if_requested() {
    UniqueFunction<void()> undo;
    {
      std::lock_guard lock(mutex_);
      if (!requested_ || !undo_) return false;
      undo = std::move(undo_);
    }
    undo();
    return true;
  }

 private:
  mutable std::mutex mutex_;
  bool requested_ = false;
  UniqueFunction<void()> on_request_;
  UniqueFunction<void()> undo_;
};

using CancellationPtr = std::shared_ptr<Cancellation>;

}  // namespace redisson::detail
