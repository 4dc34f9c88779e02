#include "services/remote_workers.hpp"

#include <array>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include "client/blocking_pool.hpp"
#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "lua_scripts.hpp"
#include "net/multiplexer.hpp"
#include "objects/send.hpp"
#include "pubsub/listener_pool.hpp"
#include "redisson/detail/blocking_op.hpp"
#include "redisson/error.hpp"
#include "services/remote_names.hpp"
#include "services/remote_wire.hpp"

namespace redisson::detail {

namespace {

constexpr std::chrono::seconds kRetryAfterFailure{1};
// Java keeps a response list this long when the request names no execution timeout.
constexpr std::int64_t kDefaultResponseLifeMs = 60 * 1000;

std::int64_t now_epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

class RemoteWorkers::Registration : public std::enable_shared_from_this<Registration> {
 public:
  Registration(ClientCore& core, std::string service, CodecPtr codec, std::string interface_name,
               std::vector<RemoteMethodEntry> methods, int workers)
      : core_(core),
        service_(std::move(service)),
        codec_(std::move(codec)),
        wire_(remote_wire_of(*codec_)),
        interface_(std::move(interface_name)),
        queue_(remote_request_queue(service_, interface_)),
        tasks_(remote_tasks_hash(queue_)),
        free_(workers),
        retry_(core.io()) {
    for (auto& method : methods) {
      const auto signature = remote_method_signature(method.parameter_types);
      methods_.emplace(Key{method.name, signature}, std::move(method));
    }
  }

  int free_workers() const { return free_.load(std::memory_order_acquire); }

  void start() {
    core_.run_on_io([self = shared_from_this()] { self->poll(); });
  }

  /// try_execute: one request at most, taken within `wait` (zero: only one already queued;
  /// nullopt: as long as it takes); `once` hears whether a method ran, after its answer was
  /// sent. The registration then ends. `cancel` (may be null) ends the BLPOP's wait.
  void start_once(std::optional<std::chrono::milliseconds> wait, CancellationPtr cancel,
                  UniqueFunction<void(Status, bool)> once) {
    once_ = std::move(once);
    once_wait_ = wait;
    once_cancel_ = std::move(cancel);
    start();
  }

  // Any thread: no new request is taken; one running finishes and answers.
  void stop() {
    active_.store(false, std::memory_order_release);
    core_.run_on_io([self = shared_from_this()] {
      self->retry_.cancel();
      if (self->call_) self->core_.blocking_pool().cancel(self->call_);
    });
  }

 private:
  using Key = std::pair<std::string, std::array<std::int64_t, 2>>;

  bool active() const { return active_.load(std::memory_order_acquire); }

  // I/O thread: one BLPOP at a time, while a worker is free.
  void poll() {
    if (!active() || call_ || polling_retry_ || free_workers() <= 0) return;
    if (once_ && once_wait_ && once_wait_->count() == 0) return poll_once_now();
    std::optional<std::chrono::milliseconds> wait;
    if (once_) wait = once_wait_;
    auto command = wait_last_command("BLPOP", queue_, {}, wait, "remote service");
    BlockingPool::Request request;
    request.args = std::move(command.args);
    request.timeout_index = command.timeout_index;
    request.key_index = command.key_index;
    if (wait) request.until = Clock::now() + *wait;
    request.callback = [self = shared_from_this()](std::error_code ec, const Reply& reply) {
      self->call_.reset();
      self->popped(ec, reply);
    };
    call_ = core_.blocking_pool().run(std::move(request));
    if (once_cancel_) {
      // The pool unblocks the BLPOP: a nil reply ends the call with operation_aborted, and an id
      // popped just before still arrives, so its request is run and answered (never lost).
      once_cancel_->on_request(
          [weak = std::weak_ptr<BlockingPool>(core_.blocking_pool().shared_from_this()),
           call = call_] {
            if (const auto pool = weak.lock()) pool->cancel(call);
          });
    }
  }

  // try_execute without a wait: LPOP, its reply shaped as BLPOP's.
  void poll_once_now() {
    free_.fetch_sub(1, std::memory_order_acq_rel);
    submit_all(
        core_.shared_from_this(), {Command{"LPOP", queue_}},
        [self = shared_from_this()](const Status& status, const std::vector<Reply>& replies) {
          if (status) return self->end_once(status);
          if (replies.empty() || replies.front().is_null()) return self->end_once({});
          self->take_task(replies.front().str);
        });
  }

  void end_once(const Status& status) {
    active_.store(false, std::memory_order_release);
    once_cancel_.reset();
    if (once_) std::exchange(once_, nullptr)(status, ran_);
  }

