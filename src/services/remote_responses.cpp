#include "services/remote_responses.hpp"

#include <asio/error.hpp>
#include <utility>
#include <variant>
#include <vector>

#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "redisson/detail/blocking_op.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

RemoteResponses::RemoteResponses(ClientCore& core) : core_(core) {}

RemoteResponses::~RemoteResponses() = default;

std::uint64_t RemoteResponses::wait(const std::string& queue, RemoteWire wire,
                                    const std::string& request_id, Kind kind,
                                    Clock::time_point deadline, Arrived arrived) {
  if (closed_) {
    arrived(Status(errc::shutdown), std::nullopt);
    return 0;
  }
  const auto handle = next_handle_++;
  auto& waiter = waiters_[handle];
  waiter.queue = queue;
  waiter.request_id = request_id;
  waiter.kind = kind;
  waiter.arrived = std::move(arrived);
  waiter.timer = std::make_unique<asio::steady_timer>(core_.io());
  waiter.timer->expires_at(deadline);
  waiter.timer->async_wait([this, handle](std::error_code ec) {
    if (!ec) finish(handle, Status(errc::timeout), std::nullopt);
  });
  auto& entry = queues_[queue];
  entry.wire = wire;
  entry.waiters.emplace(request_id, handle);
  if (!entry.call) poll(queue);
  return handle;
}

void RemoteResponses::cancel(std::uint64_t handle) {
  finish(handle, Status(make_error_code(asio::error::operation_aborted)), std::nullopt);
}

void RemoteResponses::finish(std::uint64_t handle, Status status,
                             std::optional<RemoteReplyMessage> message) {
  const auto found = waiters_.find(handle);
  if (found == waiters_.end()) return;
  Waiter waiter = std::move(found->second);
  waiters_.erase(found);
  waiter.timer->cancel();
  const auto queue = queues_.find(waiter.queue);
  if (queue != queues_.end()) {
    auto [first, last] = queue->second.waiters.equal_range(waiter.request_id);
    for (auto it = first; it != last; ++it) {
      if (it->second == handle) {
        queue->second.waiters.erase(it);
        break;
      }
    }
    // Nobody waits on the list any more: its BLPOP ends (an element it was handed first still
    // arrives, and is dropped as no one's).
    if (queue->second.waiters.empty() && queue->second.call) {
      core_.blocking_pool().cancel(queue->second.call);
    }
  }
  waiter.arrived(std::move(status), std::move(message));
}

void RemoteResponses::poll(const std::string& queue) {
  auto command = wait_last_command("BLPOP", queue, {}, std::nullopt, "remote call");
  BlockingPool::Request request;
  request.args = std::move(command.args);
  request.timeout_index = command.timeout_index;
  request.key_index = command.key_index;
  request.callback = [this, queue](std::error_code ec, const Reply& reply) {
    arrived(queue, ec, reply);
  };
  queues_[queue].call = core_.blocking_pool().run(std::move(request));
}

void RemoteResponses::arrived(const std::string& queue, std::error_code ec, const Reply& reply) {
  const auto entry = queues_.find(queue);
  if (entry == queues_.end()) return;
  entry->second.call.reset();
  const auto status = blocking_status(ec, reply);
  if (ec == asio::error::operation_aborted) {
    // Our own cancel (the list had no waiter left); a waiter that came meanwhile gets a new
    // BLPOP below.
  } else if (status) {
    // The loop failed past the pool's own retries (or the client is closing): the waiters of
    // this list hear it, rather than wait for their deadlines.
    std::vector<std::uint64_t> failed;
    for (const auto& [id, handle] : entry->second.waiters) failed.push_back(handle);
    for (const auto handle : failed) finish(handle, status, std::nullopt);
  } else if (reply.is_aggregate() && reply.elements.size() == 2) {
    try {
      auto message = decode_remote_reply(entry->second.wire, reply.elements[1].str);
      const std::string id = std::visit([](const auto& m) -> std::string { return m.id; }, message);
      const bool is_result = std::holds_alternative<RemoteResponse>(message);
      const bool is_ack = std::holds_alternative<RemoteAck>(message);
      std::vector<std::uint64_t> answered;  // a cancel response is nobody's: calls here wait
      auto [first, last] = entry->second.waiters.equal_range(id);  // for results only
      for (auto it = first; it != last; ++it) {
        const auto kind = waiters_.at(it->second).kind;
        if (is_result || (is_ack && kind == Kind::ack)) answered.push_back(it->second);
      }
      for (const auto handle : answered) finish(handle, {}, message);
    } catch (const error& failure) {
      report_failure(core_.config(),
                     error(failure.code(), "remote service: a message on " + queue +
                                               " could not be read: " + failure.what()));
    }
  }
  const auto again = queues_.find(queue);
  if (again == queues_.end()) return;
  if (again->second.waiters.empty()) {
    queues_.erase(again);
  } else if (!again->second.call) {
    poll(queue);
  }
}

void RemoteResponses::closing() noexcept {
  try {
    closed_ = true;
    std::vector<std::uint64_t> all;
    for (const auto& [handle, waiter] : waiters_) all.push_back(handle);
    for (const auto handle : all) finish(handle, Status(errc::shutdown), std::nullopt);
  } catch (const std::exception&) {
    // No memory: the waiters' timers and the connections end with the client anyway.
  }
}

}  // namespace redisson::detail
