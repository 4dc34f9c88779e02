// What MultiLock and RedLock do to all their members at once.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "redisson/basic_lock.hpp"
#include "redisson/detail/status.hpp"

namespace redisson::detail {

using LockGroup = std::shared_ptr<const std::vector<BasicLock>>;

/// Releases one hold of `owner` on members [0, count), all at once; `done` runs once every one
/// answered, with the first failure (the member's name in its detail), if any.
void unlock_group(const LockGroup& locks, std::size_t count, OwnerId owner, Done<void> done);

}  // namespace redisson::detail
