// The deadline clock of commands submitted while replies are being delivered.
//
// A pipelined client submits most commands from reply callbacks on the I/O thread, and each needs
// a deadline (now + command_timeout): one clock read per command was ~3 % of a pipelined
// command's client cost. While Connection delivers a read's replies, it holds a BatchClock::Scope,
// and commands submitted from those callbacks take the time the scope last read instead. The
// scope reads the clock again every slice of replies (Connection's delivery slices), so a slow
// callback shortens a later command's deadline by at most one slice's delivery time, never more.
#pragma once

#include <chrono>

namespace redisson::detail {

class BatchClock {
 public:
  using Clock = std::chrono::steady_clock;

  /// The current batch's time on this thread inside a Scope, else the clock.
  static Clock::time_point now();

  /// Marks the delivery of one read on this thread. Nested scopes keep the outer one's value
  /// after they end.
  class Scope {
   public:
    Scope();
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    /// Reads the clock again (a new slice of replies begins).
    void refresh();

   private:
    Clock::time_point previous_;
    bool had_previous_;
  };
};

}  // namespace redisson::detail
