#include "report.hpp"

#include "histogram.hpp"

namespace redisson_bench {

nlohmann::json reference_json(const ReferenceResult& reference, const std::string& what) {
  return {{"tool", "redis-benchmark"},         {"what", what},
          {"command", reference.command_line}, {"ops_per_s", round2(reference.ops_per_s)},
          {"p50_ms", reference.p50_ms},        {"p99_ms", reference.p99_ms},
          {"requests", reference.requests}};
}

void add_target(nlohmann::json& out, const std::string& description, bool met) {
  out["target"] = description;
  out["meets_target"] = met;
}

}  // namespace redisson_bench
