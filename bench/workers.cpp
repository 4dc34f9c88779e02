#include "workers.hpp"

#include <sstream>
#include <stdexcept>

namespace redisson_bench {

std::vector<nlohmann::json> worker_reports(const std::vector<ProcessResult>& results) {
  std::vector<nlohmann::json> reports;
  std::string errors;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& result = results[i];
    nlohmann::json report;
    std::istringstream lines(result.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.starts_with("{")) report = nlohmann::json::parse(line, nullptr, false);
    }
    std::string error;
    if (report.is_object() && report.contains("error")) {
      error = report["error"].get<std::string>();
    } else if (!result.ok() || !report.is_object()) {
      error = result.describe();
    }
    if (!error.empty()) {
      errors += (errors.empty() ? "" : "; ") + ("worker " + std::to_string(i) + ": " + error);
    }
    reports.push_back(std::move(report));
  }
  if (!errors.empty()) throw std::runtime_error(errors);
  return reports;
}

Samples merged_latency(const std::vector<nlohmann::json>& reports) {
  Samples latency;
  for (const auto& report : reports) {
    if (report.contains("latency")) latency.append(Samples::deserialize(report.at("latency")));
  }
  return latency;
}

bool wait_for_count(const std::atomic<std::int64_t>& counter, std::int64_t wanted,
                    std::chrono::nanoseconds timeout) {
  return wait_until([&] { return counter.load() >= wanted; }, timeout);
}

}  // namespace redisson_bench
