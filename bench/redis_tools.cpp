#include "redis_tools.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "histogram.hpp"
#include "subprocess.hpp"

namespace redisson_bench {
namespace {

std::vector<std::string> connection_args(const Options& options) {
  std::vector<std::string> args{"-h", options.server.host, "-p",
                                std::to_string(options.server.port)};
  if (!options.server.username.empty()) {
    args.insert(args.end(), {"--user", options.server.username});
  }
  if (!options.server.password.empty()) {
    args.insert(args.end(), {"-a", options.server.password, "--no-auth-warning"});
  }
  return args;
}

// Splits one CSV line of quoted fields ("a","b",...).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field.push_back(c);
    }
  }
  fields.push_back(field);
  return fields;
}

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) {
    if (!text.empty()) text += ' ';
    text += word;
  }
  return text;
}

ReferenceResult run_once(const Options& options, const std::vector<std::string>& args,
                         long requests, std::chrono::milliseconds timeout) {
  std::vector<std::string> argv{"redis-benchmark"};
  auto conn = connection_args(options);
  argv.insert(argv.end(), conn.begin(), conn.end());
  if (options.server.database != 0) {
    argv.insert(argv.end(), {"--dbnum", std::to_string(options.server.database)});
  }
  argv.insert(argv.end(), {"-n", std::to_string(requests), "--csv", "-q"});
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_process(argv, timeout);
  if (!result.ok()) throw std::runtime_error(result.describe());
  auto reference = parse_redis_benchmark_csv(result.out);
  reference.requests = requests * reference.tests;
  // The password stays out of the report.
  std::vector<std::string> shown{"redis-benchmark"};
  shown.insert(shown.end(), {"-n", std::to_string(requests)});
  shown.insert(shown.end(), args.begin(), args.end());
  reference.command_line = join(shown);
  return reference;
}

}  // namespace

ReferenceResult parse_redis_benchmark_csv(const std::string& csv) {
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> header;
  // Several tests (-t set,get) run one after the other with the same -n: their combined rate is
  // tests / sum(1 / rps), the rate of a workload that is half one and half the other. Latencies
  // are the worst row's.
  ReferenceResult combined;
  double seconds_per_request = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    auto fields = csv_fields(line);
    if (header.empty()) {
      if (std::find(fields.begin(), fields.end(), "rps") != fields.end()) header = fields;
      continue;
    }
    ReferenceResult row;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i) {
      try {
        if (header[i] == "rps") row.ops_per_s = std::stod(fields[i]);
        if (header[i] == "p50_latency_ms") row.p50_ms = std::stod(fields[i]);
        if (header[i] == "p99_latency_ms") row.p99_ms = std::stod(fields[i]);
      } catch (const std::exception&) {
        throw std::runtime_error("redis-benchmark: unreadable CSV field in: " + line);
      }
    }
    if (row.ops_per_s <= 0) throw std::runtime_error("redis-benchmark: no rps in: " + line);
    ++combined.tests;
    seconds_per_request += 1.0 / row.ops_per_s;
    combined.p50_ms = std::max(combined.p50_ms, row.p50_ms);
    combined.p99_ms = std::max(combined.p99_ms, row.p99_ms);
  }
  if (combined.tests == 0) {
    throw std::runtime_error("redis-benchmark printed no CSV result: " + csv.substr(0, 300));
  }
  combined.ops_per_s = combined.tests / seconds_per_request;
  return combined;
}

ReferenceResult run_redis_benchmark(const Options& options, const std::vector<std::string>& args,
                                    std::chrono::nanoseconds duration, double expected_rps) {
  using std::chrono::milliseconds;
  constexpr long kMinRequests = 20'000;
  if (expected_rps <= 0) {
    // Calibrate with a small run, then size -n so the measured run lasts about `duration`.
    expected_rps = run_once(options, args, 50'000, milliseconds(60'000)).ops_per_s;
  }
  // -n is per test: with -t set,get the run makes twice as many requests.
  long tests = 1;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "-t") tests = 1 + std::count(args[i + 1].begin(), args[i + 1].end(), ',');
  }
  const double wanted = expected_rps * seconds(duration) / static_cast<double>(tests);
  const long requests = std::clamp<long>(std::lround(wanted), kMinRequests, 500'000'000);
  // Generous bound: five times the expected run, plus start-up.
  const auto timeout = milliseconds(
      static_cast<long>(5000.0 * static_cast<double>(requests * tests) / expected_rps) + 15'000);
  return run_once(options, args, requests, timeout);
}

double ping_reference(const Options& options, std::chrono::nanoseconds duration,
                      nlohmann::json& out) {
  const auto reference =
      run_redis_benchmark(options, {"-c", "1", "-t", "ping_mbulk"},
                          std::max<std::chrono::nanoseconds>(duration, std::chrono::seconds(1)));
  const double p50_us = reference.p50_ms * 1000.0;
  out["reference"] = {{"tool", "redis-benchmark"},
                      {"command", reference.command_line},
                      {"what", "PING round trip of one connection, no pipelining"},
                      {"ops_per_s", round2(reference.ops_per_s)},
                      {"p50_us", round2(p50_us)},
                      {"p99_us", round2(reference.p99_ms * 1000.0)}};
  return p50_us;
}

}  // namespace redisson_bench
