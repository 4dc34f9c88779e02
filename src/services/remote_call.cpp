// A remote call from the caller's side (redisson/services/remote_service.hpp): Redisson's
// SyncRemoteProxy/AsyncRemoteProxy flow, on the client's I/O thread.
//
//   1. the waits are registered first (so an answer cannot come before its waiter), then the
//      request is queued: remote_add.lua (HSET of its bytes, RPUSH of its id);
//   2. ack expected: the ack must come within ack_timeout. When it does not, remote_ack_again.lua
//      claims the ack key: if no worker had claimed it, the call failed (a late worker now finds
//      the key and skips the request); if one had, its ack is on the way and is waited for once
//      more (the command timeout). Then the ack key is deleted, as Java does;
//   3. result expected: the result must come within execution_timeout of the queueing.
//
// Cancellation before the ack takes the request back (remote_remove.lua) when no worker has it;
// after, it only stops waiting (a C++ worker cannot be interrupted; its answer is dropped).
//
// For TransferQueue two variations: complete_when_queued ends the call at step 1 (no result
// wait; the worker's answer lapses unread), and take_back_after takes the call back
// (remote_remove.lua) that long after it was queued, ending it as taken back when no worker had
// it, waiting on for the result when one had.
#include <asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/services/remote_service.hpp"
#include "services/remote_names.hpp"
#include "services/remote_responses.hpp"
#include "services/remote_wire.hpp"

