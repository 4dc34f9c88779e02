// ExecutorService's submitter side (redisson/services/executor_service.hpp): queueing and
// scheduling tasks (executor_add.lua, executor_schedule.lua), their results (RemoteResponses on
// this client's response list), cancellation, the counters and the shutdown. The workers' side
// is executor_workers.cpp.
#include "redisson/services/executor_service.hpp"

#include <asio/error.hpp>
#include <chrono>
#include <utility>

#include "client/client_core.hpp"
#include "client/client_id.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/topic.hpp"
#include "services/executor_state.hpp"
#include "services/executor_task.hpp"
#include "services/executor_workers.hpp"
#include "services/remote_names.hpp"
#include "services/remote_responses.hpp"
#include "sync/names.hpp"
#include "sync/semaphore_access.hpp"

namespace redisson::detail {

namespace {

// How long a submitter waits for a result past the task's start (Redisson's RESULT_OPTIONS:
// an execution timeout of one day).
constexpr std::chrono::hours kResultWait{24};
// The Java parameter type Redisson's executor methods take; it signs our requests the same way.
constexpr const char* kTaskParametersType = "org.redisson.executor.params.TaskParameters";

std::int64_t executor_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One command, its reply converted, through any token (here: the blocking one).
template <class T, class Convert>
T executor_command(const ExecutorState& state, const char* operation, Command command,
                   Convert convert) {
  return async_op<T>(
      state.core, blocking(operation, state.name),
      [core = state.core, command = std::move(command),
       convert = std::move(convert)](Done<T> done) mutable {
        submit_all(core, {std::move(command)},
                   [done = std::move(done), convert = std::move(convert)](
                       Status status, std::vector<Reply> replies) mutable {
                     if (status) return done(std::move(status), T{});
                     if (replies.front().is_error()) {
                       return done(Status(make_error_code(errc::server_error), replies.front().str),
                                   T{});
                     }
                     done({}, convert(replies.front()));
                   });
      });
}

std::int64_t status_level(const Reply& reply) {
  if (reply.is_null()) return 0;
  try {
    return std::stoll(reply.str);
  } catch (const std::exception&) {
    return 0;
  }
}

class SubmitFlow : public std::enable_shared_from_this<SubmitFlow> {
 public:
  SubmitFlow(ExecutorPtr executor, TaskSubmission submission, std::shared_ptr<TaskResult> result,
             Done<std::string> done)
      : executor_(std::move(executor)),
        submission_(std::move(submission)),
        result_(std::move(result)),
        done_(std::move(done)) {}

