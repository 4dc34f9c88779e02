// The workers' side of an executor (ExecutorService::register_workers): this client's
// registrations, one per executor name, one registry per client (a ClientService). Redisson's
// TasksRunnerService and QueueTransferTask, on the client's I/O thread, with the tasks on
// threads of the registration's own (`workers` of them):
//
//   BLPOP the request list while a worker is free -> executor_take.lua (the task's bytes stay
//   in the tasks hash while it runs) -> executor_renew.lua (the retry entry moved a retry
//   interval ahead, and again every half interval while the task runs) -> the task runs on a
//   worker thread -> executor_finish.lua (counted out; a one-shot task leaves the hash) -> the
//   result to the submitter's response list (remote_respond.lua) -> a periodic task's next run
//   (executor_schedule.lua, only while it was not cancelled) -> the worker is free again.
//
//   The scheduler: a timer at the head of the schedule zset, told of earlier heads on the
//   scheduler channel, runs executor_push_due.lua, which queues what is due (retry entries
//   included: a task whose worker stopped renewing) and answers the next head.
//
// A request this worker cannot read (a Java task, damaged bytes) is reported to
// Config::error_handler and left to its retry entry; a task name not registered here fails the
// task (its submitter hears why).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "client/client_services.hpp"
#include "redisson/services/executor_service.hpp"

namespace redisson::detail {

class ClientCore;

class ExecutorWorkers : public ClientService {
 public:
  explicit ExecutorWorkers(ClientCore& core);
  ~ExecutorWorkers() override;

  /// Starts the workers and the scheduler (any thread); false when this executor has workers
  /// here already. errc::invalid_argument when `workers` < 1.
  bool add(const ExecutorPtr& executor, std::vector<RemoteMethodEntry> tasks, int workers);
  /// Stops taking tasks (any thread); those running finish. False when none were registered.
  bool remove(const std::string& name);
  int free_workers(const std::string& name) const;

  void closing() noexcept override;
  /// Waits for the tasks still running (their threads end then).
  void stopped() noexcept override;

  class Registration;

 private:
  ClientCore& core_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Registration>> registrations_;
  // Deregistered, their threads not joined yet (stopped() joins them).
  std::vector<std::shared_ptr<Registration>> retired_;
};

}  // namespace redisson::detail
