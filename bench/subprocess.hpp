// Child processes with bounded lifetimes: redis-benchmark, redis-cli and worker copies of
// redisson-bench itself. Every child is reaped; one still running at its deadline is killed
// (SIGKILL, by PID) and then reaped.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace redisson_bench {

struct ProcessResult {
  std::vector<std::string> argv;
  int exit_code = -1;  ///< -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  std::string out;
  std::string err;  ///< empty unless stderr was captured

  bool ok() const noexcept { return !timed_out && exit_code == 0; }
  /// "redis-benchmark exited with 1: <stderr tail>" and the like.
  std::string describe() const;
};

/// Children started together and waited for together.
class ChildGroup {
 public:
  ChildGroup() = default;
  ChildGroup(const ChildGroup&) = delete;
  ChildGroup& operator=(const ChildGroup&) = delete;
  /// Kills and reaps every child still running.
  ~ChildGroup();

  /// Starts `argv` (PATH lookup) with stdin on /dev/null and stdout captured. stderr is captured
  /// when `capture_stderr`, else shared with ours. `inherit_fd` >= 0 becomes the child's fd 3.
  /// Throws std::runtime_error when the program cannot be started.
  void spawn(const std::vector<std::string>& argv, bool capture_stderr, int inherit_fd = -1);

  /// Collects output until every child exited or `deadline` passed (then kills the rest).
  /// Results are in spawn order.
  std::vector<ProcessResult> wait_all(std::chrono::steady_clock::time_point deadline);

  std::size_t size() const noexcept { return children_.size(); }

 private:
  struct Child {
    pid_t pid = -1;
    int out_fd = -1;
    int err_fd = -1;
    bool reaped = false;
    ProcessResult result;
  };
  void kill_and_reap_all() noexcept;

  std::vector<Child> children_;
};

/// Runs one program to completion (bounded by `timeout`), capturing stdout and stderr.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

/// The path of the running executable (/proc/self/exe), for re-executing workers.
std::string self_executable();

}  // namespace redisson_bench
