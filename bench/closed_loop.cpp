#include "closed_loop.hpp"

#include <stdexcept>

namespace redisson_bench {

Slice ClosedLoopRun::run_slice(const asio::any_io_executor& io, const ClosedLoop::Start& start,
                               int in_flight, std::chrono::nanoseconds duration, bool warm_up,
                               const char* what) {
  LatencyHistogram discarded;
  ClosedLoop loop(io, warm_up ? discarded : latency, start);
  const auto started = monotonic_ns();
  loop.run(in_flight);
  sleep_until_ns(started + duration.count());
  loop.stop();
  if (!loop.drain(std::chrono::milliseconds(30'000))) {
    throw std::runtime_error(std::string(what) +
                             ": operations still outstanding 30 s after the end");
  }
  if (loop.errors() != 0 && errors == 0) first_error = loop.first_error();
  errors += loop.errors();
  if (warm_up) return Slice{};
  operations += loop.completed();
  return Slice{static_cast<double>(loop.completed()),
               static_cast<double>(loop.last_completion_ns() - started) / 1e9};
}

}  // namespace redisson_bench
