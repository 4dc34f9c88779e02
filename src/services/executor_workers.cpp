#include "services/executor_workers.hpp"

#include <algorithm>
#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <thread>
#include <utility>

#include "client/blocking_pool.hpp"
#include "client/client_core.hpp"
#include "client/failure_report.hpp"
#include "lua_scripts.hpp"
#include "objects/send.hpp"
#include "redisson/detail/blocking_op.hpp"
#include "redisson/error.hpp"
#include "redisson/objects/topic.hpp"
#include "services/executor_state.hpp"
#include "services/executor_task.hpp"
#include "services/remote_names.hpp"
#include "services/remote_wire.hpp"
#include "threads/join_threads.hpp"

namespace redisson::detail {

namespace {

constexpr std::chrono::seconds kExecutorRetryAfterFailure{1};
// At most this many due entries move per run of the scheduler script (Redisson's 50).
constexpr const char* kDueBatch = "50";
// A running task's retry entry is renewed every half retry interval, at least a second apart.
constexpr std::chrono::milliseconds kMinRenewal{1000};

std::int64_t worker_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One task run, from its take to its worker being free again.
struct TaskRun {
  explicit TaskRun(asio::io_context& io) : renewal(io) {}
  RemoteRequest request;
  ExecutorTaskParams params;
  TaskSubmission::Kind kind = TaskSubmission::Kind::now;
  const RemoteMethodEntry* entry = nullptr;   // null: not registered here
  std::optional<std::int64_t> next_start_ms;  // a cron task's next run, computed before this one
  RemoteResponse response;
  std::int64_t started_ms = 0;  // when the task began to run (a worker thread's clock read)
  asio::steady_timer renewal;
  bool ended = false;  // the run is over: no more renewals
};

}  // namespace

class ExecutorWorkers::Registration : public std::enable_shared_from_this<Registration> {
 public:
  Registration(ClientCore& core, ExecutorPtr executor, std::vector<RemoteMethodEntry> tasks,
               int workers)
      : core_(core),
        state_(std::move(executor)),
        free_(workers),
        workers_(workers),
        retry_(core.io()),
        scheduler_timer_(core.io()),
        runner_(std::make_shared<asio::io_context>()),
        work_(runner_->get_executor()) {
    for (auto& task : tasks) {
      auto name = task.name;
      tasks_.insert_or_assign(std::move(name), std::move(task));
    }
  }

  int free_workers() const { return free_.load(std::memory_order_acquire); }

  void start() {
    threads_.reserve(static_cast<std::size_t>(workers_));
    for (int i = 0; i < workers_; ++i) {
      threads_.emplace_back([runner = runner_] { runner->run(); });
    }
    core_.run_on_io([self = shared_from_this()] {
      self->poll();
      self->subscribe();  // then the schedule's head is read (push_due)
    });
  }

  // Any thread: no new task is taken; those running finish, then the threads end.
  void stop() {
    if (active_.exchange(false, std::memory_order_acq_rel)) {
      {
        std::lock_guard lock(threads_mutex_);
        work_.reset();
      }
      core_.run_on_io([self = shared_from_this()] {
        self->retry_.cancel();
        self->scheduler_timer_.cancel();
        if (self->call_) self->core_.blocking_pool().cancel(self->call_);
        if (self->listener_ != 0) {
          start_topic_remove(self->channel_, std::exchange(self->listener_, 0),
                             [](const Status&, bool) {});
        }
        if (self->counts_listener_ != 0) {
          start_topic_remove(self->counts_channel_, std::exchange(self->counts_listener_, 0),
                             [](const Status&, bool) {});
        }
      });
    }
  }

  // Waits for the running tasks; a task thread that stops its own client is detached instead.
  void join() noexcept {
    std::lock_guard lock(threads_mutex_);
    work_.reset();
    join_threads(threads_);
  }

 private:
  bool active() const { return active_.load(std::memory_order_acquire); }

  void report(const std::string& what, const Status& status) const {
    report_failure(core_.config(), error(status.code, "executor " + state_->name + ": " + what +
                                                          ": " + status.detail));
  }

  // ---- taking tasks (I/O thread) ------------------------------------------------------------
  void poll() {
    if (!active() || call_ || polling_retry_ || free_workers() <= 0) return;
    auto command = wait_last_command("BLPOP", state_->queue, {}, std::nullopt, "executor");
    BlockingPool::Request request;
    request.args = std::move(command.args);
    request.timeout_index = command.timeout_index;
    request.key_index = command.key_index;
    request.callback = [self = shared_from_this()](std::error_code ec, const Reply& reply) {
      self->call_.reset();
      self->popped(ec, reply);
    };
    call_ = core_.blocking_pool().run(std::move(request));
  }

