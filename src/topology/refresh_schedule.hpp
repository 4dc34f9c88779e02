// When a router that learns its topology from the servers (Cluster, Sentinel) learns it again:
// every scan interval, and whenever something it saw asks for it (a lost connection, a
// redirection, an announcement), from any thread. Each refresh runs Router::refresh(nullptr) on
// the I/O thread, and only while the router still exists.
//
// Cost: one timer; a request is one post to the I/O thread.
#pragma once

#include <asio/io_context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <memory>

#include "topology/router.hpp"

namespace redisson::detail {

class RefreshSchedule {
 public:
  RefreshSchedule(asio::io_context& io, std::chrono::milliseconds interval);

  /// Refreshes `router` on the I/O thread soon, unless it is gone by then. From any thread.
  void request(std::weak_ptr<Router> router);
  /// request(), asking `first` first (Router::refresh_asking). From any thread.
  void request_asking(std::weak_ptr<Router> router, ServerAddress first);
  /// Refreshes `router` every interval from now on, until cancel() (I/O thread). The router owns
  /// this schedule.
  void start(std::weak_ptr<Router> router);
  /// Stops the periodic refresh (I/O thread).
  void cancel();

 private:
  asio::io_context& io_;
  asio::steady_timer timer_;
  std::chrono::milliseconds interval_;
};

}  // namespace redisson::detail
