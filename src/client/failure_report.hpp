// Failures found where no caller can be handed them (Config::error_handler).
#pragma once

#include "redisson/config.hpp"
#include "redisson/error.hpp"

namespace redisson::detail {

/// Hands `failure` to config.error_handler, or writes one line to stderr when there is none.
/// Never throws: a handler that throws is reported on stderr instead.
void report_failure(const Config& config, const error& failure) noexcept;

}  // namespace redisson::detail