  void popped(std::error_code ec, const Reply& reply) {
    const bool got = !ec && reply.is_aggregate() && reply.elements.size() == 2;
    if (!active()) {
      // Deregistered while the pop was answered: the id goes back to the head for another.
      if (got) {
        submit_all(core_.shared_from_this(),
                   {Command{"LPUSH", state_->queue, reply.elements[1].str}},
                   [](const Status&, const std::vector<Reply>&) {});
      }
      return;
    }
    if (const auto status = blocking_status(ec, reply)) {
      if (status.code == make_error_code(errc::shutdown)) return;
      report("BLPOP " + state_->queue, status);
      return pause();
    }
    if (!got) return poll();
    free_.fetch_sub(1, std::memory_order_acq_rel);
    poll();  // another worker free: the next task may be taken meanwhile
    take(reply.elements[1].str);
  }

  void take(const std::string& id) {
    const auto& s = *state_;
    eval_reply(core_.shared_from_this(),
               lua::executor_take(
                   {s.tasks, s.expiration, s.counter, s.status, s.retry_interval,
                    s.termination_topic, s.scheduler, s.cancelled_runs},
                   {id, std::to_string(worker_now_ms()), kExecutorShutDown, kExecutorTerminated}),
               [self = shared_from_this(), id](const Status& status, const Reply& reply) {
                 if (status) {
                   self->report("take " + id, status);
                   return self->done_with(true);
                 }
                 if (reply.is_null()) return self->done_with(false);  // cancelled or expired
                 if (!self->active()) {
                   // Deregistered meanwhile: its threads take nothing more, so the id goes back
                   // to the head of the list for another worker (the bytes never left).
                   return submit_all(self->core_.shared_from_this(),
                                     {Command{"LPUSH", self->state_->queue, id}},
                                     [](const Status&, const std::vector<Reply>&) {});
                 }
                 self->received(reply.str);
               });
  }

  void received(const std::string& bytes) {
    auto run = std::make_shared<TaskRun>(core_.io());
    try {
      run->request = decode_remote_request(state_->wire, bytes);
      if (!executor_kind_of(run->request.method_name, run->kind) || run->request.args.empty()) {
        throw error(errc::codec_error, "method " + run->request.method_name + " is not ours");
      }
      run->params = decode_task_params(*state_->codec, run->request.args.front());
    } catch (const error& foreign) {
      // Left in place: its retry entry queues it again, for a worker that can read it.
      report_failure(core_.config(),
                     error(errc::codec_error, "executor " + state_->name +
                                                  ": a task this C++ worker cannot run (a Java "
                                                  "task?) was left to its retry entry: " +
                                                  foreign.what()));
      return done_with(false);
    }
    const auto found = tasks_.find(run->params.task);
    if (found != tasks_.end()) run->entry = &found->second;
    if (run->kind == TaskSubmission::Kind::cron) {
      try {
        const auto cron = CronSchedule::of(run->params.cron, CronZone::parse(run->params.zone));
        const auto next = cron.next_after(std::chrono::system_clock::now());
        if (next) {
          run->next_start_ms =
              std::chrono::duration_cast<std::chrono::milliseconds>(next->time_since_epoch())
                  .count();
        }
      } catch (const error& bad) {
        run->entry = nullptr;
        run->response.error = std::string("its cron schedule cannot be read: ") + bad.what();
      }
    }
    renew(run);
    execute(run);
  }

  // ---- running (the retry entry renewed meanwhile) ------------------------------------------
  // The retry entry was put a retry interval ahead when the task was queued or became due, so
  // the task starts at once, beside its first renewal (one round trip less than Java, which
  // waits for it); the renewals go on every half interval while it runs.
  void renew(const std::shared_ptr<TaskRun>& run) {
    const auto& s = *state_;
    eval_reply(
        core_.shared_from_this(),
        lua::executor_renew({s.status, s.scheduler, s.scheduler_channel, s.retry_interval, s.tasks},
                            {std::to_string(worker_now_ms()), run->request.id}),
        [self = shared_from_this(), run](const Status& status, const Reply& reply) {
          if (status) {
            if (status.code != make_error_code(errc::shutdown)) {
              self->report("renew " + run->request.id, status);
            }
            return;
          }
          if (reply.is_null() || run->ended) return;
          const auto every = std::max(kMinRenewal, std::chrono::milliseconds(reply.integer / 2));
          run->renewal.expires_after(every);
          run->renewal.async_wait([self, run](std::error_code ec) {
            if (!ec && !run->ended) self->renew(run);
          });
        });
  }

