// A blocking call's right to read its own reply (src/net/connection.hpp, "Reads").
//
// The blocking form of a call waits on its thread while the I/O thread reads the reply and
// wakes it: two thread wake-ups per round trip where a single-threaded client has one. When
// the command went out on an idle connection (written by the caller itself), the caller may
// instead read the reply from the socket and run the reply's callback on its own thread.
//
// The mode is explicit: the blocking token makes a ReadSlot on the caller's stack and hands a
// pointer to the operation's start (async_op passes it to a start that takes a `ReadSlot*`; it
// is null for every other token). Only a start whose reply callbacks may all run on any thread
// takes one (Client::execute, an object's one-command operation, a lock's first attempt, an
// unlock); it passes the slot with the one command it submits (ClientCore::submit / eval ->
// Router::submit -> Connection::submit), and calls read_held() right after. A resend, a
// redirect or a group's several commands pass none, so no other command is ever read by a
// caller. A slot lives only while its start runs: the reading it took and did not use goes
// back to the I/O thread when it ends, before the caller waits.
#pragma once

#include <cstdint>
#include <memory>

namespace redisson::detail {

class Connection;

class ReadSlot {
 public:
  ReadSlot() noexcept = default;
  /// Gives back a reading taken and never used (the start threw after its command went out),
  /// or the I/O thread would never read that connection again.
  ~ReadSlot();
  ReadSlot(const ReadSlot&) = delete;
  ReadSlot& operator=(const ReadSlot&) = delete;

  /// True when the slot can take a connection's reading: it holds none and is not reading.
  bool open() const noexcept { return !connection_ && !reading_; }
  /// The connection gave this call the reading of its reply, under `token`.
  void hold(std::shared_ptr<Connection> connection, std::uint64_t token) noexcept;
  /// Reads the reply of the command submitted with this slot when it holds the reading;
  /// returns once its callback ran, or once the reading went back to the I/O thread.
  void read_held();

 private:
  std::shared_ptr<Connection> connection_;
  std::uint64_t token_ = 0;
  bool reading_ = false;  // in read_held(): the slot takes no second reading meanwhile
};

/// slot->read_held() when there is a slot (a blocking call's start), nothing otherwise.
inline void read_own_reply(ReadSlot* slot) {
  if (slot != nullptr) slot->read_held();
}

}  // namespace redisson::detail
