// The wall clock as Redisson's layouts store it: Unix time in milliseconds (Java's
// System.currentTimeMillis()), for the scores and deadlines that Java and C++ clients share
// (map cache expiry, delayed queue, time series, rate limiter, expirable permits).
#pragma once

#include <chrono>
#include <cstdint>

namespace redisson::detail {

inline std::int64_t unix_time_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace redisson::detail
