// A TCP fault proxy for tests and the chaos run: a small forwarder on 127.0.0.1 that sits between
// a client and a redis-server and, on command, delays, blackholes or resets the traffic.
//
// `tc netem` is not available on every kernel we run on, and a fault injected inside the client
// would test the client's idea of a fault, not the network's. The proxy is a real socket pair
// per connection, so the client sees exactly what a slow, partitioned or resetting network does:
//   - set_latency(): every chunk is held for the given time before it is forwarded (per direction);
//   - block() / partition(): nothing is forwarded and nothing more is read (the kernel's socket
//     buffers then fill, as during a partition), but every socket stays open; heal() resumes
//     delivery of what was held, as TCP retransmission would;
//   - reset_all(): every open connection is closed with RST on both sides;
//   - refuse_new(): new connections are accepted and reset at once (the listening socket stays,
//     so nobody else can take the port);
//   - heal(): no latency, nothing blocked, new connections welcome.
//
// Buffers are bounded: at most `buffer_limit` bytes per connection and direction are held; past
// that the proxy stops reading until the writer catches up. One I/O thread of its own; every
// control method may be called from any thread except that one and returns once the change is in
// effect for every open connection.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace redisson::test {

/// Which way traffic flows through the proxy.
enum class Direction { client_to_server, server_to_client, both };

class FaultProxy {
 public:
  /// Listens on 127.0.0.1:<free port> and forwards each connection to target_host:target_port.
  /// Throws std::system_error when it cannot listen.
  FaultProxy(std::string target_host, int target_port, std::size_t buffer_limit = 256 * 1024);
  /// Stops (see stop()).
  ~FaultProxy();

  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  /// The port clients connect to.
  int port() const;
  /// "redis://127.0.0.1:<port>".
  std::string url() const;

  /// Holds every chunk read from now on for `latency` before forwarding it.
  void set_latency(Direction direction, std::chrono::milliseconds latency);
  /// Stops forwarding in `direction` (a one-way partition); sockets stay open, data is held.
  void block(Direction direction);
  /// block(Direction::both): a full partition.
  void partition() { block(Direction::both); }
  /// Closes every open connection with RST on both sides; data held is discarded.
  void reset_all();
  /// While true, each new connection is accepted and reset at once.
  void refuse_new(bool refuse);
  /// Removes every fault: no latency, nothing blocked, new connections accepted.
  void heal();

  /// Connections open right now (accepted, not refused, not yet closed).
  std::size_t open_connections() const;
  /// Connections accepted since start, refused ones included (a count of connect attempts).
  std::uint64_t accepted() const;
  /// Bytes delivered in `direction` (Direction::both: the sum).
  std::uint64_t bytes_forwarded(Direction direction) const;

  /// Closes the listener and every connection (RST) and joins the I/O thread. Idempotent.
  void stop();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace redisson::test