  void execute(const std::shared_ptr<TaskRun>& run) {
    asio::post(*runner_, [self = shared_from_this(), run] {
      auto& response = run->response;
      response.id = run->request.id;
      run->started_ms = worker_now_ms();
      if (run->entry == nullptr) {
        if (!response.error) {
          response.error = "no task '" + run->params.task +
                           "' is registered with the workers of "
                           "executor " +
                           self->state_->name + " on this client";
        }
      } else {
        const std::vector<std::string> args(run->request.args.begin() + 1, run->request.args.end());
        try {
          response.result = run->entry->invoke(*self->state_->codec, args);
        } catch (const std::exception& thrown) {
          response.error = thrown.what();
        } catch (...) {
          response.error = "a non-exception was thrown";
        }
      }
      self->core_.run_on_io([self, run] { self->finish(run); });
    });
  }

  // ---- after the run (I/O thread) ------------------------------------------------------------
  // The task is counted out and its result sent back to back, without waiting in between (on
  // one server they run in that order: a submitter that has its result sees the task gone);
  // then a periodic task's next run is scheduled.
  void finish(const std::shared_ptr<TaskRun>& run) {
    run->ended = true;
    run->renewal.cancel();
    using Kind = TaskSubmission::Kind;
    const bool periodic =
        run->entry != nullptr && (run->kind == Kind::fixed_rate || run->kind == Kind::fixed_delay ||
                                  (run->kind == Kind::cron && run->next_start_ms));
    auto pending = std::make_shared<int>(2);
    auto then = [self = shared_from_this(), run, periodic, pending] {
      if (--*pending == 0) self->reschedule(run, periodic);
    };
    const auto& s = *state_;
    eval_reply(core_.shared_from_this(),
               lua::executor_finish(
                   {s.counter, s.status, s.termination_topic, s.tasks, s.scheduler,
                    s.retry_interval, s.expiration, s.cancelled_runs},
                   {kExecutorShutDown, kExecutorTerminated, run->request.id, periodic ? "0" : "1"}),
               [self = shared_from_this(), run, then](const Status& status, const Reply&) {
                 if (status) self->report("finish " + run->request.id, status);
                 then();
               });
    respond(run, then);
  }

  template <class Then>
  void respond(const std::shared_ptr<TaskRun>& run, Then then) {
    const auto& life = run->request.options.execution_timeout_ms;
    if (!life) {
      if (run->response.error) {
        report_failure(
            core_.config(),
            error(errc::remote_failed, "executor " + state_->name + ": task '" + run->params.task +
                                           "' (" + run->request.id + "): " + *run->response.error));
      }
      return then();
    }
    std::string bytes;
    try {
      bytes = encode_remote_response(state_->wire, run->response);
    } catch (const error& unencodable) {
      run->response.result.reset();
      run->response.error = std::string("the result could not be encoded: ") + unencodable.what();
      bytes = encode_remote_response(state_->wire, run->response);
    }
    eval_reply(core_.shared_from_this(),
               lua::remote_respond({remote_response_queue(run->request.executor_id)},
                                   {bytes, std::to_string(*life)}),
               [self = shared_from_this(), run, then](const Status& status, const Reply&) {
                 if (status) self->report("respond " + run->request.id, status);
                 then();
               });
  }

  void reschedule(const std::shared_ptr<TaskRun>& run, bool periodic) {
    if (!periodic) return done_with(false);
    const auto now = worker_now_ms();
    auto params = run->params;
    using Kind = TaskSubmission::Kind;
    if (run->kind == Kind::fixed_rate) {
      // Java's catch-up: a run that took longer than the period makes the next start at once,
      // and the time it overran is carried to the next runs.
      const auto spent = params.spent_ms + (now - run->started_ms);
      params.start_ms = now + std::max<std::int64_t>(params.period_ms - spent, 0);
      params.spent_ms = std::max<std::int64_t>(spent - params.period_ms, 0);
    } else if (run->kind == Kind::fixed_delay) {
      params.start_ms = now + params.period_ms;
    } else {
      params.start_ms = *run->next_start_ms;
    }
    auto request = run->request;
    std::string bytes;
    try {
      request.args.front() = encode_task_params(*state_->codec, params);
      request.date_ms = now;
      bytes = encode_remote_request(state_->wire, request);
    } catch (const error& failure) {
      report("reschedule " + request.id, status_of_error(failure));
      return done_with(false);
    }
    const auto& s = *state_;
    eval_reply(
        core_.shared_from_this(),
        lua::executor_schedule({s.counter, s.status, s.scheduler, s.scheduler_channel, s.tasks,
                                s.retry_interval, s.expiration, s.latch_prefix + ":" + request.id},
                               {std::to_string(params.start_ms), request.id, bytes,
                                std::to_string(s.options.task_retry_interval.count()), "0", "1"}),
        [self = shared_from_this(), id = request.id](const Status& status, const Reply&) {
          if (status) self->report("reschedule " + id, status);
          self->done_with(false);
        });
  }

