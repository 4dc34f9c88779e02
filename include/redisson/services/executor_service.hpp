// redisson::ExecutorService: Java Redisson's RExecutorService and RScheduledExecutorService for
// C++ processes. C++ cannot ship code, so a task is a name: worker processes register the tasks
// they can run (ExecutorTasks), any process submits one by name with its arguments (encoded by
// the executor's codec) and gets its result back through Redis. Delays, fixed rates, fixed
// delays and Quartz cron schedules; cancellation; a task whose worker died is run again by
// another after the retry interval. Redisson's keys and scripts, so `redisson inspect` and Java
// tooling read the same state (docs/services.md says why Java and C++ workers must not share
// one executor name).
//
//   redisson::ExecutorService executor(client, "reports");
//   executor.register_workers(redisson::ExecutorTasks().task(
//       "sum", [](std::int32_t a, std::int32_t b) { return a + b; }), 4);   // a worker process
//   auto sum = executor.submit<std::int32_t>("sum", 2, 3);                 // any process
//   std::int32_t five = sum.get();
#pragma once

#include <asio/error.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "redisson/codec.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/detail/unique_function.hpp"
#include "redisson/error.hpp"
#include "redisson/services/cron_schedule.hpp"
#include "redisson/services/remote_service.hpp"
#include "redisson/value.hpp"
#include "redisson/value_traits.hpp"

namespace redisson {

class Client;

/// How an executor's tasks are kept (Java's ExecutorOptions).
struct ExecutorOptions {
  /// A task a worker took is queued again this long after it was taken unless the worker
  /// finishes it first; a running task's worker keeps moving that moment ahead, so only a task
  /// whose worker died (or lost Redis) runs again (Redisson's taskRetryInterval, 5 minutes).
  /// Zero: a task runs at most once, never again after its worker died.
  std::chrono::milliseconds task_retry_interval = std::chrono::minutes(5);
};

namespace detail {

class ClientCore;
struct ExecutorState;
using ExecutorPtr = std::shared_ptr<const ExecutorState>;

/// Where a submitted task's result arrives (once), whoever waits for it.
class TaskResult {
 public:
  using Listener = UniqueFunction<void(Status, std::optional<std::string>)>;

  /// The first call wins; later ones do nothing. Any thread.
  void complete(Status status, std::optional<std::string> bytes);
  /// Waits until completed or `timeout` passed (nullopt: no limit); false on timeout.
  bool wait(std::optional<std::chrono::milliseconds> timeout);
  /// Runs `listener` once completed (at once, on this thread, when it is). Any thread.
  void on_complete(Listener listener);
  bool done() const;
  /// The outcome; only once done().
  Status status() const;
  std::optional<std::string> bytes() const;
  /// What stops waiting for the result (the submitter's wait on its response list), run by
  /// abandon(). Any thread.
  void set_canceller(std::function<void()> canceller);
  /// Completes with `status` (the task was cancelled) and stops waiting for the result.
  void abandon(Status status);

