// `redisson rate-limit NAME --rate N/DURATION [--wait DUR] [--per-client] -- CMD`: runs CMD once
// a permit of a Redisson rate limiter is available.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "global_options.hpp"

namespace CLI {
class App;
}

namespace redisson::cli {

struct RateLimitOptions {
  std::string name;
  std::string rate;                  ///< --rate as typed: N/DURATION
  std::optional<std::string> wait;   ///< as typed; absent: wait forever
  bool per_client = false;           ///< --per-client: RateType.PER_CLIENT
  std::vector<std::string> command;  ///< CMD and its arguments
};

/// A rate as given to --rate: `permits` per `interval`.
struct RateSpec {
  std::int64_t permits = 0;
  std::chrono::milliseconds interval{0};
};

/// Parses "N/DURATION" (10/1s, 100/1m, 5/1.5s); ToolError(kExitUsage) when malformed.
RateSpec parse_rate(const std::string& text);

/// Registers the `rate-limit` subcommand.
CLI::App* add_rate_limit_command(CLI::App& app, RateLimitOptions& options);

/// Sets the rate if there is none, waits for a permit, runs CMD; returns the exit status.
int run_rate_limit(const GlobalOptions& global, const RateLimitOptions& options);

}  // namespace redisson::cli
