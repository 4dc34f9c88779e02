#include "lock_command.hpp"

#include <poll.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "child_process.hpp"
#include "duration.hpp"
#include "exit_status.hpp"
#include "redisson/client.hpp"

namespace redisson::cli {
namespace {

using namespace std::chrono_literals;

// How long CMD has to exit after SIGTERM (lock lost) before it gets SIGKILL.
constexpr auto kKillGrace = 10s;

constexpr const char* kLockFooter =
    R"(Synopsis: redisson lock NAME [--wait DUR] [--lease DUR] -- CMD [ARGS...]

Without --lease the lock gets the watchdog lease (--watchdog-timeout, default 30s),
renewed every third of it while CMD runs. With --lease it is held for that long and never
renewed: if CMD outlives the lease the lock is simply gone (a warning is printed at the end).
SIGINT, SIGTERM and SIGHUP sent to redisson are passed on to CMD. The lock's owner field in
Redis is <client-id>:<pid of redisson>.

Exit status:
  CMD's own status    CMD ran; 128+N if it was killed by signal N
  64                  usage error (bad option, duration or URL)
  69                  Redis unreachable, or the connection failed while locking
  75                  the lock was not acquired within --wait
  76                  the lock was lost while CMD ran (its key expired or was deleted):
                      CMD got SIGTERM (SIGKILL 10s later if still running)
  126, 127            CMD could not be executed / was not found
  128+N               interrupted by signal N while waiting for the lock

Example:
  redisson lock nightly-backup --wait 0 -- ./backup.sh --full)";

std::optional<std::chrono::milliseconds> duration_option(const char* flag,
                                                         const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  try {
    return parse_duration(*text);
  } catch (const std::invalid_argument& e) {
    throw ToolError(kExitUsage, std::string(flag) + ": " + e.what());
  }
}

// The outcome of the asynchronous acquisition, written on the client's I/O thread.
struct Acquisition {
  std::mutex mutex;
  bool done = false;
  bool acquired = false;
  std::error_code error;
};

std::error_code unlock(Lock& lock, std::uint64_t owner) {
  std::promise<std::error_code> released;
  auto result = released.get_future();
  lock.async_unlock(owner, [&released](std::error_code ec) { released.set_value(ec); });
  return result.get();
}

// Waits until the acquisition completes (-> 0) or a terminating signal arrives (-> the signal).
int wait_for_acquisition(SignalStream& signals, Notifier& acquired) {
  for (;;) {
    pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {acquired.fd(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if ((fds[1].revents & POLLIN) != 0) return 0;
    while (auto info = signals.next()) {
      if (info->ssi_signo != SIGCHLD) return static_cast<int>(info->ssi_signo);
    }
  }
}

}  // namespace

CLI::App* add_lock_command(CLI::App& app, LockOptions& options) {
  auto* command =
      app.add_subcommand("lock", "Run a command while holding a distributed lock, then release it");
  command->add_option("NAME", options.name, "Lock name (the Redis key, as Redisson's getLock)")
      ->required();
  command
      ->add_option("--wait", options.wait,
                   "Give up after waiting this long (exit 75); 0: a single attempt. "
                   "Default: wait as long as it takes")
      ->type_name("DUR");
  command
      ->add_option("--lease", options.lease,
                   "Hold the lock for this long at most, without watchdog renewal")
      ->type_name("DUR");
  command->add_option("CMD", options.command, "The command to run and its arguments, after --")
      ->required();
  command->footer(kLockFooter);
  return command;
}

int run_lock(const GlobalOptions& global, const LockOptions& options) {
  // Descriptors inherited from our caller go on to CMD; the ones we open do not.
  const auto inherited = open_fds();
  const auto wait = duration_option("--wait", options.wait);
  const auto lease = duration_option("--lease", options.lease);
  if (lease && lease->count() <= 0) throw ToolError(kExitUsage, "--lease must be positive");
  const auto config = make_config(global);  // report usage errors before connecting

  // Before the client starts its threads, so that they inherit the blocked signals.
  SignalStream signals;
  Notifier acquired_event;
  Notifier lost_event;
  auto acquisition = std::make_shared<Acquisition>();

  Client client = connect(global);
  Lock lock = client.get_lock(options.name);
  const auto owner = static_cast<std::uint64_t>(::getpid());
  lock.on_lost([&lost_event, owner](std::uint64_t lost_owner) {
    if (lost_owner == owner) lost_event.notify();
  });
  lock.async_try_lock(owner, wait, lease,
                      [acquisition, &acquired_event](std::error_code ec, bool acquired) {
                        {
                          std::lock_guard guard(acquisition->mutex);
                          acquisition->done = true;
                          acquisition->acquired = acquired;
                          acquisition->error = ec;
                        }
                        acquired_event.notify();
                      });

  if (const int sig = wait_for_acquisition(signals, acquired_event); sig != 0) {
    std::lock_guard guard(acquisition->mutex);
    if (acquisition->done && acquisition->acquired) unlock(lock, owner);
    std::cerr << "redisson: interrupted by signal " << sig << " (" << strsignal(sig)
              << ") while waiting for lock " << options.name << "\n";
    return kExitSignalBase + sig;
  }
  {
    std::lock_guard guard(acquisition->mutex);
    if (acquisition->error) {
      const redisson::error failure(acquisition->error, "cannot lock " + options.name);
      throw ToolError(exit_status_of(failure), failure.what());
    }
    if (!acquisition->acquired) {
      std::cerr << "redisson: lock " << options.name << " not acquired within "
                << (wait ? format_duration(*wait) : std::string("the wait")) << "\n";
      return kExitNotAcquired;
    }
  }

  const pid_t child = spawn_command(options.command, inherited);
  if (child < 0) {
    const int error = -child;
    const bool not_found = error == ENOENT;
    std::cerr << "redisson: " << options.command.front() << ": "
              << (not_found ? "command not found" : std::strerror(error)) << "\n";
    if (const auto ec = unlock(lock, owner)) {
      std::cerr << "redisson: warning: could not unlock " << options.name << ": " << ec.message()
                << "\n";
    }
    return not_found ? kExitNotFound : kExitCannotExecute;
  }

  const auto outcome = supervise_child(
      child, signals, lost_event,
      [&] {
        std::cerr << "redisson: lock " << options.name
                  << " was lost while the command ran (its key expired or was deleted); "
                     "sending SIGTERM to "
                  << options.command.front() << " (pid " << child << ")\n";
      },
      kKillGrace);
  if (outcome.lock_lost) return kExitLockLost;
  if (lock.lost(owner)) {
    std::cerr << "redisson: lock " << options.name
              << " was lost while the command ran (its key expired or was deleted)\n";
    return kExitLockLost;
  }

  const int status = shell_status(outcome.wait_status);
  if (const auto ec = unlock(lock, owner)) {
    if (ec == errc::not_owner && lease) {
      std::cerr << "redisson: warning: lock " << options.name << " had already expired (--lease "
                << format_duration(*lease) << ") when the command finished\n";
    } else if (ec == errc::not_owner) {
      std::cerr << "redisson: lock " << options.name
                << " was lost while the command ran (no longer held at unlock)\n";
      return kExitLockLost;
    } else {
      std::cerr << "redisson: warning: could not unlock " << options.name << ": " << ec.message()
                << " (it expires with its lease)\n";
    }
  }
  return status;
}

}  // namespace redisson::cli