  void popped(std::error_code ec, const Reply& reply) {
    if (!active()) {
      // Deregistered while the pop was answered: the id goes back to the head of the list, so
      // another worker takes the request.
      if (!ec && reply.is_aggregate() && reply.elements.size() == 2) {
        submit_all(core_.shared_from_this(), {Command{"LPUSH", queue_, reply.elements[1].str}},
                   [](const Status&, const std::vector<Reply>&) {});
      }
      return;
    }
    const auto status = blocking_status(ec, reply);
    if (once_) {
      if (status) return end_once(status);
      if (!reply.is_aggregate() || reply.elements.size() != 2) return end_once({});
      free_.fetch_sub(1, std::memory_order_acq_rel);
      return take_task(reply.elements[1].str);
    }
    if (status) return failed("BLPOP " + queue_, status);
    if (!reply.is_aggregate() || reply.elements.size() != 2) return poll();
    free_.fetch_sub(1, std::memory_order_acq_rel);
    poll();  // another worker free: the next request may be taken meanwhile
    take_task(reply.elements[1].str);
  }

  void take_task(const std::string& id) {
    eval_reply(core_.shared_from_this(), lua::remote_take_task({tasks_}, {id}),
               [self = shared_from_this(), id](const Status& status, const Reply& reply) {
                 if (status) return self->done_with(self->failure("take " + id, status));
                 if (reply.is_null()) return self->done_with({});  // cancelled by its caller
                 self->received(reply.str);
               });
  }

  void received(const std::string& bytes) {
    RemoteRequest request;
    try {
      request = decode_remote_request(wire_, bytes);
    } catch (const error& unreadable) {
      report_failure(core_.config(), error(unreadable.code(), "remote service " + queue_ +
                                                                  ": a request could not be "
                                                                  "read: " +
                                                                  unreadable.what()));
      return done_with({});
    }
    const auto& ack = request.options.ack_timeout_ms;
    if (ack && now_epoch_ms() - request.date_ms > *ack) {
      return done_with({});  // its caller stopped waiting for the ack: it has failed there
    }
    if (!ack) return invoke(std::move(request));
    std::string acked;
    try {
      acked = encode_remote_ack(wire_, RemoteAck{request.id});
    } catch (const error& failure) {
      return done_with(failure.code());
    }
    auto shared = std::make_shared<RemoteRequest>(std::move(request));
    eval_reply(core_.shared_from_this(),
               lua::remote_ack({remote_ack_key(service_, shared->id),
                                remote_response_queue(shared->executor_id)},
                               {std::to_string(*ack), acked}),
               [self = shared_from_this(), shared](const Status& status, const Reply& sent) {
                 if (status) return self->done_with(self->failure("ack " + shared->id, status));
                 if (sent.integer != 1) return self->done_with({});  // its caller gave up
                 self->invoke(std::move(*shared));
               });
  }

  // The method runs on the client's listener threads, never on the I/O thread: each invocation
  // on a strand of its own, so a registration's workers run side by side (as many as there are
  // listener threads).
  void invoke(RemoteRequest request) {
    asio::post(core_.service<ListenerPool>().strand(), [self = shared_from_this(),
                                                        request = std::move(request)]() mutable {
      RemoteResponse response;
      response.id = request.id;
      const auto method = self->methods_.find(Key{request.method_name, request.signature});
      if (method == self->methods_.end()) {
        response.error = "no method " + request.method_name + " with that signature in " +
                         self->interface_ + " here";
      } else {
        self->ran_ = true;  // read on the I/O thread after the post back below
        try {
          response.result = method->second.invoke(*self->codec_, request.args);
        } catch (const std::exception& thrown) {
          response.error = thrown.what();
        } catch (...) {
          response.error = "a non-exception was thrown";
        }
      }
      self->core_.run_on_io(
          [self, request = std::move(request), response = std::move(response)]() mutable {
            self->respond(request, std::move(response));
          });
    });
  }

  void respond(const RemoteRequest& request, RemoteResponse response) {
    if (!request.options.execution_timeout_ms) {
      if (response.error) {
        report_failure(
            core_.config(),
            error(errc::remote_failed, "remote service " + queue_ + ": " + request.method_name +
                                           " (no result expected): " + *response.error));
      }
      return done_with({});
    }
    // A failure as a Java RuntimeException, which a Java caller throws and a C++ caller reads
    // as its message; a String there would make a Java caller's decode fail (remote_wire.hpp).
    constexpr auto kErrorForm = RemoteErrorForm::java_exception;
    std::string bytes;
    try {
      bytes = encode_remote_response(wire_, response, kErrorForm);
    } catch (const error& unencodable) {
      // The result is not something the codec carries: the caller hears that instead.
      response.result.reset();
      response.error = std::string("the result could not be encoded: ") + unencodable.what();
      bytes = encode_remote_response(wire_, response, kErrorForm);
    }
    const auto life = std::to_string(*request.options.execution_timeout_ms > 0
                                         ? *request.options.execution_timeout_ms
                                         : kDefaultResponseLifeMs);
    eval_reply(core_.shared_from_this(),
               lua::remote_respond({remote_response_queue(request.executor_id)}, {bytes, life}),
               [self = shared_from_this(), id = request.id](const Status& status, const Reply&) {
                 self->done_with(status ? self->failure("respond " + id, status) : Status{});
               });
  }

