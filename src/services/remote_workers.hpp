// The worker's side of a remote service: this client's registrations (RemoteService::
// register_service), one registry per client (a ClientService). Redisson's
// RedissonRemoteService.subscribe flow, per registration, on the client's I/O thread:
//
//   BLPOP the request list (one at a time per registration, as Java: a popped id leaves one
//   worker fewer free, and the next BLPOP starts only while one is free) -> remote_take_task.lua
//   (HGET+HDEL: the bytes, gone for everyone else) -> skip a request older than its ack timeout
//   (its caller has given up) -> ack expected: remote_ack.lua (SETNX+PEXPIRE of the ack key,
//   then the ack RPUSHed to the caller's response list; a caller that gave up claimed the key
//   first) -> the method runs on a listener thread -> result expected: the response RPUSHed
//   with the list's life set (remote_respond.lua) -> the worker is free again.
//
// A request this registration cannot serve (an unknown method or signature, arguments the codec
// cannot read) is answered with an error when a result is expected, and reported to
// Config::error_handler; a failed command is reported and the loop goes on after a second.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "client/client_services.hpp"
#include "redisson/codec.hpp"
#include "redisson/detail/cancellation.hpp"
#include "redisson/detail/status.hpp"
#include "redisson/services/remote_service.hpp"

namespace redisson::detail {

class ClientCore;

class RemoteWorkers : public ClientService {
 public:
  explicit RemoteWorkers(ClientCore& core);
  ~RemoteWorkers() override;

  /// Starts serving (any thread); false when (service, interface) is served here already.
  bool add(const std::string& service, CodecPtr codec, const std::string& interface_name,
           std::vector<RemoteMethodEntry> methods, int workers);
  /// Stops serving (any thread); false when it was not served.
  bool remove(const std::string& service, const std::string& interface_name);
  /// Runs one request of the interface here, taken within `wait` (zero: one queued already;
  /// nullopt: as long as it takes), without registering it (Java's tryExecute); `done` hears
  /// whether a method ran, once its answer was sent. `cancel` (may be null) ends the wait for a
  /// request with operation_aborted (CLIENT UNBLOCK); a request popped before the unblock took
  /// effect is run and answered as usual, so none is lost.
  void try_execute(const std::string& service, CodecPtr codec, const std::string& interface_name,
                   std::vector<RemoteMethodEntry> methods,
                   std::optional<std::chrono::milliseconds> wait, const CancellationPtr& cancel,
                   Done<bool> done);
  /// The free workers of a registration (0 when none).
  int free_workers(const std::string& service, const std::string& interface_name) const;

  void closing() noexcept override;

  class Registration;

 private:
  ClientCore& core_;
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<Registration>> registrations_;
};

}  // namespace redisson::detail
