// How a C++ task travels (no I/O): a RemoteServiceRequest, as Redisson's executor queues one,
// whose method names the kind of run (Java's RemoteExecutorService method: executeCallable,
// scheduleAtFixedRate, ...) and whose arguments are the task's parameters (first) and then the
// task's own arguments, each in the executor's codec. Java puts a TaskParameters object with the
// task's bytecode first; ours is a map naming the task (ExecutorTaskParams), so a Java worker
// cannot run a C++ task, nor a C++ worker a Java one (it reports it and leaves it alone).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "redisson/codec.hpp"
#include "redisson/services/executor_service.hpp"

namespace redisson::detail {

struct ExecutorTaskParams {
  std::string task;            // the registered name
  std::int64_t start_ms = 0;   // a scheduled run's start (epoch ms)
  std::int64_t period_ms = 0;  // fixed rate: between starts; fixed delay: after each end
  std::int64_t spent_ms = 0;   // fixed rate: how far runs are behind the rate
  std::string cron;            // a cron run: the expression
  std::string zone;            // and its zone (CronZone::name)

  friend bool operator==(const ExecutorTaskParams&, const ExecutorTaskParams&) = default;
};

/// The Java method name of a kind of run (executeCallable, executeRunnable, scheduleCallable,
/// scheduleRunnable, scheduleAtFixedRate, scheduleWithFixedDelay, schedule).
const char* executor_method_of(TaskSubmission::Kind kind, bool wants_result);
/// The kind of run a method names; false for any other name (a foreign request).
bool executor_kind_of(std::string_view method, TaskSubmission::Kind& kind);

std::string encode_task_params(const Codec& codec, const ExecutorTaskParams& params);
/// errc::codec_error when the bytes are not our parameters (a Java task's TaskParameters).
ExecutorTaskParams decode_task_params(const Codec& codec, std::string_view bytes);

}  // namespace redisson::detail