  void done_with(bool failed) {
    free_.fetch_add(1, std::memory_order_acq_rel);
    if (failed) return pause();
    poll();
  }

  void pause() {
    if (polling_retry_ || !active()) return;
    polling_retry_ = true;
    retry_.expires_after(kExecutorRetryAfterFailure);
    retry_.async_wait([self = shared_from_this()](std::error_code ec) {
      self->polling_retry_ = false;
      if (!ec) self->poll();
    });
  }

  // ---- the scheduler (I/O thread) ------------------------------------------------------------
  void subscribe() {
    channel_ = channel_object(state_->scheduler_channel);
    TopicCallbacks callbacks;
    std::weak_ptr<Registration> weak = weak_from_this();
    // On the I/O thread as the message arrives: the new head's time, a timer moved earlier.
    callbacks.on_io_message = [weak](std::string_view payload) {
      if (auto self = weak.lock()) {
        try {
          self->arm(std::stoll(std::string(payload)));
        } catch (const std::exception&) {
          // Not a time: nothing to arm.
        }
      }
    };
    callbacks.on_status = [weak](TopicStatus status, std::string_view) {
      if (status != TopicStatus::resubscribed) return;
      if (auto self = weak.lock()) {
        self->core_.run_on_io([self] { self->push_due(); });
      }
    };
    listen_for_counts();
    // Once heard, what was scheduled before: the head (push_due).
    listen(channel_, std::move(callbacks), listener_, [](Registration& self) { self.push_due(); });
  }

  std::shared_ptr<ObjectState> channel_object(const std::string& channel) const {
    auto object = std::make_shared<ObjectState>();
    object->core = core_.shared_from_this();
    object->name = channel;
    object->kind = "ExecutorService";
    return object;
  }

  // Subscribes `channel` with `callbacks` (messages handled in their accept hook, on the I/O
  // thread); its listener id lands in `slot`, then `then` runs. Deregistered meanwhile: the
  // listener is removed again.
  void listen(const std::shared_ptr<ObjectState>& channel, TopicCallbacks callbacks,
              ListenerId& slot, void (*then)(Registration&)) {
    std::weak_ptr<Registration> weak = weak_from_this();
    start_topic_listen(channel, TopicKind::plain, std::move(callbacks),
                       [weak, channel, &slot, then](const Status& status, ListenerId id) {
                         auto self = weak.lock();
                         if (!self) return;
                         if (status) return self->report("subscribe " + channel->name, status);
                         self->core_.run_on_io([self, channel, &slot, then, id] {
                           if (!self->active()) {
                             return start_topic_remove(channel, id, [](const Status&, bool) {});
                           }
                           slot = id;
                           if (then != nullptr) then(*self);
                         });
                       });
  }

  // count_active_workers: each request (an id in the client's codec) is answered with this
  // registration's number of workers and a permit (executor_workers_count.lua).
  void listen_for_counts() {
    counts_channel_ = channel_object(state_->workers_channel);
    TopicCallbacks callbacks;
    std::weak_ptr<Registration> weak = weak_from_this();
    // On the I/O thread: an answer is one script sent, and must not wait behind task threads.
    callbacks.on_io_message = [weak](std::string_view payload) {
      if (auto self = weak.lock()) self->answer_count(payload);
    };
    listen(counts_channel_, std::move(callbacks), counts_listener_, nullptr);
  }

  void answer_count(std::string_view payload) {
    if (!active()) return;
    std::string id;
    try {
      id = core_.config().codec->decode(payload).text();
    } catch (const error&) {
      return;  // not a request id: nobody waits for an answer to it
    }
    const auto semaphore = state_->workers_semaphore_prefix + ":" + id;
    eval_reply(core_.shared_from_this(),
               lua::executor_workers_count({state_->workers_counter_prefix + ":" + id, semaphore,
                                            executor_semaphore_channel(semaphore)},
                                           {std::to_string(workers_)}),
               [self = shared_from_this()](const Status& status, const Reply&) {
                 if (status) self->report("count workers", status);
               });
  }

