// Failures found where no caller can be handed them (Config::error_handler).
#pragma once

#include <exception>
#include <string_view>

#include "redisson/config.hpp"
#include "redisson/detail/operation.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

/// Hands `failure` to config.error_handler, or writes one line to stderr when there is none.
/// Never throws: a handler that throws is reported on stderr instead.
void report_failure(const Config& config, const error& failure) noexcept;

/// The unlock() that never throws, for every lock type: runs `release` with a blocking token
/// that keeps the outcome, and hands a failure to report_failure (a guard's destructor calls it).
template <class Release>
void unlock_reporting(const Config& config, std::string_view name, Release&& release) noexcept {
  Status status;
  try {
    release(blocking(status, "unlock", name));
  } catch (const std::exception&) {
    status = Status(make_error_code(errc::shutdown));  // could not even start (no memory)
  }
  if (!status) return;
  report_failure(config, Blocking("unlock", name, nullptr).to_error(status));
}

}  // namespace redisson::detail
