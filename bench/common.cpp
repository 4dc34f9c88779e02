#include <cmath>
#include <stdexcept>

#include "bench.hpp"
#include "subprocess.hpp"

namespace redisson_bench {

std::chrono::nanoseconds parse_duration(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw std::invalid_argument("bad duration '" + text + "' (use 5s, 500ms, 1m)");
  }
  const std::string unit = text.substr(used);
  double scale = 1e9;
  if (unit.empty() || unit == "s") {
    scale = 1e9;
  } else if (unit == "ms") {
    scale = 1e6;
  } else if (unit == "us") {
    scale = 1e3;
  } else if (unit == "m" || unit == "min") {
    scale = 60e9;
  } else {
    throw std::invalid_argument("bad duration unit in '" + text + "' (s, ms, us, m)");
  }
  if (!(value > 0) || !std::isfinite(value)) {
    throw std::invalid_argument("duration must be positive: '" + text + "'");
  }
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(value * scale)));
}

double seconds(std::chrono::nanoseconds d) noexcept {
  return std::chrono::duration<double>(d).count();
}

std::string bench_key(const Options& options, const std::string& what) {
  return "redisson-bench:" + options.run_id + ":" + what;
}

std::vector<std::string> worker_command(const Options& options, const std::string& kind, int index,
                                        const std::string& lock_name, std::int64_t hold_ns) {
  return {self_executable(),
          "--worker",
          kind,
          "--worker-index",
          std::to_string(index),
          "--lock-name",
          lock_name,
          "--hold-ns",
          std::to_string(hold_ns),
          "--url",
          options.url,
          "--duration",
          std::to_string(options.duration.count() / 1000) + "us",
          "--run-id",
          options.run_id,
          "--hold-mode",
          options.hold_mode.empty() ? std::string("spin") : options.hold_mode};
}

}  // namespace redisson_bench