  Status failure(const std::string& what, const Status& status) const {
    report_failure(core_.config(), error(status.code, "remote service " + queue_ + ": " + what +
                                                          ": " + status.detail));
    return status;
  }

  // A worker is free again; after a failure the loop waits a little before it polls.
  void done_with(const Status& status) {
    free_.fetch_add(1, std::memory_order_acq_rel);
    if (once_) return end_once(status);
    if (status) return pause();
    poll();
  }

  void failed(const std::string& what, const Status& status) {
    if (status.code == make_error_code(errc::shutdown)) return;
    (void)failure(what, status);
    pause();
  }

  void pause() {
    if (polling_retry_) return;
    polling_retry_ = true;
    retry_.expires_after(kRetryAfterFailure);
    retry_.async_wait([self = shared_from_this()](std::error_code ec) {
      self->polling_retry_ = false;
      if (!ec) self->poll();
    });
  }

  ClientCore& core_;
  const std::string service_;
  const CodecPtr codec_;
  const RemoteWire wire_;
  const std::string interface_;
  const std::string queue_;
  const std::string tasks_;
  std::map<Key, RemoteMethodEntry> methods_;
  std::atomic<int> free_;
  std::atomic<bool> active_{true};
  // I/O thread only.
  BlockingPool::CallPtr call_;
  asio::steady_timer retry_;
  bool polling_retry_ = false;
  // try_execute only (start_once): its completion, its wait, and whether a method ran.
  UniqueFunction<void(Status, bool)> once_;
  std::optional<std::chrono::milliseconds> once_wait_;
  CancellationPtr once_cancel_;
  bool ran_ = false;
};

RemoteWorkers::RemoteWorkers(ClientCore& core) : core_(core) {}

RemoteWorkers::~RemoteWorkers() = default;

bool RemoteWorkers::add(const std::string& service, CodecPtr codec,
                        const std::string& interface_name, std::vector<RemoteMethodEntry> methods,
                        int workers) {
  if (workers < 1) throw error(errc::invalid_argument, "register_service: workers must be >= 1");
  auto registration = std::make_shared<Registration>(core_, service, std::move(codec),
                                                     interface_name, std::move(methods), workers);
  {
    std::lock_guard lock(mutex_);
    if (!registrations_.emplace(std::make_pair(service, interface_name), registration).second) {
      return false;
    }
  }
  registration->start();
  return true;
}

bool RemoteWorkers::remove(const std::string& service, const std::string& interface_name) {
  std::shared_ptr<Registration> registration;
  {
    std::lock_guard lock(mutex_);
    const auto found = registrations_.find(std::make_pair(service, interface_name));
    if (found == registrations_.end()) return false;
    registration = std::move(found->second);
    registrations_.erase(found);
  }
  registration->stop();
  return true;
}

void RemoteWorkers::try_execute(const std::string& service, CodecPtr codec,
                                const std::string& interface_name,
                                std::vector<RemoteMethodEntry> methods,
                                std::optional<std::chrono::milliseconds> wait,
                                const CancellationPtr& cancel, Done<bool> done) {
  auto registration = std::make_shared<Registration>(core_, service, std::move(codec),
                                                     interface_name, std::move(methods), 1);
  registration->start_once(
      wait, cancel,
      [done = std::move(done)](const Status& status, bool ran) mutable { done(status, ran); });
}

int RemoteWorkers::free_workers(const std::string& service,
                                const std::string& interface_name) const {
  std::lock_guard lock(mutex_);
  const auto found = registrations_.find(std::make_pair(service, interface_name));
  return found == registrations_.end() ? 0 : found->second->free_workers();
}

void RemoteWorkers::closing() noexcept {
  try {
    std::map<std::pair<std::string, std::string>, std::shared_ptr<Registration>> stopping;
    {
      std::lock_guard lock(mutex_);
      stopping.swap(registrations_);
    }
    for (auto& [key, registration] : stopping) registration->stop();
  } catch (const std::exception&) {
    // No memory: the connections close right after, which ends every pop.
  }
}

}  // namespace redisson::detail
