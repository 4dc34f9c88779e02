#include "workers.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>

namespace redisson_bench {

namespace {
long futex(const std::atomic<std::uint32_t>& word, int op, std::uint32_t value,
           const timespec* timeout) {
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t));
  // Not FUTEX_PRIVATE_FLAG: the word is in memory shared between processes.
  return syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&word), op, value, timeout,
                 nullptr, 0);
}
}  // namespace

void SharedSignal::raise() noexcept {
  count_.fetch_add(1, std::memory_order_acq_rel);
  futex(count_, FUTEX_WAKE, INT32_MAX, nullptr);
}

void SharedSignal::wait_past(std::uint32_t seen, std::chrono::nanoseconds timeout) const noexcept {
  const timespec ts{static_cast<time_t>(timeout.count() / 1'000'000'000),
                    static_cast<long>(timeout.count() % 1'000'000'000)};
  futex(count_, FUTEX_WAIT, seen, &ts);
}

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