 private:
  std::function<void()> canceller_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  bool done_ = false;
  Status status_;
  std::optional<std::string> bytes_;
  std::vector<Listener> listeners_;
};

/// One submission, its arguments encoded (src/services/executor_service.cpp).
struct TaskSubmission {
  enum class Kind { now, delayed, fixed_rate, fixed_delay, cron };
  Kind kind = Kind::now;
  std::string task;
  std::vector<std::string> args;
  bool wants_result = false;
  std::chrono::milliseconds delay{0};   // now: unused; else until the first run
  std::chrono::milliseconds period{0};  // fixed_rate: the period; fixed_delay: the delay between
  std::optional<CronSchedule> cron;
};

/// Queues `submission`; completes with its task id. `result` (null: none wanted) completes with
/// the task's result bytes, or how it failed.
void start_executor_submit(const ExecutorPtr& executor, TaskSubmission submission,
                           std::shared_ptr<TaskResult> result, Done<std::string> done);
void start_executor_cancel(const ExecutorPtr& executor, const std::string& task_id,
                           Done<bool> done);
std::shared_ptr<ClientCore> executor_core(const ExecutorPtr& executor);
const Codec& executor_codec(const ExecutorPtr& executor);
/// Throws errc::would_deadlock on the client's I/O thread (a blocking wait there never ends).
void refuse_wait_on_io(const ExecutorPtr& executor, const char* operation);

template <class R, class... Args>
RemoteMethodEntry executor_task_entry(std::string name, std::function<R(Args...)> handler) {
  // The Java parameter names only sign remote calls; a task is found by its name alone.
  return remote_method_entry(std::move(name), std::move(handler),
                             std::vector<std::string>(sizeof...(Args), "?"));
}

template <class R>
R decode_task_result(const Codec& codec, const std::optional<std::string>& bytes) {
  if constexpr (std::is_void_v<R>) {
    return;
  } else {
    return from_value<R>(bytes ? codec.decode(*bytes) : Value());
  }
}

}  // namespace detail

/// The tasks a worker process runs, by name: what ExecutorService::register_workers serves.
class ExecutorTasks {
 public:
  /// Runs `handler` for the task `name`: a callable whose parameters (each a type a codec
  /// carries) are the task's arguments and whose result (one, or void) goes back to the
  /// submitter. What it throws fails the task (errc::remote_failed at the submitter, with the
  /// exception's text). A name given twice keeps the last handler.
  template <class Handler>
  ExecutorTasks& task(std::string name, Handler handler) {
    std::function function = std::move(handler);
    tasks_.push_back(detail::executor_task_entry(std::move(name), std::move(function)));
    return *this;
  }

 private:
  friend class ExecutorService;
  std::vector<detail::RemoteMethodEntry> tasks_;
};

/// A submitted task as its submitter sees it (Java's RExecutorFuture): its id, and its result
/// once a worker has run it. Cheap to copy; every copy sees the same result.
template <class R>
class TaskFuture {
 public:
  /// The task's id (32 hex), for ExecutorService::cancel_task and has_task, from any process.
  const std::string& task_id() const noexcept { return id_; }
  /// Whether the result (or the failure) has come.
  bool is_done() const { return result_->done(); }
  /// Waits for the result. Errors: errc::remote_failed when the task failed (its worker's
  /// message: the handler threw, or no worker there knows the task's name);
  /// asio::error::operation_aborted after cancel(); errc::timeout when no result came within a
  /// day of the start (Redisson's limit); errc::codec_error when the result is not an R.
  R get() const { return wait_and_decode(std::nullopt); }
  /// As get(), at most `timeout`: errc::timeout when the result has not come by then (the task
  /// goes on; get() may be called again).
  R get(std::chrono::milliseconds timeout) const { return wait_and_decode(timeout); }
  /// As get(), completing through `token` with (error_code[, R]).
  template <class CompletionToken>
  auto async_get(CompletionToken&& token) const {
    return detail::async_op<R>(
        detail::executor_core(executor_), token,
        [executor = executor_, result = result_](detail::Done<R> done) {
          result->on_complete([executor, done = std::move(done)](
                                  detail::Status status, std::optional<std::string> bytes) mutable {
            if constexpr (std::is_void_v<R>) {
              done(std::move(status));
            } else {
              if (status) return done(std::move(status), R{});
              try {
                done({}, detail::decode_task_result<R>(detail::executor_codec(executor), bytes));
              } catch (const error& thrown) {
                done(detail::status_of_error(thrown), R{});
              }
            }
          });
        });
  }
  /// Cancels the task (ExecutorService::cancel_task); when it had not started, this future
  /// completes with asio::error::operation_aborted. True when it had not started.
  bool cancel() const {
    const bool removed =
        detail::async_op<bool>(detail::executor_core(executor_), detail::blocking("cancel", id_),
                               [executor = executor_, id = id_](detail::Done<bool> done) {
                                 detail::start_executor_cancel(executor, id, std::move(done));
                               });
    if (removed) {
      result_->abandon(detail::Status(make_error_code(asio::error::operation_aborted),
                                      "task " + id_ + " was cancelled"));
    }
    return removed;
  }

 private:
  friend class ExecutorService;
  TaskFuture(detail::ExecutorPtr executor, std::string id,
             std::shared_ptr<detail::TaskResult> result)
      : executor_(std::move(executor)), id_(std::move(id)), result_(std::move(result)) {}

