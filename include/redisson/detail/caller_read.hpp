// A blocking caller that reads its own reply (src/net/connection.hpp, "Reads").
//
// The blocking form of a call waits on its thread while the I/O thread reads the reply and
// wakes it: two thread wake-ups per round trip where a single-threaded client has one. When
// the command went out on an idle connection (written by the caller itself), the caller may
// instead read the reply from the socket and run the reply's callback on its own thread.
//
// The blocking token opens a CallerRead around an operation's start; a connection the start
// writes to idle hands this thread its reading. Only an operation whose reply callbacks may
// all run on any thread calls read_held() right after submitting (Client::execute, a lock's
// first attempt, an unlock); for every other one the reading goes back to the I/O thread when
// the start returns, before the caller waits.
#pragma once

#include <cstdint>
#include <memory>

namespace redisson::detail {

class Connection;

class CallerRead {
 public:
  CallerRead() noexcept;
  ~CallerRead();
  CallerRead(const CallerRead&) = delete;
  CallerRead& operator=(const CallerRead&) = delete;

  /// True when the call open on this thread can take a connection's reading (it holds none).
  static bool wanted() noexcept;
  /// The connection gave this thread the reading of its reply, under `token`.
  static void hold(std::shared_ptr<Connection> connection, std::uint64_t token) noexcept;
  /// Reads the reply of the command just submitted when this thread holds the reading;
  /// returns once its callback ran, or once the reading went back to the I/O thread.
  static void read_held();

 private:
  std::shared_ptr<Connection> connection_;
  std::uint64_t token_ = 0;
  bool reading_ = false;  // in read_held(): a callback's own submit takes no second reading
  CallerRead* previous_;
};

}  // namespace redisson::detail