  void arm(std::int64_t at_ms) {
    if (!active()) return;
    if (armed_ && armed_at_ <= at_ms) return;
    armed_ = true;
    armed_at_ = at_ms;
    scheduler_timer_.expires_after(
        std::chrono::milliseconds(std::max<std::int64_t>(0, at_ms - worker_now_ms())));
    scheduler_timer_.async_wait([self = shared_from_this(), at_ms](std::error_code ec) {
      if (ec || self->armed_at_ != at_ms) return;  // cancelled, or moved earlier
      self->armed_ = false;
      self->push_due();
    });
  }

  void push_due() {
    if (!active()) return;
    const auto& s = *state_;
    eval_reply(core_.shared_from_this(),
               lua::executor_push_due({s.queue, s.scheduler, s.scheduler_channel, s.retry_interval},
                                      {std::to_string(worker_now_ms()), kDueBatch}),
               [self = shared_from_this()](const Status& status, const Reply& reply) {
                 if (status) {
                   if (status.code == make_error_code(errc::shutdown)) return;
                   self->report("the scheduler", status);
                   return self->arm(worker_now_ms() + 1000);
                 }
                 if (reply.is_null()) return;
                 try {
                   self->arm(std::stoll(reply.str));
                 } catch (const std::exception&) {
                   // A head without a number is not ours to keep.
                 }
               });
  }

  ClientCore& core_;
  const ExecutorPtr state_;
  std::map<std::string, RemoteMethodEntry> tasks_;
  std::atomic<int> free_;
  const int workers_;
  std::atomic<bool> active_{true};
  // I/O thread only.
  BlockingPool::CallPtr call_;
  asio::steady_timer retry_;
  bool polling_retry_ = false;
  asio::steady_timer scheduler_timer_;
  bool armed_ = false;
  std::int64_t armed_at_ = 0;
  std::shared_ptr<ObjectState> channel_;
  ListenerId listener_ = 0;
  std::shared_ptr<ObjectState> counts_channel_;
  ListenerId counts_listener_ = 0;
  // The task threads.
  std::mutex threads_mutex_;
  std::shared_ptr<asio::io_context> runner_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

ExecutorWorkers::ExecutorWorkers(ClientCore& core) : core_(core) {}

ExecutorWorkers::~ExecutorWorkers() { stopped(); }

bool ExecutorWorkers::add(const ExecutorPtr& executor, std::vector<RemoteMethodEntry> tasks,
                          int workers) {
  if (workers < 1) throw error(errc::invalid_argument, "register_workers: workers must be >= 1");
  auto registration = std::make_shared<Registration>(core_, executor, std::move(tasks), workers);
  {
    std::lock_guard lock(mutex_);
    if (!registrations_.emplace(executor->name, registration).second) return false;
  }
  registration->start();
  return true;
}

bool ExecutorWorkers::remove(const std::string& name) {
  std::shared_ptr<Registration> registration;
  {
    std::lock_guard lock(mutex_);
    const auto found = registrations_.find(name);
    if (found == registrations_.end()) return false;
    registration = std::move(found->second);
    registrations_.erase(found);
    retired_.push_back(registration);
  }
  registration->stop();
  return true;
}

int ExecutorWorkers::free_workers(const std::string& name) const {
  std::lock_guard lock(mutex_);
  const auto found = registrations_.find(name);
  return found == registrations_.end() ? 0 : found->second->free_workers();
}

void ExecutorWorkers::closing() noexcept {
  try {
    std::lock_guard lock(mutex_);
    for (auto& [name, registration] : registrations_) {
      registration->stop();
      retired_.push_back(registration);
    }
    registrations_.clear();
  } catch (const std::exception&) {
    // No memory: the connections close right after, which ends every pop.
  }
}

void ExecutorWorkers::stopped() noexcept {
  std::vector<std::shared_ptr<Registration>> joining;
  {
    std::lock_guard lock(mutex_);
    joining.swap(retired_);
    for (auto& [name, registration] : registrations_) joining.push_back(registration);
    registrations_.clear();
  }
  for (auto& registration : joining) {
    registration->stop();
    registration->join();
  }
}

}  // namespace redisson::detail
