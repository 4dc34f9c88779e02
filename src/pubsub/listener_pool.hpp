// The threads users' listeners run on (topics, reliable topics), one pool per client (a
// ClientService), started with the first listener.
//
// Why threads of their own: a listener is user code and may be slow or block; on the I/O thread
// it would stall every command and every lock's wake-up of the client. Each listener gets a
// strand of the pool: its calls run in the order they were posted, one at a time, while two
// listeners run in parallel (Config::listener_threads of them at once).
//
// Threading: strand() and run() may be called from any thread; the hooks as ClientService says.
#pragma once

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/strand.hpp>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/client_services.hpp"
#include "redisson/config.hpp"

namespace redisson::detail {

class ClientCore;

class ListenerPool : public ClientService {
 public:
  using Strand = asio::strand<asio::io_context::executor_type>;

  explicit ListenerPool(ClientCore& core);
  ~ListenerPool() override;

  /// A new strand for one listener (starts the threads on first use).
  Strand strand();

  /// Runs one call of a listener of the `kind` ("topic", "reliable topic") `name`: what it
  /// throws goes to the error handler as errc::listener_failed, never into the pool.
  template <class Call>
  static void run(const Config& config, const char* kind, const std::string& name,
                  Call&& call) noexcept {
    try {
      call();
    } catch (...) {
      report_listener_failure(config, kind, name);
    }
  }

  void stopped() noexcept override;

 private:
  // Reports the exception being handled.
  static void report_listener_failure(const Config& config, const char* kind,
                                      const std::string& name) noexcept;

  ClientCore& core_;
  std::mutex mutex_;  // strand() may be called from any thread
  // Shared with the threads so that a thread which shuts the client down from inside a listener
  // (and so cannot join itself) keeps what it runs alive until it returns.
  std::shared_ptr<asio::io_context> io_;
  std::unique_ptr<asio::executor_work_guard<asio::io_context::executor_type>> work_;
  std::vector<std::thread> threads_;
};

}  // namespace redisson::detail
