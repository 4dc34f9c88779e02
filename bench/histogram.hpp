// Latency recording: a fixed-size log-linear histogram (about 1.6% resolution, no allocation
// per sample, mergeable across processes) and a plain sample list for small signed series.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace redisson_bench {

/// Non-negative durations in nanoseconds. Record from one thread at a time.
class LatencyHistogram {
 public:
  LatencyHistogram();

  void record(std::int64_t ns) noexcept;
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const noexcept { return count_; }
  /// The value below which `percent` % of the samples fall, in microseconds (0 when empty).
  double percentile_us(double percent) const noexcept;
  double mean_us() const noexcept;
  double max_us() const noexcept { return static_cast<double>(max_ns_) / 1e3; }

  /// Adds p50_us, p99_us, p999_us, mean_us, max_us and samples, with `prefix` before each name.
  void add_to(nlohmann::json& out, const std::string& prefix = "") const;

  /// A compact form for sending from a worker process: [[bucket, count], ...] plus totals.
  nlohmann::json serialize() const;
  static LatencyHistogram deserialize(const nlohmann::json& in);

 private:
  static std::size_t bucket_of(std::uint64_t ns) noexcept;
  static std::uint64_t bucket_low(std::size_t bucket) noexcept;
  static std::uint64_t bucket_high(std::size_t bucket) noexcept;

  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  std::uint64_t max_ns_ = 0;
  long double sum_ns_ = 0;
};

/// Exact percentiles of a short series that may hold negative values (nanoseconds).
class Samples {
 public:
  void record(std::int64_t ns) { values_.push_back(ns); }
  void append(const Samples& other);
  std::size_t count() const noexcept { return values_.size(); }
  /// Nearest-rank percentile in microseconds (0 when empty).
  double percentile_us(double percent) const;
  double min_us() const;
  double max_us() const;
  void add_to(nlohmann::json& out, const std::string& prefix = "") const;

  nlohmann::json serialize() const { return values_; }
  static Samples deserialize(const nlohmann::json& in);

 private:
  std::vector<std::int64_t> values_;
};

/// Rounds to two decimals, for readable JSON.
double round2(double value) noexcept;

}  // namespace redisson_bench
