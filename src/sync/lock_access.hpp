// The library's way to the LockKind behind a public lock handle (MultiLock and RedLock drive
// their members through it, keeping the members' Status and cancellation).
#pragma once

#include <memory>

#include "redisson/basic_lock.hpp"
#include "sync/lock_kind.hpp"

namespace redisson::detail {

struct LockAccess {
  static const std::shared_ptr<LockKind>& kind(const BasicLock& lock) noexcept {
    return lock.kind_;
  }
};

}  // namespace redisson::detail
