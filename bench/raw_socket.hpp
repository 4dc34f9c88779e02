// A blocking RESP2 connection with no client library behind it, for the benchmarks' floors: what
// the same Redis round trips cost when nothing but a socket and the calling thread carry them.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include "bench.hpp"

namespace redisson_bench {

/// One TCP connection to the benchmarked server, logged in as the client's URL says, closed on
/// destruction. Replies are read whole; a server that stops answering for 10 s ends the wait
/// with an exception, never a hang. Not over TLS (the constructor throws).
class RawConnection {
 public:
  explicit RawConnection(const Options& options);
  ~RawConnection();
  RawConnection(RawConnection&& other) noexcept;
  RawConnection& operator=(RawConnection&&) = delete;
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  /// Sends one command; its reply is read by next_reply().
  void send(std::initializer_list<std::string_view> args);
  /// The next reply's last element as text: an integer's digits, a status or bulk string, an
  /// array's last element (BLPOP's value, a message's payload); "" for a nil. Only those shapes
  /// (no nested arrays). A server error throws std::runtime_error.
  std::string next_reply();
  /// send() then next_reply().
  std::string command(std::initializer_list<std::string_view> args);

 private:
  void receive();

  int fd_ = -1;
  std::string buffer_;
};

}  // namespace redisson_bench
