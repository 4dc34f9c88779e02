// `redisson lock NAME [--wait DUR] [--lease DUR] -- CMD [ARGS...]`: runs CMD while holding a
// Redisson lock, like flock(1) across machines.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct LockOptions {
  std::string name;
  std::optional<std::string> wait;   ///< as typed; absent: wait forever
  std::optional<std::string> lease;  ///< as typed; absent: watchdog lease
  std::vector<std::string> command;  ///< CMD and its arguments
  bool fair = false;                 ///< --fair: FairLock
  bool read = false;                 ///< --read: ReadWriteLock's read side
  bool write = false;                ///< --write: ReadWriteLock's write side
  bool fenced = false;               ///< --fenced: FencedLock, token in the environment
};

class Notifier;

/// Called once the acquisition completes: error, acquired, variables for CMD's environment.
using AcquireDone = std::function<void(std::error_code, bool, std::vector<std::string>)>;

/// Something held around CMD (a lock of any kind, semaphore permits).
struct Holdable {
  std::function<void(AcquireDone)> acquire;  ///< starts the (bounded) acquisition
  std::function<std::error_code()> release;  ///< blocks until released
  std::function<bool()> lost;                ///< optional: whether it was lost while held
};

/// What run_holding needs to know besides the Holdable.
struct HoldRun {
  const GlobalOptions* global = nullptr;
  const std::vector<std::string>* command = nullptr;
  std::optional<std::chrono::milliseconds> wait;
  std::optional<std::chrono::milliseconds> lease;
  std::string what;  ///< e.g. "lock NAME", for messages
};

/// Acquires what `make` returns, runs CMD, releases; the exit statuses of `redisson lock`.
/// `make` gets the connected client and the event to notify when the holding is lost.
int run_holding(const HoldRun& run, const std::function<Holdable(Client&, Notifier&)>& make);

/// Parses a duration option; ToolError(kExitUsage) naming `flag` when it is malformed.
std::optional<std::chrono::milliseconds> duration_option(const char* flag,
                                                         const std::optional<std::string>& text);

/// Registers the `lock` subcommand.
CLI::App* add_lock_command(CLI::App& app, LockOptions& options);

/// Acquires, runs CMD, releases; returns the exit status (see the subcommand's --help).
int run_lock(const GlobalOptions& global, const LockOptions& options);

}  // namespace redisson::cli