  void start() {
    const auto& state = *executor_;
    const auto now = executor_now_ms();
    ExecutorTaskParams params;
    RemoteRequest request;
    try {
      params = make_params(now);
      request.id = make_request_id();
      request.executor_id = state.executor_id;
      request.method_name = executor_method_of(submission_.kind, submission_.wants_result);
      request.signature = remote_method_signature(kTaskParametersType);
      request.options.ack_timeout_ms.reset();
      if (submission_.wants_result) {
        request.options.execution_timeout_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(kResultWait).count();
      } else {
        request.options.execution_timeout_ms.reset();
      }
      request.date_ms = now;
      request.args.reserve(submission_.args.size() + 1);
      request.args.push_back(encode_task_params(*state.codec, params));
      for (auto& arg : submission_.args) request.args.push_back(std::move(arg));
      bytes_ = encode_remote_request(state.wire, request);
    } catch (const error& failure) {
      return finish(status_of_error(failure));
    }
    id_ = request.id;
    if (result_) {
      const auto deadline =
          Clock::now() +
          std::chrono::milliseconds(std::max<std::int64_t>(0, params.start_ms - now)) + kResultWait;
      auto& responses = state.core->service<RemoteResponses>();
      wait_ = responses.wait(
          state.response_queue, state.wire, id_, RemoteResponses::Kind::result, deadline,
          [result = result_, id = id_, task = submission_.task](
              Status status, std::optional<RemoteReplyMessage> message) {
            if (status) {
              if (status.code == make_error_code(errc::timeout)) {
                status = Status(make_error_code(errc::timeout),
                                "task " + task + " (" + id + "): no result within a day");
              }
              return result->complete(std::move(status), std::nullopt);
            }
            auto& response = std::get<RemoteResponse>(*message);
            if (response.error) {
              return result->complete(Status(make_error_code(errc::remote_failed),
                                             "task " + task + " (" + id + "): " + *response.error),
                                      std::nullopt);
            }
            result->complete({}, std::move(response.result));
          });
      // A cancelled task's result never comes: its wait on the response list ends then.
      result_->set_canceller([core = state.core, handle = wait_] {
        core->run_on_io([core, handle] { core->service<RemoteResponses>().cancel(handle); });
      });
    }
    const bool now_kind = submission_.kind == TaskSubmission::Kind::now;
    const auto retry = state.options.task_retry_interval.count();
    ScriptCall call =
        now_kind
            ? lua::executor_add(
                  {state.counter, state.status, state.scheduler, state.scheduler_channel,
                   state.tasks, state.queue, state.retry_interval, state.expiration,
                   state.latch_prefix + ":" + id_},
                  {std::to_string(retry > 0 ? now + retry : 0), id_, bytes_, std::to_string(retry),
                   "0"})
            : lua::executor_schedule(
                  {state.counter, state.status, state.scheduler, state.scheduler_channel,
                   state.tasks, state.retry_interval, state.expiration,
                   state.latch_prefix + ":" + id_},
                  {std::to_string(params.start_ms), id_, bytes_, std::to_string(retry), "0", "0"});
    eval_reply(state.core, std::move(call),
               [self = shared_from_this()](const Status& status, const Reply& reply) {
                 if (status) return self->finish(status);
                 if (reply.integer != 1) {
                   return self->finish(Status(make_error_code(errc::rejected),
                                              "executor " + self->executor_->name +
                                                  " is shut down: task " + self->submission_.task +
                                                  " not queued"));
                 }
                 self->finish({});
               });
  }

 private:
  ExecutorTaskParams make_params(std::int64_t now) const {
    ExecutorTaskParams params;
    params.task = submission_.task;
    if (params.task.empty()) throw error(errc::invalid_argument, "a task needs a name");
    if (submission_.delay.count() < 0) {
      throw error(errc::invalid_argument, "task " + params.task + ": a negative delay");
    }
    using Kind = TaskSubmission::Kind;
    switch (submission_.kind) {
      case Kind::now:
        params.start_ms = now;
        break;
      case Kind::delayed:
        params.start_ms = now + submission_.delay.count();
        break;
      case Kind::fixed_rate:
      case Kind::fixed_delay:
        if (submission_.period.count() <= 0) {
          throw error(errc::invalid_argument,
                      "task " + params.task + ": the period must be positive");
        }
        params.start_ms = now + submission_.delay.count();
        params.period_ms = submission_.period.count();
        break;
      case Kind::cron: {
        const auto next = submission_.cron->next_after(
            std::chrono::system_clock::time_point(std::chrono::milliseconds(now)));
        if (!next) {
          throw error(errc::invalid_argument, "task " + params.task + ": the cron expression '" +
                                                  submission_.cron->expression() +
                                                  "' names no time from now on");
        }
        params.start_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(next->time_since_epoch()).count();
        params.cron = submission_.cron->expression();
        params.zone = submission_.cron->zone().name();
        break;
      }
    }
    return params;
  }

  void finish(Status status) {
    if (status && wait_ != 0) {
      executor_->core->service<RemoteResponses>().cancel(std::exchange(wait_, 0));
    }
    if (done_) std::exchange(done_, nullptr)(std::move(status), id_);
  }

