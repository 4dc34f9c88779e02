// The floor under the remote scenario: Redisson's remote call protocol, step by step with the
// library's own scripts, carried by blocking sockets and no client library. The caller and the
// worker are two threads of this process, as the scenario's two clients are: the same Redis
// round trips in the same order, without the client's I/O thread, listener thread and codec.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>

#include "bench.hpp"

namespace redisson_bench {

/// The floor's p50s in microseconds (NaN when it could not be measured).
struct RemoteFloor {
  double acked_p50_us;
  double direct_p50_us;
};

/// Measures calls with an ack (add; the worker's pop, take, ack, respond; the caller's two pops)
/// for `duration`, then calls without one for `duration`; writes both under
/// out["protocol_floor"] (or the reason it could not be measured: TLS, a refused login).
RemoteFloor raw_remote_floor(const Options& options, std::chrono::nanoseconds duration,
                             nlohmann::json& out);

}  // namespace redisson_bench
