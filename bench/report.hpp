// Shared pieces of the scenario reports.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "redis_tools.hpp"

namespace redisson_bench {

/// {"tool": ..., "ops_per_s": ..., ...} for a redis-benchmark run.
nlohmann::json reference_json(const ReferenceResult& reference, const std::string& what);

/// Adds "target" (e.g. "ratio >= 0.9") and "meets_target".
void add_target(nlohmann::json& out, const std::string& description, bool met);

}  // namespace redisson_bench