  ExecutorPtr executor_;
  TaskSubmission submission_;
  std::shared_ptr<TaskResult> result_;
  Done<std::string> done_;
  std::string bytes_;
  std::string id_;
  std::uint64_t wait_ = 0;
};

}  // namespace

std::shared_ptr<ExecutorState> make_executor_state(std::shared_ptr<ClientCore> core,
                                                   std::string name, CodecPtr codec,
                                                   ExecutorOptions options) {
  if (name.empty())
    throw error(errc::invalid_argument, "ExecutorService: the name must not be empty");
  if (options.task_retry_interval.count() < 0) {
    throw error(errc::invalid_argument, "ExecutorService: a negative task retry interval");
  }
  auto state = std::make_shared<ExecutorState>();
  if (!codec) codec = core->config().codec;
  state->codec = std::move(codec);
  state->wire = remote_wire_of(*state->codec);
  state->executor_id = core->id();
  if (state->codec != core->config().codec) {
    state->executor_id += ":org.redisson.executor.RemoteExecutorServiceAsync:" + name;
  }
  state->response_queue = remote_response_queue(state->executor_id);
  state->queue = "{" + name + ":org.redisson.executor.RemoteExecutorService}";
  state->tasks = state->queue + ":tasks";
  state->counter = state->queue + ":counter";
  state->status = state->queue + ":status";
  state->scheduler = state->queue + ":scheduler";
  state->scheduler_channel = state->queue + ":scheduler-channel";
  state->retry_interval = state->queue + ":retry-interval";
  state->expiration = state->queue + ":expiration";
  state->cancelled_runs = state->queue + ":cancelled-runs";
  state->termination_topic = state->queue + ":termination-topic";
  state->latch_prefix = state->queue + ":task-latch";
  state->workers_channel = state->queue + ":workers-channel";
  state->workers_counter_prefix = state->queue + ":workers-counter";
  state->workers_semaphore_prefix = state->queue + ":workers-semaphore";
  state->core = std::move(core);
  state->name = std::move(name);
  state->options = options;
  return state;
}

std::string executor_semaphore_channel(const std::string& semaphore) {
  return prefix_name("redisson_sc", semaphore);
}

void TaskResult::complete(Status status, std::optional<std::string> bytes) {
  std::vector<Listener> listeners;
  {
    std::lock_guard lock(mutex_);
    if (done_) return;
    done_ = true;
    status_ = std::move(status);
    bytes_ = std::move(bytes);
    canceller_ = nullptr;  // nothing left to stop (abandon took it before completing)
    listeners.swap(listeners_);
    ready_.notify_all();
  }
  for (auto& listener : listeners) listener(status_, bytes_);
}

bool TaskResult::wait(std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mutex_);
  if (!timeout) {
    ready_.wait(lock, [this] { return done_; });
    return true;
  }
  return ready_.wait_for(lock, *timeout, [this] { return done_; });
}

void TaskResult::on_complete(Listener listener) {
  {
    std::lock_guard lock(mutex_);
    if (!done_) {
      listeners_.push_back(std::move(listener));
      return;
    }
  }
  listener(status_, bytes_);
}

void TaskResult::set_canceller(std::function<void()> canceller) {
  std::lock_guard lock(mutex_);
  if (!done_) canceller_ = std::move(canceller);
}

void TaskResult::abandon(Status status) {
  std::function<void()> canceller;
  {
    std::lock_guard lock(mutex_);
    canceller.swap(canceller_);
  }
  complete(std::move(status), std::nullopt);  // first: the wait's own end says less
  if (canceller) canceller();
}

bool TaskResult::done() const {
  std::lock_guard lock(mutex_);
  return done_;
}

Status TaskResult::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

std::optional<std::string> TaskResult::bytes() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

void start_executor_submit(const ExecutorPtr& executor, TaskSubmission submission,
                           std::shared_ptr<TaskResult> result, Done<std::string> done) {
  auto flow = std::make_shared<SubmitFlow>(executor, std::move(submission), std::move(result),
                                           std::move(done));
  executor->core->run_on_io([flow] { flow->start(); });
}

void start_executor_cancel(const ExecutorPtr& executor, const std::string& task_id,
                           Done<bool> done) {
  const auto& state = *executor;
  eval_reply(state.core,
             lua::executor_cancel({state.queue, state.scheduler, state.counter, state.status,
                                   state.termination_topic, state.tasks, state.retry_interval,
                                   state.expiration, state.cancelled_runs},
                                  {task_id, kExecutorShutDown, kExecutorTerminated}),
             [done = std::move(done)](Status status, const Reply& reply) mutable {
               if (status) return done(std::move(status), false);
               done({}, !reply.is_null() && reply.integer == 1);
             });
}

