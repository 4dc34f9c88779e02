// An object operation against the very script it runs, sent raw (EVALSHA through
// Client::async_execute with the same keys and arguments), alternating slice by slice in the same
// run: what the object layer costs over its script. The rate-limiter and map-cache scenarios.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "bench.hpp"
#include "redisson/client.hpp"

namespace redisson_bench {

struct VersusScript {
  std::string scenario;        ///< "rate-limiter"
  std::string unit;            ///< what one operation is, for the report
  std::string reference_what;  ///< what the raw side sends
  std::string ratio_meaning;
  double target_ratio = 0.9;
};

/// One call: issues an operation that calls `done(ok)` on the client's I/O thread.
using Issue = std::function<void(std::function<void(bool ok)> done)>;

/// Runs `ours` and `raw` in ClosedLoops of options.in_flight on `client`, alternating slices;
/// the JSON has ops_per_s, latency, CPU, the reference, ratio, slice_ratios and the target.
nlohmann::json run_versus_script(const Options& options, redisson::Client& client,
                                 const VersusScript& scenario, const Issue& ours, const Issue& raw);

/// The script `call` sent raw: `done(accept(reply))`, false on an error.
void send_raw(redisson::Client& client, const redisson::Command& command,
              std::function<bool(const redisson::Reply&)> accept,
              std::function<void(bool ok)> done);

}  // namespace redisson_bench
