// One worker process of `redisson demo`: a read-modify-write loop on a counter, with or without
// the lock, and what it measured, sent back to the parent as text through a pipe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "redisson/config.hpp"

namespace redisson::cli {

inline constexpr const char* kDemoUnlockedCounter = "demo:counter:unlocked";
inline constexpr const char* kDemoLockedCounter = "demo:counter:locked";
inline constexpr const char* kDemoLock = "demo:lock";
inline constexpr const char* kDemoReleasedAt = "demo:released_at_us";

struct WorkerTask {
  Config config;
  bool locked = false;  ///< round 2: hold kDemoLock around each GET + SET
  int increments = 0;
  int ready_fd = -1;   ///< write one byte here once connected
  int go_fd = -1;      ///< then start when this reaches end-of-file
  int result_fd = -1;  ///< write the encoded WorkerResult here
};

struct WorkerResult {
  std::string error;  ///< empty when the worker finished
  std::int64_t increments = 0;
  std::int64_t elapsed_us = 0;
  /// For each acquisition that had to wait: microseconds from the previous holder's
  /// "released at" stamp (written just before its unlock) to this lock() returning.
  std::vector<std::int64_t> handoffs_us;
};

/// The body of a forked worker: connects, waits for the start signal, runs, reports.
/// Returns the process exit status (0, or 1 after reporting an error).
int run_worker(const WorkerTask& task) noexcept;

std::string encode(const WorkerResult& result);
/// Decodes what a worker wrote; a worker that died before writing gives an error result.
WorkerResult decode(const std::string& text);

}  // namespace redisson::cli
