#include "rate_limit_command.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "child_process.hpp"
#include "duration.hpp"
#include "exit_status.hpp"
#include "lock_command.hpp"
#include "redisson/client.hpp"
#include "redisson/objects/rate_limiter.hpp"

namespace redisson::cli {
namespace {

constexpr const char* kRateLimitFooter =
    R"(Synopsis: redisson rate-limit NAME --rate N/DURATION [--wait DUR] [--per-client]
                              -- CMD [ARGS...]

Takes one permit of the rate limiter NAME (Redisson's getRateLimiter), then runs CMD: at most N
runs start per DURATION, across every machine (and every Java Redisson client) using NAME.
--rate sets the limiter's rate only if it has none (trySetRate); a limiter that already has
another rate keeps it (a note on stderr says so). --per-client makes the rate each client's own
(RateType.PER_CLIENT; every redisson run is a new client, so this limits little). The permit is
consumed, not returned when CMD ends.

Exit status:
  CMD's own status    CMD ran; 128+N if it was killed by signal N
  64                  usage error (bad --rate, duration or URL)
  69                  Redis unreachable, or the connection failed while waiting
  75                  no permit within --wait
  126, 127            CMD could not be executed / was not found
  128+N               interrupted by signal N while waiting for the permit

Examples:
  redisson rate-limit mailer --rate 100/1m -- ./send-mail.sh user@example.com
  redisson rate-limit api --rate 5/1s --wait 10s -- curl -s https://api.example.com/x)";

std::string describe(const RateLimiterConfig& config) {
  return std::to_string(config.rate) + "/" + format_duration(config.interval) +
         (config.type == RateType::per_client ? " per client" : "");
}

}  // namespace

RateSpec parse_rate(const std::string& text) {
  const auto usage = [&text](const std::string& why) {
    return ToolError(kExitUsage, "--rate: invalid rate '" + text + "': " + why +
                                     " (examples: 10/1s, 100/1m, 5/1.5s)");
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw usage("expected N/DURATION");
  RateSpec spec;
  const char* begin = text.data();
  const char* end = text.data() + slash;
  const auto [at, ec] = std::from_chars(begin, end, spec.permits);
  if (ec != std::errc{} || at != end || spec.permits <= 0) {
    throw usage("N must be a positive whole number");
  }
  try {
    spec.interval = parse_duration(std::string_view(text).substr(slash + 1));
  } catch (const std::invalid_argument& e) {
    throw usage(e.what());
  }
  if (spec.interval.count() <= 0) throw usage("the duration must be positive");
  return spec;
}

CLI::App* add_rate_limit_command(CLI::App& app, RateLimitOptions& options) {
  auto* command = app.add_subcommand(
      "rate-limit", "Run a command once a permit of a distributed rate limiter is available");
  command->add_option("NAME", options.name, "Rate limiter name (the Redis key)")->required();
  command
      ->add_option("--rate", options.rate,
                   "N permits per DURATION, set only if the limiter has no rate yet")
      ->type_name("N/DUR")
      ->required();
  command
      ->add_option("--wait", options.wait,
                   "Give up after waiting this long (exit 75); 0: a single attempt. "
                   "Default: wait as long as it takes")
      ->type_name("DUR");
  command->add_flag("--per-client", options.per_client,
                    "Each client has its own budget (RateType.PER_CLIENT)");
  command->add_option("CMD", options.command, "The command to run and its arguments, after --")
      ->required();
  command->footer(kRateLimitFooter);
  return command;
}

int run_rate_limit(const GlobalOptions& global, const RateLimitOptions& options) {
  const auto rate = parse_rate(options.rate);
  const auto wait = duration_option("--wait", options.wait);
  make_config(global);  // report usage errors before connecting

  HoldRun run;
  run.global = &global;
  run.command = &options.command;
  run.wait = wait;
  run.what = "a permit of rate limiter " + options.name;
  return run_holding(run, [&](Client& client, Notifier&) -> Holdable {
    auto limiter = std::make_shared<RateLimiter>(client, options.name);
    const RateLimiterConfig wanted{options.per_client ? RateType::per_client : RateType::overall,
                                   rate.permits, rate.interval, std::chrono::milliseconds{0}};
    if (!limiter->try_set_rate(wanted.type, wanted.rate, wanted.interval)) {
      const auto existing = limiter->get_config();
      if (existing.type != wanted.type || existing.rate != wanted.rate ||
          existing.interval != wanted.interval) {
        std::cerr << "redisson: rate limiter " << options.name << " already has the rate "
                  << describe(existing) << "; using it, not " << describe(wanted) << "\n";
      }
    }
    Holdable holdable;
    holdable.acquire = [limiter, wait](AcquireDone done) {
      if (wait) {
        limiter->async_try_acquire(1, *wait,
                                   [done = std::move(done)](std::error_code ec, bool acquired) {
                                     done(ec, acquired, {});
                                   });
      } else {
        limiter->async_acquire(1,
                               [done = std::move(done)](std::error_code ec) { done(ec, !ec, {}); });
      }
    };
    // A permit is spent, not held: nothing to give back when CMD ends.
    holdable.release = [] { return std::error_code{}; };
    return holdable;
  });
}

}  // namespace redisson::cli
