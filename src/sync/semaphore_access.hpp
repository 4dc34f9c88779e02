// A wait on a Semaphore the library names itself (a LocalCachedMap's clear semaphore), from the
// client's core: no Client or handle at hand.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "redisson/detail/object_op.hpp"

namespace redisson::detail {

class ClientCore;

/// Semaphore(name).async_acquire(permits, wait): completes with (status, acquired).
void start_semaphore_try_acquire(const std::shared_ptr<ClientCore>& core, std::string name,
                                 std::int64_t permits, std::chrono::milliseconds wait,
                                 Done<bool> done);

}  // namespace redisson::detail