  R wait_and_decode(std::optional<std::chrono::milliseconds> timeout) const {
    detail::refuse_wait_on_io(executor_, "TaskFuture::get");
    if (!result_->wait(timeout)) {
      throw error(errc::timeout,
                  "task " + id_ + ": no result within " + std::to_string(timeout->count()) + " ms");
    }
    if (auto status = result_->status()) throw error(status.code, status.detail);
    try {
      return detail::decode_task_result<R>(detail::executor_codec(executor_), result_->bytes());
    } catch (const error& thrown) {
      throw error(thrown.code(), "task " + id_ + ": " + thrown.what());
    }
  }

  detail::ExecutorPtr executor_;
  std::string id_;
  std::shared_ptr<detail::TaskResult> result_;
};

/// A periodic task (fixed rate, fixed delay, cron) as its submitter sees it: its id and a way
/// to stop it. Its runs return nothing to the submitter.
class ScheduledTask {
 public:
  const std::string& task_id() const noexcept { return id_; }
  /// Stops the task: no run starts after this (one running now finishes). True when it was
  /// not running at that moment; false when it was (it will not run again) or is gone.
  bool cancel() const;

 private:
  friend class ExecutorService;
  ScheduledTask(detail::ExecutorPtr executor, std::string id)
      : executor_(std::move(executor)), id_(std::move(id)) {}
  detail::ExecutorPtr executor_;
  std::string id_;
};

/// Java Redisson's RScheduledExecutorService named `name`: tasks queued under
/// `{<name>:org.redisson.executor.RemoteExecutorService}` and run by the workers registered on
/// any client. A handle: cheap, sends nothing until used. Blocking calls throw redisson::error.
class ExecutorService {
 public:
  /// `codec` (null: the client's) encodes the tasks and their arguments and results: kryo5 or
  /// json (the codecs Redisson's request and response classes have).
  ExecutorService(const Client& client, std::string name, CodecPtr codec = nullptr,
                  ExecutorOptions options = {});

  const std::string& name() const noexcept { return name_; }

  /// Runs the tasks of `tasks` on this client, `workers` (>= 1) at a time on threads of their
  /// own, until deregister_workers() or the client shuts down (which waits for the tasks that
  /// run). Also runs this executor's scheduler: due scheduled tasks, and tasks whose worker
  /// died, are queued by every process that has workers. False when this client has workers
  /// for this executor already (nothing changes).
  bool register_workers(ExecutorTasks tasks, int workers = 1) const;
  /// Takes no task from now on; the tasks running finish. False when none were registered.
  bool deregister_workers() const;
  /// The workers registered on this client not running a task now.
  int free_workers() const;
  /// The workers of this executor in every process (Java's countActiveWorkers, whose protocol
  /// it shares: Java workers count too). Each process with workers answers a request on the
  /// executor's workers channel; those not answering within `wait` are not counted.
  std::int64_t count_active_workers(
      std::chrono::milliseconds wait = std::chrono::seconds(10)) const;