namespace redisson::detail {

namespace {

std::int64_t epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class RemoteCallFlow : public std::enable_shared_from_this<RemoteCallFlow> {
 public:
  RemoteCallFlow(std::shared_ptr<ClientCore> core, RemoteCall call, std::string executor_id,
                 Done<RemoteCallEnd> done)
      : core_(std::move(core)),
        call_(std::move(call)),
        executor_id_(std::move(executor_id)),
        done_(std::move(done)),
        responses_(core_->service<RemoteResponses>()),
        take_back_timer_(core_->io()) {}

  void start(const CancellationPtr& cancel) {
    try {
      wire_ = remote_wire_of(*call_.codec);
      request_.id = make_request_id();
      request_.executor_id = executor_id_;
      request_.method_name = call_.method;
      request_.args = std::move(call_.args);
      request_.signature = remote_method_signature(call_.parameter_types);
      request_.options.ack_timeout_ms = count_of(call_.options.ack_timeout);
      request_.options.execution_timeout_ms = count_of(call_.options.execution_timeout);
      request_.date_ms = epoch_ms();
      if (call_.take_back_after && call_.take_back_after->count() < 0) {
        throw error(errc::invalid_argument, "remote call: a negative take-back time");
      }
      bytes_ = encode_remote_request(wire_, request_);
    } catch (const error& failure) {
      return finish(status_of_error(failure), {});
    }
    queue_ = remote_request_queue(call_.service, call_.interface_name);
    response_queue_ = remote_response_queue(executor_id_);
    const auto now = Clock::now();
    if (call_.options.ack_timeout && !call_.complete_when_queued) {
      wait_ack(now + *call_.options.ack_timeout, true);
    } else {
      acked_ = true;
    }
    if (call_.options.execution_timeout && !call_.complete_when_queued) {
      result_wait_ = responses_.wait(
          response_queue_, wire_, request_.id, RemoteResponses::Kind::result,
          now + *call_.options.execution_timeout,
          [self = shared_from_this()](Status status, std::optional<RemoteReplyMessage> message) {
            self->on_result(std::move(status), std::move(message));
          });
    }
    if (cancel) {
      cancel->on_request([weak = weak_from_this(), core = core_] {
        core->run_on_io([weak] {
          if (auto self = weak.lock()) self->cancelled();
        });
      });
    }
    eval_reply(core_, lua::remote_add({queue_, remote_tasks_hash(queue_)}, {request_.id, bytes_}),
               [self = shared_from_this()](const Status& status, const Reply&) {
                 if (status) return self->finish(status, {});
                 self->queued_ = true;
                 if (self->finished_) return self->take_back();  // cancelled meanwhile
                 if (self->call_.take_back_after && !self->taken_) self->schedule_take_back();
                 self->maybe_done();
               });
  }

 private:
  static std::optional<std::int64_t> count_of(std::optional<std::chrono::milliseconds> wait) {
    if (!wait) return std::nullopt;
    if (wait->count() < 0) {
      throw error(errc::invalid_argument, "remote call: a negative timeout");
    }
    return wait->count();
  }

  void schedule_take_back() {
    if (call_.take_back_after->count() == 0) return try_take_back();
    take_back_timer_.expires_after(*call_.take_back_after);
    take_back_timer_.async_wait([self = shared_from_this()](std::error_code ec) {
      if (!ec) self->try_take_back();
    });
  }

  // A worker that has the call answers it (its result is waited for); one nobody took is gone.
  void try_take_back() {
    if (finished_ || taken_) return;
    eval_reply(core_, lua::remote_remove({queue_, remote_tasks_hash(queue_)}, {request_.id}),
               [self = shared_from_this()](const Status& status, const Reply& reply) {
                 if (self->finished_) return;
                 if (status) return self->finish(status, {});
                 if (reply.integer == 1) return self->finish({}, RemoteCallEnd{{}, true});
                 self->taken_ = true;
               });
  }

  void wait_ack(Clock::time_point deadline, bool first) {
    ack_wait_ =
        responses_.wait(response_queue_, wire_, request_.id, RemoteResponses::Kind::ack, deadline,
                        [self = shared_from_this(), first](
                            Status status, const std::optional<RemoteReplyMessage>&) {
                          self->on_ack(std::move(status), first);
                        });
  }

  void on_ack(Status status, bool first) {
    ack_wait_ = 0;
    if (finished_) return;
    if (!status) {
      acked_ = true;
      taken_ = true;
      // The ack key served its purpose; Java deletes it too (it would lapse on its own).
      submit_all(core_, {Command{"DEL", remote_ack_key(call_.service, request_.id)}},
                 [](const Status&, const std::vector<Reply>&) {});
      return maybe_done();
    }
    if (status.code != make_error_code(errc::timeout) || !first) {
      if (status.code == make_error_code(errc::timeout)) status = ack_timeout_status();
      return finish(std::move(status), {});
    }
    eval_reply(core_,
               lua::remote_ack_again({remote_ack_key(call_.service, request_.id)},
                                     {std::to_string(*request_.options.ack_timeout_ms)}),
               [self = shared_from_this()](const Status& again, const Reply& reply) {
                 if (self->finished_) return;
                 if (again) return self->finish(again, {});
                 if (reply.integer == 0) return self->finish(self->ack_timeout_status(), {});
                 self->wait_ack(Clock::now() + self->core_->config().command_timeout, false);
               });
  }

  Status ack_timeout_status() const {
    return Status(make_error_code(errc::timeout),
                  "remote call " + call_.interface_name + "." + call_.method +
                      ": no worker took it within " +
                      std::to_string(*request_.options.ack_timeout_ms) + " ms (no ack)");
  }

  void on_result(Status status, std::optional<RemoteReplyMessage> message) {
    result_wait_ = 0;
    if (finished_) return;
    if (status) {
      if (status.code == make_error_code(errc::timeout)) {
        status = Status(make_error_code(errc::timeout),
                        "remote call " + call_.interface_name + "." + call_.method +
                            ": no result within " +
                            std::to_string(*request_.options.execution_timeout_ms) + " ms");
      }
      return finish(std::move(status), {});
    }
    auto& response = std::get<RemoteResponse>(*message);
    if (response.error) {
      return finish(
          Status(make_error_code(errc::remote_failed), "remote call " + call_.interface_name + "." +
                                                           call_.method + ": " + *response.error),
          {});
    }
    result_ = std::move(response.result);
    has_result_ = true;
    acked_ = true;  // a result implies its ack
    taken_ = true;
    maybe_done();
  }

  // Done when queued, acked (or no ack asked for) and the result came (or none is expected,
  // or none is waited for).
  void maybe_done() {
    if (!queued_ || !acked_) return;
    if (call_.options.execution_timeout && !call_.complete_when_queued && !has_result_) return;
    finish({}, RemoteCallEnd{std::move(result_), false});
  }

  void cancelled() {
    if (finished_) return;
    // Taken by a worker already (its ack or its result came): only the wait stops. Not queued
    // yet: start() takes it back once it is.
    if (taken_ || !queued_) return finish(aborted(), {});
    // Not taken yet, perhaps: take it back, so no worker runs it later.
    finish(aborted(), {});
    take_back();
  }

  void take_back() {
    eval_reply(core_, lua::remote_remove({queue_, remote_tasks_hash(queue_)}, {request_.id}),
               [](const Status&, const Reply&) {});
  }

  static Status aborted() { return Status(make_error_code(asio::error::operation_aborted)); }

  void finish(Status status, RemoteCallEnd end) {
    if (finished_) return;
    finished_ = true;
    take_back_timer_.cancel();
    if (ack_wait_ != 0) responses_.cancel(std::exchange(ack_wait_, 0));
    if (result_wait_ != 0) responses_.cancel(std::exchange(result_wait_, 0));
    if (done_) std::exchange(done_, nullptr)(std::move(status), std::move(end));
  }

  std::shared_ptr<ClientCore> core_;
  RemoteCall call_;
  std::string executor_id_;
  Done<RemoteCallEnd> done_;
  RemoteResponses& responses_;
  asio::steady_timer take_back_timer_;
  RemoteWire wire_ = RemoteWire::kryo5;
  RemoteRequest request_;
  std::string bytes_;
  std::string queue_;
  std::string response_queue_;
  std::uint64_t ack_wait_ = 0;
  std::uint64_t result_wait_ = 0;
  std::optional<std::string> result_;
  bool has_result_ = false;
  bool queued_ = false;
  bool acked_ = false;  // the ack came, or none is asked for
  bool taken_ = false;  // a worker's ack or result came
  bool finished_ = false;
};

}  // namespace

void start_remote_call(const std::shared_ptr<ClientCore>& core, RemoteCall call,
                       const CancellationPtr& cancel, Done<std::optional<std::string>> done) {
  start_remote_call_with_end(core, std::move(call), cancel,
                             [done = std::move(done)](Status status, RemoteCallEnd end) mutable {
                               done(std::move(status), std::move(end.result));
                             });
}

void start_remote_call_with_end(const std::shared_ptr<ClientCore>& core, RemoteCall call,
                                const CancellationPtr& cancel, Done<RemoteCallEnd> done) {
  auto executor_id = std::move(call.executor_id);
  auto flow = std::make_shared<RemoteCallFlow>(core, std::move(call), std::move(executor_id),
                                               std::move(done));
  core->run_on_io([flow, cancel] { flow->start(cancel); });
}

}  // namespace redisson::detail
