#include "client/failure_report.hpp"

#include <cstdio>
#include <exception>

namespace redisson::detail {

void report_failure(const Config& config, const error& failure) noexcept {
  if (config.error_handler) {
    try {
      config.error_handler(failure);
      return;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "redisson: the error handler threw (%s) while reporting: %s\n", e.what(),
                   failure.what());
      return;
    } catch (...) {
      std::fprintf(stderr, "redisson: the error handler threw while reporting: %s\n",
                   failure.what());
      return;
    }
  }
  std::fprintf(stderr, "redisson: %s\n", failure.what());
}

}  // namespace redisson::detail
