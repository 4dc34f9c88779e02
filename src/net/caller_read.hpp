// A blocking caller that reads its own reply (see Connection, "Reads").
//
// The blocking form of a call waits on its thread while the I/O thread reads the reply and
// wakes it: two thread wake-ups per round trip where a single-threaded client has one. When
// the command went out on an idle connection (written by the caller itself), the caller may
// instead read the reply from the socket and run the reply's callback on its own thread. That
// is only safe when every callback of the call's chain may run on any thread, which only the
// entry point knows: it opens a CallerRead for the call, and the code that submits the command
// calls read_held() right after submitting.
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
  CallerRead* previous_;
};

}  // namespace redisson::detail