  /// Queues the task `task` with `args`; its result comes back through the future.
  /// errc::rejected when the executor is shut down (nothing queued).
  template <class R = void, class... Args>
  TaskFuture<R> submit(std::string task, const Args&... args) const {
    return queue<R>(detail::TaskSubmission::Kind::now, std::move(task), {}, {}, std::nullopt,
                    args...);
  }
  /// Queues the task with no result sent back (Java's execute); returns its id.
  template <class... Args>
  std::string execute(std::string task, const Args&... args) const {
    return queue_without_result(detail::TaskSubmission::Kind::now, std::move(task), {}, {},
                                std::nullopt, args...);
  }
  /// Runs the task once, `delay` from now (>= 0); its result through the future.
  template <class R = void, class... Args>
  TaskFuture<R> schedule(std::string task, std::chrono::milliseconds delay,
                         const Args&... args) const {
    return queue<R>(detail::TaskSubmission::Kind::delayed, std::move(task), delay, {}, std::nullopt,
                    args...);
  }
  /// Runs the task `initial_delay` from now, then every `period` (> 0) from each start (a run
  /// longer than the period makes the next start at once).
  template <class... Args>
  ScheduledTask schedule_at_fixed_rate(std::string task, std::chrono::milliseconds initial_delay,
                                       std::chrono::milliseconds period,
                                       const Args&... args) const {
    return ScheduledTask(
        executor_, queue_without_result(detail::TaskSubmission::Kind::fixed_rate, std::move(task),
                                        initial_delay, period, std::nullopt, args...));
  }
  /// Runs the task `initial_delay` from now, then `delay` (> 0) after each run ends.
  template <class... Args>
  ScheduledTask schedule_with_fixed_delay(std::string task, std::chrono::milliseconds initial_delay,
                                          std::chrono::milliseconds delay,
                                          const Args&... args) const {
    return ScheduledTask(
        executor_, queue_without_result(detail::TaskSubmission::Kind::fixed_delay, std::move(task),
                                        initial_delay, delay, std::nullopt, args...));
  }
  /// Runs the task at every time `cron` names, computed by the worker after each run (a
  /// schedule in CronZone::local() is read in the worker's zone).
  template <class... Args>
  ScheduledTask schedule(std::string task, const CronSchedule& cron, const Args&... args) const {
    return ScheduledTask(executor_, queue_without_result(detail::TaskSubmission::Kind::cron,
                                                         std::move(task), {}, {}, cron, args...));
  }

  /// Cancels the task `task_id`: queued or scheduled, it is removed and counted out; running,
  /// it finishes and does not run again. True when it was removed before it started.
  bool cancel_task(const std::string& task_id) const;
  /// Whether the task is queued, scheduled or running.
  bool has_task(const std::string& task_id) const;
  /// The tasks queued, scheduled or running (Java's getTaskCount).
  std::int64_t task_count() const;
  /// Their ids.
  std::set<std::string> task_ids() const;

  /// Accepts no more tasks; the queued and scheduled ones still run (periodic ones stop
  /// rescheduling). Terminated once none is left. Deregisters this client's workers, as Java.
  void shutdown() const;
  bool is_shutdown() const;
  bool is_terminated() const;
  /// Waits up to `timeout` for the termination; true when terminated.
  bool await_termination(std::chrono::milliseconds timeout) const;
  /// Deletes the executor's keys (tasks, schedule, status); true when any existed.
  bool delete_object() const;

 private:
  template <class... Args>
  detail::TaskSubmission make_submission(detail::TaskSubmission::Kind kind, std::string task,
                                         std::chrono::milliseconds delay,
                                         std::chrono::milliseconds period,
                                         std::optional<CronSchedule> cron,
                                         const Args&... args) const {
    static_assert((JavaValue<std::decay_t<Args>> && ...),
                  "task arguments must be types a codec carries (JavaValue)");
    detail::TaskSubmission submission;
    submission.kind = kind;
    submission.task = std::move(task);
    submission.delay = delay;
    submission.period = period;
    submission.cron = std::move(cron);
    submission.args.reserve(sizeof...(Args));
    (submission.args.push_back(detail::encode_value(*codec_, args)), ...);
    return submission;
  }

  template <class R, class... Args>
  TaskFuture<R> queue(detail::TaskSubmission::Kind kind, std::string task,
                      std::chrono::milliseconds delay, std::chrono::milliseconds period,
                      std::optional<CronSchedule> cron, const Args&... args) const {
    auto submission =
        make_submission(kind, std::move(task), delay, period, std::move(cron), args...);
    submission.wants_result = true;
    auto result = std::make_shared<detail::TaskResult>();
    auto id = start(std::move(submission), result);
    return TaskFuture<R>(executor_, std::move(id), std::move(result));
  }

  template <class... Args>
  std::string queue_without_result(detail::TaskSubmission::Kind kind, std::string task,
                                   std::chrono::milliseconds delay,
                                   std::chrono::milliseconds period,
                                   std::optional<CronSchedule> cron, const Args&... args) const {
    return start(make_submission(kind, std::move(task), delay, period, std::move(cron), args...),
                 nullptr);
  }

  std::string start(detail::TaskSubmission submission,
                    std::shared_ptr<detail::TaskResult> result) const;

  detail::ExecutorPtr executor_;
  std::string name_;
  CodecPtr codec_;
};

}  // namespace redisson
