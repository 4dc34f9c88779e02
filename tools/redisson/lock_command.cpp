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
#include <string>
#include <utility>
#include <vector>

#include "child_process.hpp"
#include "duration.hpp"
#include "exit_status.hpp"
#include "redisson/fair_lock.hpp"
#include "redisson/fenced_lock.hpp"
#include "redisson/read_write_lock.hpp"
#include "redisson/redisson.hpp"

namespace redisson::cli {
namespace {

using namespace std::chrono_literals;

// How long CMD has to exit after SIGTERM (lock lost) before it gets SIGKILL.
constexpr auto kKillGrace = 10s;

constexpr const char* kLockFooter =
    R"(Synopsis: redisson lock NAME [--fair | --read | --write | --fenced] [--wait DUR] [--lease DUR]
                        -- CMD [ARGS...]

--fair, --read, --write and --fenced choose the lock's kind (and its Redis layout, see
docs/cli.md); they are mutually exclusive (exit 64). With --fenced, CMD sees the fencing token
(a number that grows with every acquisition) in $REDISSON_FENCING_TOKEN.

Without --lease the lock gets the watchdog lease (--watchdog-timeout, default 30s),
renewed every third of it while CMD runs. With --lease it is held for that long and never
renewed: if CMD outlives the lease the lock is simply gone (a warning is printed at the end).
SIGINT, SIGTERM and SIGHUP sent to redisson are passed on to CMD. The lock's owner field in
Redis is <client-id>:<pid of redisson>.

Exit status:
  CMD's own status    CMD ran; 128+N if it was killed by signal N
  64                  usage error (bad option, duration or URL; more than one of --fair,
                      --read, --write, --fenced)
  69                  Redis unreachable, or the connection failed while locking
  75                  the lock was not acquired within --wait
  76                  the lock was lost while CMD ran (its key expired or was deleted):
                      CMD got SIGTERM (SIGKILL 10s later if still running)
  126, 127            CMD could not be executed / was not found
  128+N               interrupted by signal N while waiting for the lock

Example:
  redisson lock nightly-backup --wait 0 -- ./backup.sh --full)";

// The outcome of the asynchronous acquisition, written on the client's I/O thread.
struct Acquisition {
  std::mutex mutex;
  bool done = false;
  bool acquired = false;
  std::error_code error;
  std::vector<std::string> env;
};

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

template <class L>
std::error_code unlock_owner(L& lock, redisson::OwnerId owner) {
  std::promise<std::error_code> released;
  auto result = released.get_future();
  lock.async_unlock(owner, [&released](std::error_code ec) { released.set_value(ec); });
  return result.get();
}

// A Lock, FairLock, FencedLock or read-write lock side as a Holdable.
template <class L>
Holdable holdable_lock(L lock, redisson::OwnerId owner,
                       std::optional<std::chrono::milliseconds> wait,
                       std::optional<std::chrono::milliseconds> lease, Notifier& lost_event) {
  auto shared = std::make_shared<L>(std::move(lock));
  shared->on_lost([&lost_event, owner](redisson::OwnerId lost_owner) {
    if (lost_owner == owner) lost_event.notify();
  });
  Holdable holdable;
  holdable.acquire = [shared, owner, wait, lease](AcquireDone done) {
    shared->async_try_lock(
        owner, wait, lease,
        [done = std::move(done)](std::error_code ec, bool acquired) { done(ec, acquired, {}); });
  };
  holdable.release = [shared, owner] { return unlock_owner(*shared, owner); };
  holdable.lost = [shared, owner] { return shared->lost(owner); };
  return holdable;
}

}  // namespace

std::optional<std::chrono::milliseconds> duration_option(const char* flag,
                                                         const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  try {
    return parse_duration(*text);
  } catch (const std::invalid_argument& e) {
    throw ToolError(kExitUsage, std::string(flag) + ": " + e.what());
  }
}

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
  command->add_flag("--fair", options.fair,
                    "Use a fair lock (first come, first served: Redisson's getFairLock)");
  command->add_flag("--read", options.read,
                    "Take the read (shared) side of a read-write lock (getReadWriteLock)");
  command->add_flag("--write", options.write,
                    "Take the write (exclusive) side of a read-write lock (getReadWriteLock)");
  command->add_flag("--fenced", options.fenced,
                    "Use a fenced lock; CMD gets the token in $REDISSON_FENCING_TOKEN");
  command->add_option("CMD", options.command, "The command to run and its arguments, after --")
      ->required();
  command->footer(kLockFooter);
  return command;
}

