#include "pubsub/listener_pool.hpp"

#include <exception>
#include <utility>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "redisson/error.hpp"
#include "threads/join_threads.hpp"

namespace redisson::detail {

ListenerPool::ListenerPool(ClientCore& core) : core_(core) {}

ListenerPool::~ListenerPool() { stopped(); }

ListenerPool::Strand ListenerPool::strand() {
  std::lock_guard lock(mutex_);
  if (!io_) {
    io_ = std::make_shared<asio::io_context>();
    work_ = std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(
        io_->get_executor());
    for (int i = 0; i < core_.config().listener_threads; ++i) {
      threads_.emplace_back([io = io_] { io->run(); });
    }
  }
  return asio::make_strand(*io_);
}

void ListenerPool::report_listener_failure(const Config& config, const char* kind,
                                           const std::string& name) noexcept {
  try {
    const std::string what = std::string(kind) + " '" + name + "'";
    try {
      throw;
    } catch (const error& failure) {
      report_failure(config, error(errc::listener_failed, what + ": " + failure.what()));
    } catch (const std::exception& failure) {
      report_failure(config,
                     error(errc::listener_failed, what + ": listener threw: " + failure.what()));
    } catch (...) {
      report_failure(config,
                     error(errc::listener_failed, what + ": listener threw a non-exception"));
    }
  } catch (...) {
    // Out of memory while reporting: nothing more can be said.
  }
}

// Every I/O thread has ended, so nothing posts any more: the pool finishes the calls that run
// and stops. A listener that shut the client down runs on a pool thread, which cannot join
// itself: it is detached and ends when the listener returns (it shares the io_context).
void ListenerPool::stopped() noexcept {
  std::lock_guard lock(mutex_);
  if (!io_) return;
  work_.reset();
  io_->stop();
  join_threads(threads_);
}

}  // namespace redisson::detail
