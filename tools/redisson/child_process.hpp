// Running CMD under the lock: start it, relay signals to it, stop it when the lock is lost, and
// report its exit status the way a shell does.
//
// Signals are never handled asynchronously: SignalStream blocks SIGINT, SIGTERM, SIGHUP and
// SIGCHLD for the whole process and reads them from a signalfd, and other threads (the client's
// I/O thread) talk to the main thread through a Notifier pipe, so one poll() sees everything and
// nothing busy-waits.
#pragma once

#include <sys/signalfd.h>
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace redisson::cli {

/// Blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD and reads them from a signalfd. Construct it before
/// any other thread starts (threads inherit the mask, so a signal can only ever be read here).
class SignalStream {
 public:
  SignalStream();
  ~SignalStream();
  SignalStream(const SignalStream&) = delete;
  SignalStream& operator=(const SignalStream&) = delete;

  int fd() const noexcept { return fd_; }
  /// The next pending signal, or nullopt when none is pending (never blocks).
  std::optional<signalfd_siginfo> next();

 private:
  int fd_ = -1;
};

/// A self-pipe: notify() may be called from any thread; fd() is readable until drain().
class Notifier {
 public:
  Notifier();
  ~Notifier();
  Notifier(const Notifier&) = delete;
  Notifier& operator=(const Notifier&) = delete;

  void notify() noexcept;
  void drain() noexcept;
  int fd() const noexcept { return read_fd_; }

 private:
  int read_fd_ = -1;
  int write_fd_ = -1;
};

/// The file descriptors open right now. Taken at start-up, it tells the descriptors the tool
/// inherited (which CMD inherits too, as from a shell) from those it opened itself.
std::set<int> open_fds();

/// Starts `argv` (argv[0] looked up in PATH, like execvp) with an empty signal mask and default
/// signal dispositions, in the tool's process group. Descriptors the tool opened since
/// `inherited` was taken (the Redis connections) are not passed on. Returns the child's pid, or the
/// errno of the failed exec (ENOENT: not found, EACCES: not executable) as a negative number.
/// `extra_env` ("NAME=value") is added to (or replaces variables in) the inherited environment.
pid_t spawn_command(const std::vector<std::string>& argv, const std::set<int>& inherited,
                    const std::vector<std::string>& extra_env = {});

/// The status a shell reports for a waitpid() status: the exit code, or 128 + the signal.
int shell_status(int wait_status);

/// What happened while CMD ran.
struct ChildOutcome {
  int wait_status = 0;  ///< from waitpid
  bool lock_lost = false;
};

/// Waits for `child` to end. Meanwhile relays SIGINT/SIGTERM/SIGHUP to it (except those the
/// terminal already sent to the whole process group), and when `lost` is notified, calls
/// `on_lost` once, sends SIGTERM to the child and SIGKILL `kill_grace` later if it still runs.
ChildOutcome supervise_child(pid_t child, SignalStream& signals, Notifier& lost,
                             const std::function<void()>& on_lost,
                             std::chrono::milliseconds kill_grace);

}  // namespace redisson::cli
