// The caller's side of a remote service: the acks and results of this client's calls arrive on
// its response lists ({remote_response}:<executor id>), whichever call they answer. One loop per
// list, while a call waits on it, takes them with BLPOP and hands each to the waiter of its
// request id (Redisson's BaseRemoteProxy.pollResponse). One registry per client (a
// ClientService). Everything runs on the client's I/O thread.
//
// A result answers its request's ack too (Java does the same: an ack that was lost or late is
// implied by the result that follows it). A message no waiter wants (its caller gave up) is
// dropped, as in Java.
#pragma once

#include <asio/steady_timer.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "client/blocking_pool.hpp"
#include "client/client_services.hpp"
#include "net/multiplexer.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/detail/unique_function.hpp"
#include "services/remote_wire.hpp"

namespace redisson::detail {

class ClientCore;

class RemoteResponses : public ClientService {
 public:
  enum class Kind { ack, result };
  /// The message (an ack or a response), or why none came: errc::timeout at the deadline,
  /// operation_aborted after cancel(), errc::shutdown, or the loop's failure.
  using Arrived = UniqueFunction<void(Status, std::optional<RemoteReplyMessage>)>;

  explicit RemoteResponses(ClientCore& core);
  ~RemoteResponses() override;

  /// Waits for the `kind` message of `request_id` on `queue` until `deadline`; `arrived` runs
  /// once, on the I/O thread. Returns a handle for cancel(). I/O thread.
  std::uint64_t wait(const std::string& queue, RemoteWire wire, const std::string& request_id,
                     Kind kind, Clock::time_point deadline, Arrived arrived);
  /// Ends the wait `handle` with operation_aborted (nothing when it has ended). I/O thread.
  void cancel(std::uint64_t handle);

  void closing() noexcept override;

 private:
  struct Waiter {
    std::string queue;
    std::string request_id;
    Kind kind = Kind::ack;
    Arrived arrived;
    std::unique_ptr<asio::steady_timer> timer;
  };
  struct Queue {
    RemoteWire wire = RemoteWire::kryo5;
    std::multimap<std::string, std::uint64_t> waiters;  // request id -> handle
    BlockingPool::CallPtr call;
  };

  void poll(const std::string& queue);
  void arrived(const std::string& queue, std::error_code ec, const Reply& reply);
  /// Ends the wait `handle` (removing it) with `status` / `message`.
  void finish(std::uint64_t handle, Status status, std::optional<RemoteReplyMessage> message);

  ClientCore& core_;
  std::uint64_t next_handle_ = 1;
  std::map<std::uint64_t, Waiter> waiters_;
  std::map<std::string, Queue> queues_;
  bool closed_ = false;
};

}  // namespace redisson::detail
