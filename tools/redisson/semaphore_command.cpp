#include "semaphore_command.hpp"

#include <CLI/CLI.hpp>
#include <future>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "child_process.hpp"
#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/client.hpp"
#include "redisson/permit_expirable_semaphore.hpp"
#include "redisson/semaphore.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kSemaphoreFooter =
    R"(Synopsis: redisson semaphore NAME [--permits N] [--acquire K] [--wait DUR] [--lease DUR]
                             -- CMD [ARGS...]

Holds K permits (default 1) of the semaphore NAME (Redisson's getSemaphore) while CMD runs and
releases them when it ends. --permits N sets the semaphore's total when it does not exist yet
(trySetPermits; an existing semaphore keeps its count). With --lease the semaphore is a
PermitExpirableSemaphore (getPermitExpirableSemaphore): each permit expires after DUR even if
redisson dies; --lease allows only --acquire 1.

Exit status: as `redisson lock` (75: not acquired within --wait; 64: usage error).

Example:
  redisson semaphore encoders --permits 4 --wait 10m -- ffmpeg -i in.mkv out.mp4)";

}  // namespace

CLI::App* add_semaphore_command(CLI::App& app, SemaphoreOptions& options) {
  auto* command = app.add_subcommand(
      "semaphore", "Run a command while holding permits of a distributed semaphore");
  command->add_option("NAME", options.name, "Semaphore name (the Redis key)")->required();
  command
      ->add_option("--permits", options.permits,
                   "Total permits, set only if the semaphore does not exist yet")
      ->type_name("N");
  command->add_option("--acquire", options.acquire, "Permits to hold while CMD runs (default 1)")
      ->type_name("K");
  command
      ->add_option("--wait", options.wait,
                   "Give up after waiting this long (exit 75); 0: a single attempt. "
                   "Default: wait as long as it takes")
      ->type_name("DUR");
  command
      ->add_option("--lease", options.lease,
                   "Expirable permit: it expires after this long (PermitExpirableSemaphore)")
      ->type_name("DUR");
  command->add_option("CMD", options.command, "The command to run and its arguments, after --")
      ->required();
  command->footer(kSemaphoreFooter);
  return command;
}

int run_semaphore(const GlobalOptions& global, const SemaphoreOptions& options) {
  const auto wait = duration_option("--wait", options.wait);
  const auto lease = duration_option("--lease", options.lease);
  if (lease && lease->count() <= 0) throw ToolError(kExitUsage, "--lease must be positive");
  if (options.acquire <= 0) throw ToolError(kExitUsage, "--acquire must be positive");
  if (options.permits && *options.permits < 0) {
    throw ToolError(kExitUsage, "--permits must not be negative");
  }
  if (lease && options.acquire != 1) {
    throw ToolError(kExitUsage, "--lease allows only --acquire 1");
  }
  make_config(global);  // report usage errors before connecting

  HoldRun run;
  run.global = &global;
  run.command = &options.command;
  run.wait = wait;
  run.lease = lease;
  run.what = (options.acquire == 1 ? std::string("1 permit")
                                   : std::to_string(options.acquire) + " permits") +
             " of semaphore " + options.name;
  const auto permits = options.acquire;
  return run_holding(run, [&](Client& client, Notifier&) -> Holdable {
    Holdable holdable;
    if (lease) {
      auto semaphore = std::make_shared<PermitExpirableSemaphore>(client, options.name);
      if (options.permits) semaphore->try_set_permits(*options.permits);
      auto permit_id = std::make_shared<std::string>();
      holdable.acquire = [semaphore, permit_id, wait, lease](AcquireDone done) {
        semaphore->async_acquire(
            wait, lease,
            [permit_id, done = std::move(done)](std::error_code ec, std::optional<std::string> id) {
              if (id) *permit_id = *id;
              done(ec, id.has_value(), {});
            });
      };
      holdable.release = [semaphore, permit_id] {
        std::promise<std::error_code> released;
        auto result = released.get_future();
        semaphore->async_try_release(*permit_id, [&released](std::error_code ec, bool was_held) {
          if (!ec && !was_held) ec = make_error_code(errc::not_owner);
          released.set_value(ec);
        });
        return result.get();
      };
      return holdable;
    }
    auto semaphore = std::make_shared<Semaphore>(client, options.name);
    if (options.permits) semaphore->try_set_permits(*options.permits);
    holdable.acquire = [semaphore, permits, wait](AcquireDone done) {
      semaphore->async_acquire(
          permits, wait,
          [done = std::move(done)](std::error_code ec, bool acquired) { done(ec, acquired, {}); });
    };
    holdable.release = [semaphore, permits] {
      std::promise<std::error_code> released;
      auto result = released.get_future();
      semaphore->async_release(permits,
                               [&released](std::error_code ec) { released.set_value(ec); });
      return result.get();
    };
    return holdable;
  });
}

}  // namespace redisson::cli