// Redisson's countActiveWorkers: a request id published on the workers channel (in the
// client's codec, as Java's raw topic); every process with workers of this executor adds its
// count and releases one permit; the permits of all that received it are awaited, then the
// count read and both keys deleted.
void start_count_active_workers(const ExecutorPtr& executor, std::chrono::milliseconds wait,
                                Done<std::int64_t> done) {
  const auto& state = *executor;
  const auto id = make_request_id();
  const auto counter = state.workers_counter_prefix + ":" + id;
  const auto semaphore = state.workers_semaphore_prefix + ":" + id;
  std::string payload;
  try {
    payload = state.core->config().codec->encode(Value::string(id));
  } catch (const error& failure) {
    return done(status_of_error(failure), 0);
  }
  submit_all(
      state.core, {Command{"PUBLISH", state.workers_channel, payload}},
      [executor, wait, counter, semaphore, done = std::move(done)](
          Status status, std::vector<Reply> replies) mutable {
        if (status) return done(std::move(status), 0);
        const auto receivers = replies.front().integer;
        if (receivers <= 0) return done({}, 0);
        start_semaphore_try_acquire(
            executor->core, semaphore, receivers, wait,
            [executor, counter, semaphore, done = std::move(done)](Status waited, bool) mutable {
              if (waited) return done(std::move(waited), 0);
              // Whoever answered in time is counted (a receiver that is no worker never does).
              submit_all(executor->core,
                         {Command{"GET", counter}, Command{"DEL", counter, semaphore}},
                         [done = std::move(done)](Status read, std::vector<Reply> replies) mutable {
                           if (read) return done(std::move(read), 0);
                           done({}, status_level(replies.front()));
                         });
            });
      });
}

std::shared_ptr<ClientCore> executor_core(const ExecutorPtr& executor) { return executor->core; }

const Codec& executor_codec(const ExecutorPtr& executor) { return *executor->codec; }

void refuse_wait_on_io(const ExecutorPtr& executor, const char* operation) {
  if (core_on_io_thread(*executor->core)) {
    throw error(errc::would_deadlock,
                std::string(operation) + ": a blocking wait on the client's I/O thread");
  }
}

}  // namespace redisson::detail

