#include "histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace redisson_bench {
namespace {

// Values below kLinear ns get a bucket each; above, every power of two is split into
// kSubBuckets equal buckets.
constexpr unsigned kSubBits = 6;
constexpr std::uint64_t kSubBuckets = 1u << kSubBits;
constexpr std::uint64_t kLinear = 2 * kSubBuckets;  // 128
constexpr unsigned kFirstExponent = kSubBits + 1;   // log2(kLinear)
constexpr std::size_t kBucketCount = kLinear + (64 - kFirstExponent) * kSubBuckets;

std::size_t nearest_rank(double percent, std::size_t count) {
  const auto rank =
      static_cast<std::size_t>(std::ceil(percent / 100.0 * static_cast<double>(count)));
  return std::clamp<std::size_t>(rank, 1, count);
}

}  // namespace

double round2(double value) noexcept { return std::round(value * 100.0) / 100.0; }

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

std::size_t LatencyHistogram::bucket_of(std::uint64_t ns) noexcept {
  if (ns < kLinear) return static_cast<std::size_t>(ns);
  const unsigned exponent = static_cast<unsigned>(std::bit_width(ns)) - 1;  // >= kFirstExponent
  const auto sub = (ns >> (exponent - kSubBits)) & (kSubBuckets - 1);
  return static_cast<std::size_t>(kLinear + (exponent - kFirstExponent) * kSubBuckets + sub);
}

std::uint64_t LatencyHistogram::bucket_low(std::size_t bucket) noexcept {
  if (bucket < kLinear) return bucket;
  const auto exponent = static_cast<unsigned>((bucket - kLinear) / kSubBuckets) + kFirstExponent;
  const auto sub = (bucket - kLinear) % kSubBuckets;
  return (kSubBuckets + sub) << (exponent - kSubBits);
}

std::uint64_t LatencyHistogram::bucket_high(std::size_t bucket) noexcept {
  if (bucket < kLinear) return bucket + 1;
  const auto exponent = static_cast<unsigned>((bucket - kLinear) / kSubBuckets) + kFirstExponent;
  return bucket_low(bucket) + (std::uint64_t{1} << (exponent - kSubBits));
}

void LatencyHistogram::record(std::int64_t ns) noexcept {
  const auto value = static_cast<std::uint64_t>(std::max<std::int64_t>(ns, 0));
  ++buckets_[bucket_of(value)];
  ++count_;
  max_ns_ = std::max(max_ns_, value);
  sum_ns_ += static_cast<long double>(value);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < kBucketCount; ++i) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  max_ns_ = std::max(max_ns_, other.max_ns_);
  sum_ns_ += other.sum_ns_;
}

double LatencyHistogram::percentile_us(double percent) const noexcept {
  if (count_ == 0) return 0.0;
  const auto rank = nearest_rank(percent, count_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBucketCount; ++i) {
    seen += buckets_[i];
    if (seen >= rank) {
      // The bucket's midpoint, never above the largest value seen.
      const auto mid = (bucket_low(i) + bucket_high(i)) / 2;
      return static_cast<double>(std::min(mid, max_ns_)) / 1e3;
    }
  }
  return max_us();
}

double LatencyHistogram::mean_us() const noexcept {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_ns_ / count_) / 1e3;
}

void LatencyHistogram::add_to(nlohmann::json& out, const std::string& prefix) const {
  out[prefix + "p50_us"] = round2(percentile_us(50));
  out[prefix + "p99_us"] = round2(percentile_us(99));
  out[prefix + "p999_us"] = round2(percentile_us(99.9));
  out[prefix + "mean_us"] = round2(mean_us());
  out[prefix + "max_us"] = round2(max_us());
  out[prefix + "samples"] = count_;
}

nlohmann::json LatencyHistogram::serialize() const {
  nlohmann::json buckets = nlohmann::json::array();
  for (std::size_t i = 0; i < kBucketCount; ++i) {
    if (buckets_[i] != 0) buckets.push_back({i, buckets_[i]});
  }
  return {{"buckets", std::move(buckets)},
          {"max_ns", max_ns_},
          {"sum_ns", static_cast<double>(sum_ns_)}};
}

LatencyHistogram LatencyHistogram::deserialize(const nlohmann::json& in) {
  LatencyHistogram histogram;
  for (const auto& pair : in.at("buckets")) {
    const auto bucket = pair.at(0).get<std::size_t>();
    const auto count = pair.at(1).get<std::uint64_t>();
    if (bucket >= kBucketCount) continue;
    histogram.buckets_[bucket] += count;
    histogram.count_ += count;
  }
  histogram.max_ns_ = in.at("max_ns").get<std::uint64_t>();
  histogram.sum_ns_ = in.at("sum_ns").get<double>();
  return histogram;
}

void Samples::append(const Samples& other) {
  values_.insert(values_.end(), other.values_.begin(), other.values_.end());
}

double Samples::percentile_us(double percent) const {
  if (values_.empty()) return 0.0;
  auto sorted = values_;
  const auto rank = nearest_rank(percent, sorted.size());
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                   sorted.end());
  return static_cast<double>(sorted[rank - 1]) / 1e3;
}

double Samples::min_us() const {
  return values_.empty()
             ? 0.0
             : static_cast<double>(*std::min_element(values_.begin(), values_.end())) / 1e3;
}

double Samples::max_us() const {
  return values_.empty()
             ? 0.0
             : static_cast<double>(*std::max_element(values_.begin(), values_.end())) / 1e3;
}

void Samples::add_to(nlohmann::json& out, const std::string& prefix) const {
  out[prefix + "p50_us"] = round2(percentile_us(50));
  out[prefix + "p99_us"] = round2(percentile_us(99));
  out[prefix + "min_us"] = round2(min_us());
  out[prefix + "max_us"] = round2(max_us());
  out[prefix + "samples"] = values_.size();
}

Samples Samples::deserialize(const nlohmann::json& in) {
  Samples samples;
  samples.values_ = in.get<std::vector<std::int64_t>>();
  return samples;
}

}  // namespace redisson_bench