int run_holding(const HoldRun& run, const std::function<Holdable(Client&, Notifier&)>& make) {
  // Descriptors inherited from our caller go on to CMD; the ones we open do not.
  const auto inherited = open_fds();
  // Before the client starts its threads, so that they inherit the blocked signals.
  SignalStream signals;
  Notifier acquired_event;
  Notifier lost_event;
  auto acquisition = std::make_shared<Acquisition>();

  Client client = connect(*run.global);
  Holdable held = make(client, lost_event);
  held.acquire([acquisition, &acquired_event](std::error_code ec, bool acquired,
                                              std::vector<std::string> env) {
    {
      std::lock_guard guard(acquisition->mutex);
      acquisition->done = true;
      acquisition->acquired = acquired;
      acquisition->error = ec;
      acquisition->env = std::move(env);
    }
    acquired_event.notify();
  });

  const std::string& what = run.what;
  if (const int sig = wait_for_acquisition(signals, acquired_event); sig != 0) {
    std::lock_guard guard(acquisition->mutex);
    if (acquisition->done && acquisition->acquired) held.release();
    std::cerr << "redisson: interrupted by signal " << sig << " (" << strsignal(sig)
              << ") while waiting for " << what << "\n";
    return kExitSignalBase + sig;
  }
  std::vector<std::string> env;
  {
    std::lock_guard guard(acquisition->mutex);
    if (acquisition->error) {
      const redisson::error failure(acquisition->error, "cannot acquire " + what);
      throw ToolError(exit_status_of(failure), failure.what());
    }
    if (!acquisition->acquired) {
      std::cerr << "redisson: " << what << " not acquired within "
                << (run.wait ? format_duration(*run.wait) : std::string("the wait")) << "\n";
      return kExitNotAcquired;
    }
    env = acquisition->env;
  }

  const auto& command = *run.command;
  const pid_t child = spawn_command(command, inherited, env);
  if (child < 0) {
    const int error = -child;
    const bool not_found = error == ENOENT;
    std::cerr << "redisson: " << command.front() << ": "
              << (not_found ? "command not found" : std::strerror(error)) << "\n";
    if (const auto ec = held.release()) {
      std::cerr << "redisson: warning: could not release " << what << ": " << ec.message() << "\n";
    }
    return not_found ? kExitNotFound : kExitCannotExecute;
  }

  const auto outcome = supervise_child(
      child, signals, lost_event,
      [&] {
        std::cerr << "redisson: " << what
                  << " was lost while the command ran (its key expired or was deleted); "
                     "sending SIGTERM to "
                  << command.front() << " (pid " << child << ")\n";
      },
      kKillGrace);
  if (outcome.lock_lost) return kExitLockLost;
  if (held.lost && held.lost()) {
    std::cerr << "redisson: " << what
              << " was lost while the command ran (its key expired or was deleted)\n";
    return kExitLockLost;
  }

  const int status = shell_status(outcome.wait_status);
  if (const auto ec = held.release()) {
    if (ec == errc::not_owner && run.lease) {
      std::cerr << "redisson: warning: " << what << " had already expired (--lease "
                << format_duration(*run.lease) << ") when the command finished\n";
    } else if (ec == errc::not_owner) {
      std::cerr << "redisson: " << what
                << " was lost while the command ran (no longer held at release)\n";
      return kExitLockLost;
    } else {
      std::cerr << "redisson: warning: could not release " << what << ": " << ec.message()
                << " (it expires with its lease)\n";
    }
  }
  return status;
}

int run_lock(const GlobalOptions& global, const LockOptions& options) {
  const int kinds =
      int(options.fair) + int(options.read) + int(options.write) + int(options.fenced);
  if (kinds > 1) {
    throw ToolError(kExitUsage, "--fair, --read, --write and --fenced are mutually exclusive");
  }
  const auto wait = duration_option("--wait", options.wait);
  const auto lease = duration_option("--lease", options.lease);
  if (lease && lease->count() <= 0) throw ToolError(kExitUsage, "--lease must be positive");
  make_config(global);  // report usage errors before connecting

  HoldRun run;
  run.global = &global;
  run.command = &options.command;
  run.wait = wait;
  run.lease = lease;
  const char* kind = options.fair     ? "fair lock "
                     : options.read   ? "read lock "
                     : options.write  ? "write lock "
                     : options.fenced ? "fenced lock "
                                      : "lock ";
  run.what = kind + options.name;
  const auto owner = redisson::OwnerId(static_cast<std::uint64_t>(::getpid()));
  return run_holding(run, [&](Client& client, Notifier& lost_event) -> Holdable {
    if (options.fair) {
      return holdable_lock(redisson::FairLock(client, options.name), owner, wait, lease,
                           lost_event);
    }
    if (options.read) {
      return holdable_lock(redisson::ReadWriteLock(client, options.name).read_lock(), owner, wait,
                           lease, lost_event);
    }
    if (options.write) {
      return holdable_lock(redisson::ReadWriteLock(client, options.name).write_lock(), owner, wait,
                           lease, lost_event);
    }
    if (options.fenced) {
      auto shared = std::make_shared<FencedLock>(redisson::FencedLock(client, options.name));
      shared->on_lost([&lost_event, owner](redisson::OwnerId lost_owner) {
        if (lost_owner == owner) lost_event.notify();
      });
      Holdable holdable;
      holdable.acquire = [shared, owner, wait, lease](AcquireDone done) {
        shared->async_try_lock_and_get_token(
            owner, wait, lease,
            [done = std::move(done)](std::error_code ec, std::optional<std::int64_t> token) {
              std::vector<std::string> env;
              if (token) env.push_back("REDISSON_FENCING_TOKEN=" + std::to_string(*token));
              done(ec, token.has_value(), std::move(env));
            });
      };
      holdable.release = [shared, owner] { return unlock_owner(*shared, owner); };
      holdable.lost = [shared, owner] { return shared->lost(owner); };
      return holdable;
    }
    return holdable_lock(redisson::Lock(client, options.name), owner, wait, lease, lost_event);
  });
}

}  // namespace redisson::cli
