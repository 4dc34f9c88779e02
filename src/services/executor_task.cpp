#include "services/executor_task.hpp"

#include <utility>

#include "redisson/error.hpp"
#include "redisson/value.hpp"

namespace redisson::detail {

namespace {

// The class our parameter map is written as: a plain map, so any codec carries it.
constexpr const char* kParamsClass = "java.util.HashMap";
constexpr const char* kTaskField = "cppTask";

struct MethodName {
  TaskSubmission::Kind kind;
  bool wants_result;
  const char* name;
};
constexpr MethodName kMethods[] = {
    {TaskSubmission::Kind::now, true, "executeCallable"},
    {TaskSubmission::Kind::now, false, "executeRunnable"},
    {TaskSubmission::Kind::delayed, true, "scheduleCallable"},
    {TaskSubmission::Kind::delayed, false, "scheduleRunnable"},
    {TaskSubmission::Kind::fixed_rate, false, "scheduleAtFixedRate"},
    {TaskSubmission::Kind::fixed_delay, false, "scheduleWithFixedDelay"},
    {TaskSubmission::Kind::cron, false, "schedule"},
};

}  // namespace

const char* executor_method_of(TaskSubmission::Kind kind, bool wants_result) {
  for (const auto& method : kMethods) {
    if (method.kind == kind &&
        (method.wants_result == wants_result || kind >= TaskSubmission::Kind::fixed_rate)) {
      return method.name;
    }
  }
  return "executeRunnable";
}

bool executor_kind_of(std::string_view method, TaskSubmission::Kind& kind) {
  for (const auto& known : kMethods) {
    if (method == known.name) {
      kind = known.kind;
      return true;
    }
  }
  return false;
}

std::string encode_task_params(const Codec& codec, const ExecutorTaskParams& params) {
  Value::Entries entries;
  entries.reserve(6);
  entries.emplace_back(Value::string(kTaskField), Value::string(params.task));
  entries.emplace_back(Value::string("startTime"), Value::long_int(params.start_ms));
  entries.emplace_back(Value::string("period"), Value::long_int(params.period_ms));
  entries.emplace_back(Value::string("spentTime"), Value::long_int(params.spent_ms));
  entries.emplace_back(Value::string("cronExpression"), Value::string(params.cron));
  entries.emplace_back(Value::string("timezone"), Value::string(params.zone));
  return codec.encode(Value::map(std::move(entries), kParamsClass));
}

ExecutorTaskParams decode_task_params(const Codec& codec, std::string_view bytes) {
  Value value;
  try {
    value = codec.decode(bytes);
  } catch (const error& unreadable) {
    throw error(errc::codec_error,
                std::string("not a C++ task's parameters: ") + unreadable.what());
  }
  if (value.kind() != ValueKind::map) {
    throw error(errc::codec_error, "not a C++ task's parameters (a Java task?)");
  }
  ExecutorTaskParams params;
  bool named = false;
  for (const auto& [key, field] : value.entries()) {
    const auto& name = key.text();
    if (name == kTaskField) {
      params.task = field.text();
      named = true;
    } else if (name == "startTime") {
      params.start_ms = field.int_value();
    } else if (name == "period") {
      params.period_ms = field.int_value();
    } else if (name == "spentTime") {
      params.spent_ms = field.int_value();
    } else if (name == "cronExpression") {
      params.cron = field.text();
    } else if (name == "timezone") {
      params.zone = field.text();
    }
  }
  if (!named) throw error(errc::codec_error, "not a C++ task's parameters (no task name)");
  return params;
}

}  // namespace redisson::detail