namespace redisson {

ExecutorService::ExecutorService(const Client& client, std::string name, CodecPtr codec,
                                 ExecutorOptions options)
    : name_(name) {
  auto keyless = detail::make_keyless(client, std::move(codec));
  auto state = detail::make_executor_state(keyless->core, std::move(name), keyless->codec, options);
  codec_ = state->codec;
  executor_ = std::move(state);
}

std::string ExecutorService::start(detail::TaskSubmission submission,
                                   std::shared_ptr<detail::TaskResult> result) const {
  return detail::async_op<std::string>(
      executor_->core, detail::blocking("submit", name_),
      [executor = executor_, submission = std::move(submission),
       result = std::move(result)](detail::Done<std::string> done) mutable {
        detail::start_executor_submit(executor, std::move(submission), std::move(result),
                                      std::move(done));
      });
}

bool ScheduledTask::cancel() const {
  return detail::async_op<bool>(detail::executor_core(executor_), detail::blocking("cancel", id_),
                                [executor = executor_, id = id_](detail::Done<bool> done) {
                                  detail::start_executor_cancel(executor, id, std::move(done));
                                });
}

bool ExecutorService::register_workers(ExecutorTasks tasks, int workers) const {
  return executor_->core->service<detail::ExecutorWorkers>().add(executor_, std::move(tasks.tasks_),
                                                                 workers);
}

bool ExecutorService::deregister_workers() const {
  return executor_->core->service<detail::ExecutorWorkers>().remove(name_);
}

int ExecutorService::free_workers() const {
  return executor_->core->service<detail::ExecutorWorkers>().free_workers(name_);
}

bool ExecutorService::cancel_task(const std::string& task_id) const {
  return detail::async_op<bool>(executor_->core, detail::blocking("cancel_task", name_),
                                [executor = executor_, task_id](detail::Done<bool> done) {
                                  detail::start_executor_cancel(executor, task_id, std::move(done));
                                });
}

bool ExecutorService::has_task(const std::string& task_id) const {
  return detail::executor_command<bool>(*executor_, "has_task",
                                        Command{"HEXISTS", executor_->tasks, task_id},
                                        [](const Reply& reply) { return reply.integer == 1; });
}

std::int64_t ExecutorService::task_count() const {
  return detail::executor_command<std::int64_t>(
      *executor_, "task_count", Command{"GET", executor_->counter}, &detail::status_level);
}

std::set<std::string> ExecutorService::task_ids() const {
  return detail::executor_command<std::set<std::string>>(
      *executor_, "task_ids", Command{"HKEYS", executor_->tasks}, [](const Reply& reply) {
        std::set<std::string> ids;
        for (const auto& element : reply.elements) ids.insert(element.str);
        return ids;
      });
}

void ExecutorService::shutdown() const {
  deregister_workers();
  const auto& state = *executor_;
  detail::async_op<void>(
      state.core, detail::blocking("shutdown", name_),
      [core = state.core, call = detail::lua::executor_shutdown(
                              {state.counter, state.status, state.termination_topic},
                              {detail::kExecutorShutDown, detail::kExecutorTerminated})](
          detail::Done<void> done) mutable {
        detail::eval_reply(core, std::move(call),
                           [done = std::move(done)](detail::Status status, const Reply&) mutable {
                             done(std::move(status));
                           });
      });
}

bool ExecutorService::is_shutdown() const {
  return detail::executor_command<bool>(
      *executor_, "is_shutdown", Command{"GET", executor_->status},
      [](const Reply& reply) { return detail::status_level(reply) >= 1; });
}

bool ExecutorService::is_terminated() const {
  return detail::executor_command<bool>(
      *executor_, "is_terminated", Command{"GET", executor_->status},
      [](const Reply& reply) { return detail::status_level(reply) >= 2; });
}

bool ExecutorService::await_termination(std::chrono::milliseconds timeout) const {
  if (timeout.count() < 0) {
    throw error(errc::invalid_argument, "await_termination: a negative timeout");
  }
  detail::refuse_wait_on_io(executor_, "await_termination");
  // Listen first, then look: a termination between the two is heard, not missed.
  auto terminated = std::make_shared<detail::TaskResult>();
  auto channel = std::make_shared<detail::ObjectState>();
  channel->core = executor_->core;
  channel->name = executor_->termination_topic;
  channel->kind = "ExecutorService";
  detail::TopicCallbacks callbacks;
  callbacks.on_io_message = [terminated](std::string_view payload) {
    if (payload == detail::kExecutorTerminated) terminated->complete({}, std::nullopt);
  };
  callbacks.on_status = [](TopicStatus, std::string_view) {};
  const auto id = detail::async_op<ListenerId>(
      executor_->core, detail::blocking("await_termination", name_),
      [channel, callbacks = std::move(callbacks)](detail::Done<ListenerId> done) mutable {
        detail::start_topic_listen(channel, detail::TopicKind::plain, std::move(callbacks),
                                   std::move(done));
      });
  bool result = false;
  try {
    result = is_terminated() || terminated->wait(timeout);
  } catch (...) {
    detail::start_topic_remove(channel, id, [](const detail::Status&, bool) {});
    throw;
  }
  detail::start_topic_remove(channel, id, [](const detail::Status&, bool) {});
  return result;
}

std::int64_t ExecutorService::count_active_workers(std::chrono::milliseconds wait) const {
  if (wait.count() < 0) {
    throw error(errc::invalid_argument, "count_active_workers: a negative wait");
  }
  return detail::async_op<std::int64_t>(
      executor_->core, detail::blocking("count_active_workers", name_),
      [executor = executor_, wait](detail::Done<std::int64_t> done) {
        detail::start_count_active_workers(executor, wait, std::move(done));
      });
}

bool ExecutorService::delete_object() const {
  const auto& state = *executor_;
  return detail::executor_command<bool>(
      state, "delete_object",
      Command{"DEL", state.queue, state.status, state.counter, state.scheduler, state.tasks,
              state.retry_interval, state.expiration, state.cancelled_runs},
      [](const Reply& reply) { return reply.integer > 0; });
}

}  // namespace redisson
